import {
  dailyInput,
  periodInput,
  qrCodeAnalyticsInput,
  qrCodeDailyInput,
} from '../../../src/analytics/analytics.schema.js';
import { authedProcedure, router } from '../../trpc/init.js';
import {
  codePerformance,
  daily,
  devices,
  hourly,
  locations,
  qrCodeAnalytics,
  qrCodeDaily,
  userSummary,
} from './analytics.service.js';

/** Every procedure reads only the caller's own codes; another user's code is 404. */
export const analyticsRouter = router({
  user: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => userSummary(ctx, ctx.user, input ?? periodInput.parse({}))),
  qrCode: authedProcedure
    .input(qrCodeAnalyticsInput)
    .query(({ ctx, input }) => qrCodeAnalytics(ctx, ctx.user, input.id, input)),
  qrCodeDaily: authedProcedure
    .input(qrCodeDailyInput)
    .query(({ ctx, input }) => qrCodeDaily(ctx, ctx.user, input.id, input)),
  daily: authedProcedure
    .input(dailyInput.optional())
    .query(({ ctx, input }) => daily(ctx, ctx.user, input ?? dailyInput.parse({}))),
  devices: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => devices(ctx, ctx.user, input ?? periodInput.parse({}))),
  hourly: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => hourly(ctx, ctx.user, input ?? periodInput.parse({}))),
  locations: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => locations(ctx, ctx.user, input ?? periodInput.parse({}))),
  performance: authedProcedure
    .input(periodInput.optional())
    .query(({ ctx, input }) => codePerformance(ctx, ctx.user, input ?? periodInput.parse({}))),
});
