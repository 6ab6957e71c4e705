import { z } from 'zod';
import {
  dailyCountSchema,
  dailyInput,
  deviceCountSchema,
  hourlyCountSchema,
  locationCountSchema,
  performanceRowSchema,
  periodInput,
  qrCodeAnalyticsInput,
  qrCodeAnalyticsSchema,
  qrCodeDailyInput,
  userSummarySchema,
} from '../../../src/analytics/analytics.schema.js';
import { idInput } from '../../../src/qr/qr.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';

/**
 * The analytics paths, each the twin of an analytics.* procedure. Query parameters: `days` (1–365),
 * `tz` (IANA zone, default UTC), `excludeBots` (true/false); `page` for a code's scan history.
 */
export const analyticsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/analytics/user',
    summary: "Totals of the caller's codes over the period (all time without `days`).",
    access: 'user',
    answer: userSummarySchema,
    query: periodInput,
    handler: ({ caller, query }) => caller.analytics.user(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/analytics/qr-codes/:id',
    summary: "One code's figures and a page of its scan history; another user's code is 404.",
    access: 'user',
    object: 'qrCode',
    answer: qrCodeAnalyticsSchema,
    params: idInput,
    query: qrCodeAnalyticsInput.omit({ id: true }),
    handler: ({ caller, params, query }) => caller.analytics.qrCode({ ...query, id: params.id }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/analytics/qr-codes/:id/daily',
    summary: "One code's scans per local day (`days`, default 7).",
    access: 'user',
    object: 'qrCode',
    answer: z.array(dailyCountSchema),
    params: idInput,
    query: qrCodeDailyInput.omit({ id: true }),
    handler: ({ caller, params, query }) => caller.analytics.qrCodeDaily({ ...query, id: params.id }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/analytics/daily',
    summary: "Scans of all the caller's codes per local day (`days`, default 7).",
    access: 'user',
    answer: z.array(dailyCountSchema),
    query: dailyInput,
    handler: ({ caller, query }) => caller.analytics.daily(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/analytics/devices',
    summary: 'Scans by device category.',
    access: 'user',
    answer: z.array(deviceCountSchema),
    query: periodInput,
    handler: ({ caller, query }) => caller.analytics.devices(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/analytics/hourly',
    summary: 'Scans by local hour of the day.',
    access: 'user',
    answer: z.array(hourlyCountSchema),
    query: periodInput,
    handler: ({ caller, query }) => caller.analytics.hourly(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/analytics/locations',
    summary: 'Scans by country.',
    access: 'user',
    answer: z.array(locationCountSchema),
    query: periodInput,
    handler: ({ caller, query }) => caller.analytics.locations(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/analytics/performance',
    summary: "Each code's scans over the period, most scanned first.",
    access: 'user',
    answer: z.array(performanceRowSchema),
    query: periodInput,
    handler: ({ caller, query }) => caller.analytics.performance(query),
  }),
];
