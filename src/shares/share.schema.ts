import { z } from 'zod';
import {
  dailyCountSchema,
  deviceCountSchema,
  hourlyCountSchema,
  isTimeZone,
  locationCountSchema,
} from '../analytics/analytics.schema.js';

/**
 * Shared dashboards (issue 36): a read-only link to one code's or one folder's analytics, optionally
 * behind a password and expiring, revocable; opened without signing in at `/share/<token>`.
 */

/** The periods a shared dashboard offers (days). */
export const SHARE_PERIODS = [7, 30, 90, 365] as const;
export const DEFAULT_SHARE_DAYS = 30;
/** The expiries the dialog offers (days from now); null: never. */
export const SHARE_EXPIRIES = [7, 30, 90] as const;
export const SHARE_PASSWORD_MAX = 200;
/** The link's path in the app, after PUBLIC_URL. */
export const sharePath = (token: string) => `/share/${token}`;
/** A token: 32 URL-safe characters (24 random bytes). */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

export const shareMessages = {
  notFound: 'This shared dashboard does not exist or has expired',
  wrongPassword: 'Wrong password',
  passwordNeeded: 'This dashboard is protected: unlock it with its password first',
  oneTarget: 'Give either qrCodeId or folderId',
  pastExpiry: 'expiresAt must be in the future',
  shareNotFound: 'Share link not found',
  tooManyRequests: 'Too many requests for shared dashboards',
} as const;

const idField = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be a positive number`)
    .max(2_147_483_647, `${name} is too large`);
const qrCodeId = idField('qrCodeId');
const folderId = idField('folderId');

/** POST /api/analytics-shares: a code or a folder (exactly one), an optional password and expiry. */
export const createShareInput = z.object({
  qrCodeId: qrCodeId.optional(),
  folderId: folderId.optional(),
  password: z
    .string({ error: 'password must be text' })
    .min(1, 'password must not be empty')
    .max(SHARE_PASSWORD_MAX, `password must be at most ${SHARE_PASSWORD_MAX} characters`)
    .optional(),
  expiresAt: z.iso
    .datetime({ error: 'expiresAt must be an ISO date-time such as 2027-01-31T00:00:00Z' })
    .nullable()
    .optional(),
});
export type CreateShareInput = z.input<typeof createShareInput>;

/** GET /api/analytics-shares: the workspace's live links, or one code's, or one folder's. */
export const listSharesInput = z.object({
  qrCodeId: qrCodeId.optional(),
  folderId: folderId.optional(),
});

export const shareIdInput = z.object({
  id: idField('Id'),
});

const shareKind = z.enum(['code', 'folder']);

/** A link as its owner sees it. */
export const analyticsShareSchema = z.object({
  id: z.number().int(),
  kind: shareKind,
  qrCodeId: z.number().int().nullable(),
  folderId: z.number().int().nullable(),
  title: z.string().meta({ description: "The code's or the folder's name." }),
  url: z.string().meta({ description: 'The link to open signed out: <PUBLIC_URL>/share/<token>.' }),
  hasPassword: z.boolean(),
  expiresAt: z.string().nullable().meta({ format: 'date-time' }),
  createdAt: z.string().meta({ format: 'date-time' }),
  views: z.number().int(),
  lastViewedAt: z.string().nullable().meta({ format: 'date-time' }),
});
export type AnalyticsShare = z.infer<typeof analyticsShareSchema>;
export const analyticsSharesAnswer = z.object({ items: z.array(analyticsShareSchema) });

// ---- The public side ----

/** Any text: a token of the wrong shape is as unknown as a revoked one (404), not a bad request. */
const tokenParam = z.string().max(200, shareMessages.notFound).meta({ description: "The link's token." });
/** The public paths name the link by its token (in the `:id` place every path parameter takes). */
export const shareTokenParams = z.object({ id: tokenParam });

/** GET /api/public/shares/{token}: the period (7, 30, 90 or 365 days), the viewer's zone, bots left out or not. */
export const publicShareQuery = z.object({
  days: z.coerce
    .number({ error: 'days must be 7, 30, 90 or 365' })
    .refine((d) => (SHARE_PERIODS as readonly number[]).includes(d), 'days must be 7, 30, 90 or 365')
    .default(DEFAULT_SHARE_DAYS),
  tz: z
    .string({ error: 'tz must be an IANA time zone such as Europe/Berlin' })
    .max(64, 'tz must be an IANA time zone such as Europe/Berlin')
    .refine(isTimeZone, 'tz must be an IANA time zone such as Europe/Berlin')
    .default('UTC'),
  excludeBots: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'excludeBots must be true or false' })
    .transform((v) => v === true || v === 'true' || v === '1')
    .default(false),
});
export const viewShareInput = publicShareQuery.extend({ token: tokenParam });

export const unlockShareBody = z.object({
  password: z
    .string({ error: 'password is required' })
    .min(1, 'password is required')
    .max(1024, 'password is too long'),
});
export const unlockShareInput = unlockShareBody.extend({ token: tokenParam });

const count = z.number().int();

/** What a shared dashboard shows for its period: no ids, slugs, contents or addresses. */
export const sharedAnalyticsSchema = z.object({
  days: z.number().int(),
  totalScans: count,
  uniqueScanners: count.nullable().meta({
    description:
      'Daily-unique scanners summed over the days of the period (null when none of its scans had them counted).',
  }),
  uniqueScannersPartial: z.boolean(),
  daily: z.array(dailyCountSchema),
  hourly: z.array(hourlyCountSchema),
  devices: z.array(deviceCountSchema),
  locations: z.array(locationCountSchema),
  codes: z
    .array(z.object({ name: z.string(), scans: count }))
    .nullable()
    .meta({
      description: "A folder's codes with their scans in the period, most scanned first; null for a code.",
    }),
});
export type SharedAnalytics = z.infer<typeof sharedAnalyticsSchema>;

export const publicShareSchema = z.object({
  kind: shareKind,
  title: z.string(),
  needsPassword: z.boolean().meta({
    description: 'True while the link has a password this browser has not unlocked: analytics is null then.',
  }),
  expiresAt: z.string().nullable().meta({ format: 'date-time' }),
  analytics: sharedAnalyticsSchema.nullable(),
});
export type PublicShare = z.infer<typeof publicShareSchema>;

export const unlockShareAnswer = z.object({ unlocked: z.literal(true) });
