import {
  dailyInput,
  periodInput,
  qrCodeAnalyticsInput,
  qrCodeDailyInput,
  qrCodeLocationsInput,
} from '../../../src/analytics/analytics.schema.js';
import { qrCodeOutcomesInput } from '../../../src/qr/scan-outcome.js';
import { router, workspaceProcedure } from '../../trpc/init.js';
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
  user: workspaceProcedure('viewer')
    .input(periodInput.optional())
    .query(({ ctx, input }) => getUserSummary(ctx, ctx.owner, input ?? periodInput.parse({}))),
  qrCode: workspaceProcedure('viewer')
    .input(qrCodeAnalyticsInput)
    .query(({ ctx, input }) => getQrCodeAnalytics(ctx, ctx.owner, input.id, input)),
  qrCodeDaily: workspaceProcedure('viewer')
    .input(qrCodeDailyInput)
    .query(({ ctx, input }) => getQrCodeDaily(ctx, ctx.owner, input.id, input)),
  qrCodeLocations: workspaceProcedure('viewer')
    .input(qrCodeLocationsInput)
    .query(({ ctx, input }) => getQrCodeLocations(ctx, ctx.owner, input.id, input)),
  qrCodeOutcomes: workspaceProcedure('viewer')
    .input(qrCodeOutcomesInput)
    .query(({ ctx, input }) => getQrCodeOutcomes(ctx, ctx.owner, input.id, input)),
  daily: workspaceProcedure('viewer')
    .input(dailyInput.optional())
    .query(({ ctx, input }) => getDailyScans(ctx, ctx.owner, input ?? dailyInput.parse({}))),
  devices: workspaceProcedure('viewer')
    .input(periodInput.optional())
    .query(({ ctx, input }) => getDeviceCounts(ctx, ctx.owner, input ?? periodInput.parse({}))),
  hourly: workspaceProcedure('viewer')
    .input(periodInput.optional())
    .query(({ ctx, input }) => getHourlyScans(ctx, ctx.owner, input ?? periodInput.parse({}))),
  locations: workspaceProcedure('viewer')
    .input(periodInput.optional())
    .query(({ ctx, input }) => getLocationCounts(ctx, ctx.owner, input ?? periodInput.parse({}))),
  performance: workspaceProcedure('viewer')
    .input(periodInput.optional())
    .query(({ ctx, input }) => getCodePerformance(ctx, ctx.owner, input ?? periodInput.parse({}))),
});
