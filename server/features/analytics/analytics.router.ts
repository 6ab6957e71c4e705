import {
  dailyInput,
  periodInput,
  qrCodeAnalyticsInput,
  qrCodeDailyInput,
  qrCodeLocationsInput,
} from '../../../src/analytics/analytics.schema.js';
import { qrCodeOutcomesInput } from '../../../src/qr/scan-outcome.js';
import { authedProcedure, router } from '../../trpc/init.js';
import {
  getCodePerformance,
  getDailyScans,
  getDeviceCounts,
  getHourlyScans,
  getLocationCounts,
  getQrCodeAnalytics,
  getQrCodeDaily,
  getQrCodeLocations,
  getUserSummary,
} from './analytics.service.js';
import { getQrCodeOutcomes } from './scan-outcomes.js';

/** Every procedure reads only the caller's own codes; another user's code is 404. */
export const analyticsRouter = router({
  user: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => getUserSummary(ctx, ctx.user, input ?? periodInput.parse({}))),
  qrCode: authedProcedure
    .input(qrCodeAnalyticsInput)
    .query(({ ctx, input }) => getQrCodeAnalytics(ctx, ctx.user, input.id, input)),
  qrCodeDaily: authedProcedure
    .input(qrCodeDailyInput)
    .query(({ ctx, input }) => getQrCodeDaily(ctx, ctx.user, input.id, input)),
  qrCodeLocations: authedProcedure
    .input(qrCodeLocationsInput)
    .query(({ ctx, input }) => getQrCodeLocations(ctx, ctx.user, input.id, input)),
  qrCodeOutcomes: authedProcedure
    .input(qrCodeOutcomesInput)
    .query(({ ctx, input }) => getQrCodeOutcomes(ctx, ctx.user, input.id, input)),
  daily: authedProcedure
    .input(dailyInput.optional())
    .query(({ ctx, input }) => getDailyScans(ctx, ctx.user, input ?? dailyInput.parse({}))),
  devices: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => getDeviceCounts(ctx, ctx.user, input ?? periodInput.parse({}))),
  hourly: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => getHourlyScans(ctx, ctx.user, input ?? periodInput.parse({}))),
  locations: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => getLocationCounts(ctx, ctx.user, input ?? periodInput.parse({}))),
  performance: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => getCodePerformance(ctx, ctx.user, input ?? periodInput.parse({}))),
});
