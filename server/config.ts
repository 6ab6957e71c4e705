import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_FREE_LIMIT } from '../src/plans.js';
import { readSsoConfig, ssoWarnings, type SsoConfig } from './features/auth/sso.config.js';

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
  SSO_CONFIG: optionalText,
  OUTBOUND_ALLOWED_HOSTS: optionalText,
  DESTINATION_CHECKS: booleanFlag.default(true),
  ANALYTICS_FORWARDING: booleanFlag.default(true),
  GA4_COLLECT_URL: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  ),
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
  /** Sign-in with the company's accounts (SSO_CONFIG); undefined: local passwords only. */
  sso: SsoConfig | undefined;
  /**
   * What the server may fetch of addresses users give (imports from a Shlink or Kutt server, checks of
   * destinations): never private addresses, except the hosts OUTBOUND_ALLOWED_HOSTS names (comma-separated
   * host names or addresses: an intranet's Shlink, the tests' local stand-ins).
   */
  outbound: { allowedHosts: string[] };
  /**
   * The daily check of codes' destinations (DESTINATION_CHECKS): off where the server cannot reach the
   * web, so that no destination is marked down for it. "Check again" still asks on request.
   */
  destinationChecks: boolean;
  /**
   * The worker that forwards scans to the workspaces' web analytics (ANALYTICS_FORWARDING): off where the
   * server cannot reach them. The settings and "Send a test event" stay available.
   */
  analyticsForwarding: boolean;
  /**
   * Google Analytics 4's Measurement Protocol endpoint (GA4_COLLECT_URL): Google's own by default, the EU
   * one (https://region1.google-analytics.com/mp/collect), or a local stand-in in tests.
   */
  ga4CollectUrl: string;
};

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  prices: { pro: string; premium: string };
  /** Another address for Stripe's API (a local stand-in in tests); Stripe's own by default. */
  apiUrl: string | undefined;
}

/**
 * A configuration that cannot be used. `message` lists every problem, one per line, each in the form
 * `Invalid configuration: <VARIABLE> <what is wrong>`; `problems` holds the same lines.
 */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(message: string, problems: string[] = [message]) {
    super(message);
    this.problems = problems;
  }
}

type Env = z.infer<typeof envSchema>;
export type SettingName = keyof typeof envSchema.shape;

/** Every setting, in the order of the schema above (as check-config lists them). */
export const SETTING_NAMES = Object.keys(envSchema.shape) as SettingName[];

/**
 * The settings that hold secrets. Each can instead be read from the file named by `<NAME>_FILE` (systemd's
 * LoadCredential=, docker secrets), is masked wherever a setting is shown, and makes a config file that
 * other users can read worth a warning. The two URLs count only when they carry a password.
 */
export const SECRET_SETTINGS = [
  'ADMIN_PASSWORD',
  'DATABASE_URL',
  'METRICS_TOKEN',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
] as const satisfies readonly SettingName[];
const SECRET_SET: ReadonlySet<string> = new Set(SECRET_SETTINGS);
const URL_SECRETS: ReadonlySet<string> = new Set(['DATABASE_URL', 'SMTP_URL']);

/**
 * Read by Node or the executable before the server runs, so a config file cannot set them (the file is
 * read too late): they belong in the process's environment.
 */
const PROCESS_VARIABLES: ReadonlySet<string> = new Set([
  'NODE_OPTIONS',
  'MALLOC_ARENA_MAX',
  'MALLOC_MMAP_THRESHOLD_',
  'QR_CREATOR_CACHE',
  'XDG_CACHE_HOME',
  'TZ',
]);

/** Where a setting's value came from. */
export type SettingSource =
  | { from: 'default' }
  | { from: 'environment' }
  | { from: 'config-file'; file: string; line: number }
  | { from: 'secret-file'; variable: string; file: string };

/** One setting as read: its raw value (undefined: unset), the value in effect, and where it came from. */
export interface Setting {
  name: SettingName;
  value: string | undefined;
  /** What the server uses, defaults and derived values included (undefined: off / none). */
  effective: string | undefined;
  source: SettingSource;
  secret: boolean;
}

/** Everything checkConfig found: the config when there is no problem, and every problem otherwise. */
export interface ConfigCheck {
  config: Config | undefined;
  /** Each a line `Invalid configuration: <VARIABLE> …`; empty when the configuration can be used. */
  problems: string[];
  /** Things that work but should not stay so (a config file holding secrets that others can read). */
  warnings: string[];
  /** Every setting, in SETTING_NAMES order; secrets unmasked (show them through maskedValue). */
  settings: Setting[];
  /** The config file read (absolute), when CONFIG_FILE is set. */
  configFile: string | undefined;
}

const invalid = (text: string) => `Invalid configuration: ${text}`;

/** Where a setting came from, in words: `environment`, `CONFIG_FILE /etc/… line 3`, `SMTP_URL_FILE /run/…`. */
export function describeSource(source: SettingSource): string {
  switch (source.from) {
    case 'default':
      return 'default';
    case 'environment':
      return 'environment';
    case 'config-file':
      return `CONFIG_FILE ${source.file} line ${source.line}`;
    case 'secret-file':
      return `${source.variable} ${source.file}`;
  }
}

/** Why a file could not be read, in words (never the file's content). */
function readFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return error instanceof Error ? error.message : String(error);
}

interface FileEntry {
  value: string;
  line: number;
}

/**
 * Parses a `NAME=value` file, the format of systemd's EnvironmentFile= and docker's --env-file: one
 * setting a line; blank lines and lines starting with `#` or `;` are skipped; spaces around the name and
 * the value are dropped; a value may be quoted ('…' literally, "…" with \" \\ \$ \` escapes) and may then
 * be followed by a `# comment`. An unquoted value is taken as written, `#` included (passwords contain
 * them). Problems name the line, never its value (it may be a secret).
 */
export function parseConfigFile(
  text: string,
  where: string,
): { entries: Map<string, FileEntry>; problems: string[] } {
  const entries = new Map<string, FileEntry>();
  const problems: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) return;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(trimmed);
    if (!match) {
      problems.push(invalid(`${where} line ${line} must be NAME=value (a # starts a comment)`));
      return;
    }
    const name = match[1]!;
    const value = unquote(match[2]!.trim());
    if (value === undefined) {
      problems.push(
        invalid(`${name} in ${where} (line ${line}) has an opening quote without its closing one`),
      );
      return;
    }
    const earlier = entries.get(name);
    if (earlier) {
      problems.push(invalid(`${name} is set twice in ${where} (lines ${earlier.line} and ${line})`));
      return;
    }
    entries.set(name, { value, line });
  });
  return { entries, problems };
}

/** A value as written, without its quotes; undefined when a quote is not closed (or text follows it). */
function unquote(value: string): string | undefined {
  const quote = value[0];
  if (quote !== '"' && quote !== "'") return value;
  let result = '';
  for (let i = 1; i < value.length; i++) {
    const char = value[i]!;
    if (char === quote) {
      const rest = value.slice(i + 1).trim();
      return rest === '' || rest.startsWith('#') ? result : undefined;
    }
    if (quote === '"' && char === '\\' && i + 1 < value.length && '"\\$`'.includes(value[i + 1]!)) {
      result += value[++i];
    } else {
      result += char;
    }
  }
  return undefined;
}

/** The closest setting name to a mistyped one (case, or at most two letters off), if any. */
function closestSetting(name: string): string | undefined {
  const upper = name.toUpperCase();
  const candidates = [...SETTING_NAMES, ...SECRET_SETTINGS.map((s) => `${s}_FILE`)];
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(upper, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Whether a value of this setting is a secret (a URL only when it carries a password). */
function holdsSecret(name: string, value: string): boolean {
  if (!SECRET_SET.has(name)) return false;
  if (!URL_SECRETS.has(name)) return true;
  try {
    return new URL(value).password !== '';
  } catch {
    return true;
  }
}

/** A setting's value fit to print: secrets as `********`, a URL's password as `****`. */
export function maskedValue(name: string, value: string | undefined): string | undefined {
  if (value === undefined || !SECRET_SET.has(name)) return value;
  if (URL_SECRETS.has(name)) {
    try {
      const url = new URL(value);
      if (url.password === '') return value;
      url.password = '****';
      return url.href.replace(/\/$/, value.endsWith('/') ? '/' : '');
    } catch {
      return '********';
    }
  }
  return '********';
}

/** One layer of settings: the environment, or the config file. */
interface Layer {
  /** How problems name it: `the environment`, `CONFIG_FILE /etc/qr-creator/qr-creator.conf`. */
  where: string;
  get(name: string): { value: string; source: SettingSource } | undefined;
}

/**
 * Reads and checks the configuration: the environment, over the file named by CONFIG_FILE if any, with
 * each secret possibly read from its `<NAME>_FILE`. Collects every problem rather than stopping at the
 * first. Reads files only; writes nothing.
 */
export function checkConfig(env: NodeJS.ProcessEnv = process.env): ConfigCheck {
  const problems: string[] = [];
  const warnings: string[] = [];
  // An empty value (`PORT=` in a .env file) means unset, never 0 or "".
  const set = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value : undefined);

  const environment: Layer = {
    where: 'the environment',
    get: (name) => {
      const value = set(env[name]);
      return value === undefined ? undefined : { value, source: { from: 'environment' } };
    },
  };
  const layers: Layer[] = [environment];

  const configFileName = set(env.CONFIG_FILE);
  const configFile = configFileName === undefined ? undefined : path.resolve(configFileName.trim());
  if (configFile !== undefined) {
    const where = `CONFIG_FILE ${configFile}`;
    let text: string | undefined;
    try {
      text = fs.readFileSync(configFile, 'utf8');
    } catch (error) {
      problems.push(invalid(`${where} cannot be read: ${readFailure(error)}`));
    }
    if (text !== undefined) {
      const parsed = parseConfigFile(text, where);
      problems.push(...parsed.problems);
      problems.push(...unknownFileEntries(parsed.entries, where));
      const secrets = [...parsed.entries]
        .filter(([name, entry]) => entry.value !== '' && holdsSecret(name, entry.value))
        .map(([name]) => name);
      const mode = secrets.length > 0 ? fileMode(configFile) : 0;
      if ((mode & 0o044) !== 0) {
        warnings.push(
          `${where} holds secrets (${secrets.join(', ')}) and other users can read it ` +
            `(mode ${mode.toString(8).padStart(4, '0')}): chmod 600 it, or move the secrets to ` +
            `files named by ${secrets.map((s) => `${s}_FILE`).join(', ')}.`,
        );
      }
      layers.push({
        where,
        get: (name) => {
          const entry = parsed.entries.get(name);
          return entry === undefined || set(entry.value) === undefined
            ? undefined
            : { value: entry.value, source: { from: 'config-file', file: configFile, line: entry.line } };
        },
      });
    }
  }
  // A _FILE variant of a setting that has none would be ignored: say so rather than run without it.
  for (const name of SETTING_NAMES) {
    if (SECRET_SET.has(name) || set(env[`${name}_FILE`]) === undefined) continue;
    problems.push(invalid(`${name}_FILE is not read: only ${secretFileNames()} exist; set ${name} instead`));
  }

  const raw: Record<string, string> = {};
  const sources = new Map<string, SettingSource>();
  // Set somewhere, even if unreadable or bad (which is then its problem, not "missing").
  const mentioned = new Set<string>();
  for (const name of SETTING_NAMES) {
    const secret = SECRET_SET.has(name);
    // The environment wins over the file, for X and X_FILE together: either of them set in the
    // environment hides both in the file.
    for (const layer of layers) {
      const direct = layer.get(name);
      const fromFile = secret ? layer.get(`${name}_FILE`) : undefined;
      if (!direct && !fromFile) continue;
      mentioned.add(name);
      if (direct && fromFile) {
        problems.push(invalid(`${name} and ${name}_FILE are both set in ${layer.where}: set one of them`));
      } else if (direct) {
        raw[name] = direct.value;
        sources.set(name, direct.source);
      } else if (fromFile) {
        const file = path.resolve(fromFile.value.trim());
        const value = readSecretFile(`${name}_FILE`, file, problems);
        if (value !== undefined) {
          raw[name] = value;
          sources.set(name, { from: 'secret-file', variable: `${name}_FILE`, file });
        }
      }
      break;
    }
  }

  const parsed = envSchema.safeParse(raw);
  const e = parsed.success ? parsed.data : undefined;
  if (!parsed.success) {
    const named = new Set<string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'environment');
      if (named.has(name)) continue;
      named.add(name);
      const source = sources.get(name);
      const from = source && source.from !== 'environment' ? ` (from ${describeSource(source)})` : '';
      // The value itself is not echoed: it may be a secret (ADMIN_PASSWORD, SMTP_URL).
      problems.push(invalid(`${name} ${issue.message}${from}`));
    }
  }
  // Stripe is on when its secret key is set; then the webhook secret and both price ids are needed.
  if (raw.STRIPE_SECRET_KEY !== undefined) {
    for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_PREMIUM'] as const) {
      if (raw[name] === undefined && !mentioned.has(name))
        problems.push(invalid(`${name} is required when STRIPE_SECRET_KEY is set`));
    }
  }

  let sso: SsoConfig | undefined;
  if (e?.SSO_CONFIG !== undefined) {
    const read = readSsoConfig(path.resolve(e.SSO_CONFIG), e.ADMIN_USERNAME);
    problems.push(...read.problems.map(invalid));
    warnings.push(...ssoWarnings(read.sso));
    sso = read.sso;
  }
  const config = e && problems.length === 0 ? toConfig(e, sso) : undefined;
  const effective = config && e ? effectiveValues(e, config) : undefined;
  const settings: Setting[] = SETTING_NAMES.map((name) => ({
    name,
    value: raw[name],
    effective: effective ? effective[name] : raw[name],
    source: sources.get(name) ?? { from: 'default' },
    secret: SECRET_SET.has(name),
  }));
  return { config, problems, warnings, settings, configFile };
}

function fileMode(file: string): number {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return 0;
  }
}

const secretFileNames = () => SECRET_SETTINGS.map((name) => `${name}_FILE`).join(', ');

/** A config file's names that are not settings: each a problem, with the setting meant when it is clear. */
function unknownFileEntries(entries: Map<string, FileEntry>, where: string): string[] {
  const known = new Set<string>([...SETTING_NAMES, ...SECRET_SETTINGS.map((name) => `${name}_FILE`)]);
  const problems: string[] = [];
  for (const [name, { line }] of entries) {
    if (known.has(name)) continue;
    const at = `${name} in ${where} (line ${line})`;
    if (name === 'CONFIG_FILE') {
      problems.push(invalid(`${at}: a config file cannot name another one`));
    } else if (PROCESS_VARIABLES.has(name)) {
      problems.push(invalid(`${at} is read before the server starts: set it in the environment instead`));
    } else {
      const meant = closestSetting(name);
      problems.push(
        invalid(
          `${at} is not a setting` +
            (meant ? ` (did you mean ${meant}?)` : ": the settings are README.md's configuration table"),
        ),
      );
    }
  }
  return problems;
}

/** A secret from its file (systemd LoadCredential=, docker secrets): the content less one final newline. */
function readSecretFile(variable: string, file: string, problems: string[]): string | undefined {
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(invalid(`${variable} ${file} cannot be read: ${readFailure(error)}`));
    return undefined;
  }
  const value = content.replace(/\r?\n$/, '');
  if (value.trim() === '') {
    problems.push(invalid(`${variable} ${file} is empty`));
    return undefined;
  }
  return value;
}

/** Stripe is on when its secret key is set; checkConfig has made sure the rest is there. */
function stripeConfigOf(e: Env): StripeConfig | undefined {
  if (!e.STRIPE_SECRET_KEY) return undefined;
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
    prices: { pro: e.STRIPE_PRICE_PRO!, premium: e.STRIPE_PRICE_PREMIUM! },
    apiUrl: e.STRIPE_API_URL,
  };
}

function toConfig(e: Env, sso: SsoConfig | undefined): Config {
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
    sso,
    outbound: { allowedHosts: hostList(e.OUTBOUND_ALLOWED_HOSTS) },
    destinationChecks: e.DESTINATION_CHECKS,
    analyticsForwarding: e.ANALYTICS_FORWARDING,
    ga4CollectUrl: e.GA4_COLLECT_URL ?? GA4_COLLECT_URL,
  };
}

/** Google's Measurement Protocol endpoint (developers.google.com/analytics/devguides/collection/protocol/ga4/reference). */
export const GA4_COLLECT_URL = 'https://www.google-analytics.com/mp/collect';

/** `a.example, 10.0.0.5,[::1]` → lower-case bare hosts. */
function hostList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, '')
        .replace(/\.$/, ''),
    )
    .filter((h) => h.length > 0);
}

/** Each setting as the server uses it: the parsed values, with the derived defaults filled in. */
function effectiveValues(e: Env, config: Config): Record<SettingName, string | undefined> {
  const values = Object.fromEntries(
    SETTING_NAMES.map((name) => [name, e[name] === undefined ? undefined : String(e[name])]),
  ) as Record<SettingName, string | undefined>;
  return {
    ...values,
    DATA_DIR: config.dataDir,
    DATABASE_URL: config.databaseUrl,
    PUBLIC_URL: config.publicUrl,
    SEED_DEMO: String(config.seedDemo),
    MAIL_FROM: config.mailFrom,
    MAIL_SUPPORT: config.mailSupport,
  };
}

/**
 * The configuration the server runs with (see checkConfig). Any problem throws a ConfigError listing them
 * all, one line each; warnings go to `warn` (the server logs them once its logger exists).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: { warn?: (message: string) => void } = {},
): Config {
  const check = checkConfig(env);
  if (!check.config) throw new ConfigError(check.problems.join('\n'), check.problems);
  for (const warning of check.warnings) options.warn?.(warning);
  return check.config;
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
