import { z } from 'zod';

/**
 * Forwarding scans to web analytics (issue 36, item 2): per workspace, optionally, each scan is sent
 * server-side to one Matomo, Plausible or Google Analytics 4 property, with the code as the campaign,
 * without cookies, and with the client address passed on as the workspace chooses. The settings are
 * read and changed by the workspace's admins; secrets are never answered back.
 */

export const forwardingProviders = ['matomo', 'plausible', 'ga4'] as const;
export type ForwardingProvider = (typeof forwardingProviders)[number];

export const providerLabels: Record<ForwardingProvider, string> = {
  matomo: 'Matomo',
  plausible: 'Plausible',
  ga4: 'Google Analytics 4',
};

/**
 * What client address is passed on: none; masked (IPv4's last octet, IPv6's last 80 bits zeroed); or
 * full (as stored: with ANONYMIZE_IPS the stored address is already masked, and never more is sent).
 */
export const addressModes = ['none', 'masked', 'full'] as const;
export type AddressMode = (typeof addressModes)[number];

export const PLAUSIBLE_DEFAULT_URL = 'https://plausible.io';

const httpUrl = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .max(500, `${field} must be at most 500 characters`)
    .pipe(z.url({ protocol: /^https?$/, error: `${field} must be an http(s) address` }));

const secret = (field: string) =>
  z
    .string()
    .trim()
    .min(1, `${field} must not be empty`)
    .max(200, `${field} must be at most 200 characters`)
    .regex(/^[\x21-\x7e]+$/, `${field} must be printable characters without spaces`);

const common = {
  enabled: z.boolean({ error: 'enabled must be true or false' }).default(true),
  address: z.enum(addressModes, { error: 'address must be none, masked or full' }).default('masked'),
};

export const matomoSettingsInput = z.object({
  provider: z.literal('matomo'),
  /** The Matomo address (`https://matomo.example.com`) or its tracker (`…/matomo.php`). */
  url: httpUrl('url'),
  siteId: z.coerce
    .number({ error: 'siteId must be a number' })
    .int('siteId must be a whole number')
    .min(1, 'siteId must be 1 or more')
    .max(1_000_000_000, 'siteId is too large'),
  /** Lets Matomo take the client address (`cip`) and an older time (`cdt`); kept when left out. */
  tokenAuth: secret('tokenAuth').optional(),
  ...common,
});

export const plausibleSettingsInput = z.object({
  provider: z.literal('plausible'),
  url: httpUrl('url').default(PLAUSIBLE_DEFAULT_URL),
  /** The site's domain as added in Plausible. */
  domain: z
    .string({ error: 'domain is required' })
    .trim()
    .min(1, 'domain is required')
    .max(253, 'domain must be at most 253 characters')
    .regex(/^[^\s/?#]+$/, 'domain must be a domain name such as example.com'),
  ...common,
});

export const ga4SettingsInput = z.object({
  provider: z.literal('ga4'),
  measurementId: z
    .string({ error: 'measurementId is required' })
    .trim()
    .regex(/^G-[A-Z0-9]{4,20}$/i, 'measurementId must look like G-XXXXXXXXXX'),
  /** Required the first time; kept when left out. */
  apiSecret: secret('apiSecret').optional(),
  ...common,
});

/** PUT /api/analytics-forwarding: the provider and its fields, whether it is on, and the address option. */
export const forwardingSettingsInput = z.discriminatedUnion(
  'provider',
  [matomoSettingsInput, plausibleSettingsInput, ga4SettingsInput],
  { error: 'provider must be matomo, plausible or ga4' },
);
export type ForwardingSettingsInput = z.infer<typeof forwardingSettingsInput>;

const status = {
  enabled: z.boolean(),
  address: z.enum(addressModes),
  /** When a scan (or a test event) was last accepted by the provider. */
  lastSuccessAt: z.string().nullable(),
  lastError: z
    .object({
      message: z.string(),
      /** The provider's HTTP status, null when it did not answer. */
      httpStatus: z.number().int().nullable(),
      at: z.string(),
    })
    .nullable(),
  sentCount: z.number().int().min(0),
  failedCount: z.number().int().min(0),
  updatedAt: z.string(),
};

/** The settings as answered: never a secret, only whether one is kept. */
export const forwardingSettingsSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('matomo'),
    url: z.string(),
    siteId: z.number().int(),
    hasTokenAuth: z.boolean(),
    ...status,
  }),
  z.object({ provider: z.literal('plausible'), url: z.string(), domain: z.string(), ...status }),
  z.object({ provider: z.literal('ga4'), measurementId: z.string(), hasApiSecret: z.boolean(), ...status }),
]);
export type ForwardingSettings = z.infer<typeof forwardingSettingsSchema>;

/** GET: the settings, or null when the workspace forwards nowhere. */
export const forwardingAnswer = z.object({ settings: forwardingSettingsSchema.nullable() });
export type ForwardingAnswer = z.infer<typeof forwardingAnswer>;

/** POST …/test: what the provider said to one test event. */
export const forwardingTestAnswer = z.object({
  ok: z.boolean(),
  /** The provider's HTTP status, null when it did not answer. */
  httpStatus: z.number().int().nullable(),
  /** The start of the provider's answer, or what went wrong. */
  message: z.string(),
});
export type ForwardingTestAnswer = z.infer<typeof forwardingTestAnswer>;

export const forwardingMessages = {
  apiSecretRequired: 'apiSecret is required for Google Analytics 4',
  notConfigured: 'Forwarding to web analytics is not set up for this workspace',
  removed: 'Forwarding to web analytics removed',
} as const;
