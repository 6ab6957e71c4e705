import { z } from 'zod';
import { pagedQuery } from '../api/paging.js';
import { safeFileName } from '../file-name.js';
import { qrIdSchema } from '../qr/qr-id.js';
import { qrTypes } from '../qr/qr-types.js';
import { qrCodeSchema } from '../qr/qr.schema.js';

/** The periods the analytics screens offer; the API takes any whole number of days from 1 to 365. */
export const ANALYTICS_PERIODS = [7, 14, 30, 90] as const;
export const DEFAULT_DAYS = 7;
export const MAX_DAYS = 365;
/** Scan history rows per page. */
export const SCAN_HISTORY_PAGE_SIZE = 10;

export const deviceCategories = ['Mobile', 'Tablet', 'Desktop', 'Bot', 'Unknown'] as const;
export type DeviceCategory = (typeof deviceCategories)[number];

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Query strings carry text: "7" is 7. */
const days = z.coerce
  .number({ error: 'days must be a number' })
  .int('days must be a whole number')
  .min(1, `days must be between 1 and ${MAX_DAYS}`)
  .max(MAX_DAYS, `days must be between 1 and ${MAX_DAYS}`);

/** The viewer's IANA time zone: days and hours are counted in it. */
const tz = z
  .string({ error: 'tz must be an IANA time zone such as Europe/Berlin' })
  .max(64, 'tz must be an IANA time zone such as Europe/Berlin')
  .refine(isTimeZone, 'tz must be an IANA time zone such as Europe/Berlin')
  .default('UTC');

/** "true"/"false" in a query string, a boolean in tRPC. */
const excludeBots = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], {
    error: 'excludeBots must be true or false',
  })
  .transform((v) => v === true || v === 'true' || v === '1')
  .default(false);

const common = { tz, excludeBots };

/** daily series: `days` defaults to 7. */
export const dailyInput = z.object({ days: days.default(DEFAULT_DAYS), ...common });
/** devices, hourly, locations, performance, user summary: without `days`, all time. */
export const periodInput = z.object({ days: days.optional(), ...common });
export const qrCodeDailyInput = z.object({ id: qrIdSchema, days: days.default(DEFAULT_DAYS), ...common });
export const qrCodeAnalyticsInput = z.object({
  id: qrIdSchema,
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(1_000_000, 'page is too large')
    .default(1),
  ...common,
});
/**
 * GET /api/analytics/qr-codes/{id}/scans: the code's scan history as a paged list (src/api/paging.ts),
 * newest first by default; `excludeBots` leaves out the scans of bots.
 */
export const codeScansQuery = pagedQuery({
  sort: ['timestamp'] as const,
  defaultSort: 'timestamp',
  searchIn: 'place (city, region, country)',
  filters: { excludeBots },
});
export type CodeScansQuery = z.output<typeof codeScansQuery>;

/** One code's scans per location: without `days`, all time (as the details page's totals). */
export const qrCodeLocationsInput = z.object({ id: qrIdSchema, days: days.optional(), ...common });

export type DailyInput = z.input<typeof dailyInput>;
export type PeriodInput = z.input<typeof periodInput>;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
function dateField(label: string) {
  return z
    .string({ error: `${label} must be a date (YYYY-MM-DD)` })
    .regex(isoDate, `${label} must be a date (YYYY-MM-DD)`)
    .refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `${label} must be a real date`,
    );
}

export const REPORT_TYPES = ['full', 'activity', 'performance'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_TYPE_LABELS: Record<ReportType, string> = {
  full: 'Full Analytics Report',
  activity: 'Scan Activity',
  performance: 'QR Code Performance',
};
export const REPORT_FORMATS = ['csv', 'xlsx', 'pdf', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
/** Longest range one report covers. */
export const MAX_REPORT_DAYS = 3660;

/** GET /api/analytics/export: a report for the inclusive local dates from..to. */
export const exportInput = z
  .object({
    from: dateField('from'),
    to: dateField('to'),
    type: z.enum(REPORT_TYPES, { error: `type must be one of ${REPORT_TYPES.join(', ')}` }),
    format: z.enum(REPORT_FORMATS, { error: `format must be one of ${REPORT_FORMATS.join(', ')}` }),
    ...common,
  })
  .refine((v) => v.from <= v.to, { message: 'from must not be after to', path: ['from'] })
  .refine(
    (v) =>
      (Date.parse(`${v.to}T00:00:00Z`) - Date.parse(`${v.from}T00:00:00Z`)) / 86_400_000 < MAX_REPORT_DAYS,
    { message: `A report covers at most ${MAX_REPORT_DAYS} days`, path: ['to'] },
  );
export type ExportInput = z.output<typeof exportInput>;

/** A report's file name: its Content-Disposition, and the page's own when that header is unreadable. */
export function reportFileName(input: Pick<ExportInput, 'type' | 'from' | 'to' | 'format'>): string {
  return safeFileName(`qr-analytics-${input.type}-${input.from}-to-${input.to}.${input.format}`);
}

// ---- Answers (the analytics shapes of the API, plus fields the screens need) ----

const count = z.number().int();
const qrType = z.enum(qrTypes);

/** Unique scanners, daily-unique (README "Analytics"): null where they were not counted yet. */
const uniqueScanners = count.nullable();
const uniqueScannersPartial = z.boolean().meta({
  description:
    'True when some scans of the period were counted before unique scanners were: their days are left out of uniqueScanners.',
});

export const dailyCountSchema = z.object({
  date: z.string().meta({ format: 'date', description: "The viewer's local date, YYYY-MM-DD." }),
  count,
  uniqueScanners: uniqueScanners.meta({
    description:
      "People who scanned that day (bots never count; the same person on two codes counts on each). Null: the day's scans were counted before unique scanners were.",
  }),
});
export type DailyCount = z.infer<typeof dailyCountSchema>;

export const deviceCountSchema = z.object({ device: z.enum(deviceCategories), count });
export type DeviceCount = z.infer<typeof deviceCountSchema>;

export const hourlyCountSchema = z.object({
  hour: z.number().int().min(0).max(23).meta({ description: "0–23 in the viewer's time zone." }),
  count,
});
export type HourlyCount = z.infer<typeof hourlyCountSchema>;

export const locationCountSchema = z.object({ location: z.string(), count });
export type LocationCount = z.infer<typeof locationCountSchema>;

export const performanceRowSchema = z.object({
  qrCodeId: z.number().int(),
  name: z.string(),
  type: qrType,
  count,
});
export type PerformanceRow = z.infer<typeof performanceRowSchema>;

export const userSummarySchema = z.object({
  totalQRCodes: count,
  totalScans: count.meta({
    description: "All scans of all the user's codes (or within `days` when given).",
  }),
  qrCodeScans: z
    .array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        type: qrType,
        scans: count,
        lastScanAt: z.string().nullable().meta({
          format: 'date-time',
          description:
            "ISO time of the code's most recent scan (all time; bots left out with excludeBots), or null.",
        }),
      }),
    )
    .meta({ description: 'Every code with its scans, most scanned first.' }),
  lastScanAt: z.string().nullable().meta({
    format: 'date-time',
    description: "ISO time of the most recent scan of any of the user's codes, or null.",
  }),
  uniqueScanners: uniqueScanners.meta({
    description:
      "Daily-unique scanners of all the user's codes, summed over the days of the period: a person scanning on two days, or two codes, counts twice; bots never count. Null when none of the period's scans had them counted.",
  }),
  uniqueScannersPartial,
});
export type UserSummary = z.infer<typeof userSummarySchema>;

export const scanHistoryRowSchema = z.object({
  id: z.number().int(),
  timestamp: z.string().meta({ format: 'date-time' }),
  userAgent: z.string().nullable(),
  location: z.string().nullable(),
  ipAddress: z.string().nullable(),
  device: z.enum(deviceCategories),
  deviceName: z
    .string()
    .nullable()
    .meta({ description: "'iPhone', 'Chrome on Windows'… from the user agent, or null." }),
});
export type ScanHistoryRow = z.infer<typeof scanHistoryRowSchema>;

export const qrCodeAnalyticsSchema = z.object({
  qrCode: qrCodeSchema,
  scans: z.array(scanHistoryRowSchema).meta({ description: 'One page of the scan history, newest first.' }),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
  totalScans: count,
  uniqueLocations: count,
  uniqueDevices: count,
  devices: z.array(deviceCountSchema),
  throttledScans: count.meta({
    description:
      'Scans not counted above: one client (address and user agent) beyond SCANS_PER_CLIENT_MINUTE on this code, such as a redirect loop.',
  }),
  refusedScans: count.meta({
    description:
      'Of the scans above: those answered with the "not available" page or the fallback URL because the code was paused, not started yet, ended or over its scan limit (smart redirects).',
  }),
  uniqueScanners: uniqueScanners.meta({
    description:
      "The code's daily-unique scanners over all time: each day's distinct people (bots never count), summed over the days, so a person scanning on two days counts twice. Null when none of its scans had them counted.",
  }),
  uniqueScannersPartial,
  historyFrom: z.iso.datetime().nullable().meta({
    description:
      'With SCAN_RETENTION_DAYS: the scan history (scans, totalPages) holds scans from this time on; older scans still count in every total and chart. Null: the whole history is kept.',
  }),
});
export type QrCodeAnalytics = z.infer<typeof qrCodeAnalyticsSchema>;
