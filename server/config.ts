import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_FREE_LIMIT } from '../src/plans.js';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const positiveInt = (max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`);

/** Environment variables as documented in README's configuration table. */
const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().trim().min(1, 'must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^(sqlite:|postgres:\/\/|postgresql:\/\/)/, 'must start with sqlite: or postgres://')
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
  ),
  ADMIN_USERNAME: z.string().trim().min(3, 'must be at least 3 characters').max(50).default('admin'),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(6, 'must be at least 6 characters').max(256).optional()),
  ADMIN_EMAIL: optionalText.pipe(z.email({ error: 'must be an e-mail address' }).optional()),
  // Unset: on for a local PUBLIC_URL only (isLocalUrl).
  SEED_DEMO: booleanFlag.optional(),
  FREE_PLAN_LIMIT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(1_000_000)
    .default(DEFAULT_FREE_LIMIT),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: optionalText,
  MAIL_SUPPORT: optionalText.pipe(z.email({ error: 'must be an e-mail address' }).optional()),
  REQUIRE_EMAIL_VERIFICATION: booleanFlag.default(false),
  REGISTRATION_OPEN: booleanFlag.default(true),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_PRICE_PRO: optionalText,
  STRIPE_PRICE_PREMIUM: optionalText,
  STRIPE_API_URL: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  ),
  TRUST_PROXY: optionalText,
  ANONYMIZE_IPS: booleanFlag.default(false),
  GEOIP_CITY_DB: optionalText,
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  UPLOAD_QUOTA_MB: positiveInt(1_000_000).default(25),
  REGISTRATIONS_PER_HOUR: positiveInt(1_000_000).default(5),
  SCAN_RETENTION_DAYS: positiveInt(36_500).optional(),
  SCANS_PER_CLIENT_MINUTE: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 (off) or more')
    .max(1_000_000, 'must be at most 1000000')
    .default(30),
  ACCESS_LOG: booleanFlag.default(false),
  SLOW_REQUEST_MS: positiveInt(600_000).default(1000),
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  METRICS_PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(1, 'must be between 1 and 65535')
    .max(65535, 'must be between 1 and 65535')
    .optional(),
  SESSION_IDLE_HOURS: positiveInt(24 * 365).default(24 * 7),
  SESSION_MAX_DAYS: positiveInt(365).default(30),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  publicUrl: string;
  adminUsername: string;
  adminPassword: string | undefined;
  adminEmail: string | undefined;
  /** The demo account on first start: SEED_DEMO, or when unset, whether PUBLIC_URL is local (isLocalUrl). */
  seedDemo: boolean;
  freePlanLimit: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** A support address named in the sender-verification help (besides MAIL_FROM). */
  mailSupport: string;
  requireEmailVerification: boolean;
  /** Whether visitors may register (an admin can change it at run time; this is the default). */
  registrationOpen: boolean;
  /** Stripe Checkout and its webhook; absent: upgrades are requested from an admin instead. */
  stripe: StripeConfig | undefined;
  trustProxy: string | undefined;
  anonymizeIps: boolean;
  geoipCityDb: string | undefined;
  logLevel: string;
  /** Sign-ups one client address may make in an hour (loopback is not counted: see login-throttle). */
  registrationsPerHour: number;
  /** Scans one client (address and user agent) may add to one code in a minute; 0: no limit. */
  scansPerClientMinute: number;
  /** Raw scans older than this many days are deleted (rollups are kept); undefined: kept forever. */
  scanRetentionDays: number | undefined;
  /**
   * Codes without a scan-safety verdict are checked in the background (scan-verdicts.ts). Always on in
   * the server; tests turn it off (a check landing mid-test would change the answers they compare) and
   * start it themselves where they test it.
   */
  backgroundScanChecks: boolean;
  /**
   * The timed sweeps: unused logos, raw scans past SCAN_RETENTION_DAYS, finished days' visitor salts and
   * sets (each a minute after start, then on its interval). Always on in the server; tests turn them
   * off (a sweep firing a minute into a long test, on its test clock, would delete what the test is
   * counting) and call the sweeps they test themselves.
   */
  backgroundSweeps: boolean;
  /**
   * How long POST /api/qr-codes/bulk/parse may read one spreadsheet (in its worker) before it is stopped
   * and the file refused. 15 s in the server; tests shorten it.
   */
  bulkParseTimeoutMs: number;
  /** Upload storage of a Free user, in bytes (Pro ×4, Premium and admins ×20: src/plans.ts). */
  uploadQuotaBytes: number;
  /** One log line per request (method, route, status, time; never the query or a client address). */
  accessLog: boolean;
  /** A request slower than this is logged at warn even without the access log. */
  slowRequestMs: number;
  /** GET /metrics answers a Bearer of this token; absent (and no port): no metrics. */
  metricsToken: string | undefined;
  /** /metrics on a port of its own (no token needed there), e.g. bound for a local Prometheus. */
  metricsPort: number | undefined;
  sessionIdleMs: number;
  sessionMaxMs: number;
};

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  prices: { pro: string; premium: string };
  /** Another address for Stripe's API (a local stand-in in tests); Stripe's own by default. */
  apiUrl: string | undefined;
}

export class ConfigError extends Error {}

/** Stripe is on when its secret key is set; then the webhook secret and both price ids are needed. */
function stripeConfigOf(e: z.infer<typeof envSchema>): StripeConfig | undefined {
  if (!e.STRIPE_SECRET_KEY) return undefined;
  for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_PREMIUM'] as const) {
    if (!e[name])
      throw new ConfigError(`Invalid configuration: ${name} is required when STRIPE_SECRET_KEY is set`);
  }
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
    prices: { pro: e.STRIPE_PRICE_PRO!, premium: e.STRIPE_PRICE_PREMIUM! },
    apiUrl: e.STRIPE_API_URL,
  };
}

/** Turns the environment into a typed config; a bad value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty value (`PORT=` in a .env file) means unset, never 0 or "".
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    // The value itself is not echoed: it may be a secret (ADMIN_PASSWORD, SMTP_URL).
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'qr-creator.db')}`,
    publicUrl,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    adminEmail: e.ADMIN_EMAIL,
    seedDemo: e.SEED_DEMO ?? isLocalUrl(publicUrl),
    freePlanLimit: e.FREE_PLAN_LIMIT,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `QR Creator <no-reply@${new URL(publicUrl).hostname}>`,
    mailSupport: e.MAIL_SUPPORT ?? `support@${new URL(publicUrl).hostname}`,
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION,
    registrationOpen: e.REGISTRATION_OPEN,
    stripe: stripeConfigOf(e),
    trustProxy: e.TRUST_PROXY,
    anonymizeIps: e.ANONYMIZE_IPS,
    geoipCityDb: e.GEOIP_CITY_DB,
    logLevel: e.LOG_LEVEL,
    uploadQuotaBytes: e.UPLOAD_QUOTA_MB * 1024 * 1024,
    registrationsPerHour: e.REGISTRATIONS_PER_HOUR,
    scansPerClientMinute: e.SCANS_PER_CLIENT_MINUTE,
    scanRetentionDays: e.SCAN_RETENTION_DAYS,
    backgroundScanChecks: true,
    backgroundSweeps: true,
    bulkParseTimeoutMs: 15_000,
    accessLog: e.ACCESS_LOG,
    slowRequestMs: e.SLOW_REQUEST_MS,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    sessionIdleMs: e.SESSION_IDLE_HOURS * 3_600_000,
    sessionMaxMs: e.SESSION_MAX_DAYS * 86_400_000,
  };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Whether a URL names this machine only: localhost, *.localhost, 127.0.0.0/8 or ::1. The demo account
 * (demo/demo123, which anyone can sign in with) is made by default only for such a PUBLIC_URL; on a public
 * one anyone could use it to make short links on the instance's domain.
 */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '[::1]'
  );
}

/**
 * TRUST_PROXY=true believes any client's X-Forwarded-For: on a server reachable beyond loopback, anyone
 * can then forge the address that per-address limits and stored scans use. Said once at start-up.
 */
export function trustProxyWarning(config: Pick<Config, 'trustProxy' | 'host'>): string | undefined {
  if (config.trustProxy !== 'true' || LOOPBACK_HOSTS.has(config.host)) return undefined;
  return (
    `TRUST_PROXY=true believes X-Forwarded-For from any client, and this server listens on ${config.host}: ` +
    "addresses (login and mail limits, scan locations) can be forged. Set TRUST_PROXY to the proxy's " +
    'address (e.g. 127.0.0.1 or 10.0.0.0/8) or to the number of proxies in front (e.g. 1) instead.'
  );
}

/** A config for tests: everything explicit, nothing read from the environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ DATA_DIR: overrides.dataDir ?? './data', SEED_DEMO: 'false', LOG_LEVEL: 'silent' }),
    backgroundScanChecks: false,
    backgroundSweeps: false,
    ...overrides,
  };
}
