import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConfigError,
  SECRET_SETTINGS,
  checkConfig,
  isLocalUrl,
  loadConfig,
  maskedValue,
  trustProxyWarning,
  testConfig,
} from './config.js';

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-config-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));
let files = 0;
/** A file with this content (mode 0600 unless told), in a folder of its own removed after the tests. */
function writeFile(content: string, mode = 0o600): string {
  const file = path.join(temp, `file-${++files}`);
  fs.writeFileSync(file, content, { mode });
  fs.chmodSync(file, mode);
  return file;
}

function configErrorOf(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw new Error(`expected a ConfigError, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}, got a config`);
}

describe('loadConfig', () => {
  describe('defaults (no variable set)', () => {
    const config = loadConfig({});

    it('listens on 0.0.0.0:3000', () => {
      expect(config.port).toBe(3000);
      expect(config.host).toBe('0.0.0.0');
    });

    it('keeps data in an absolute ./data and the SQLite database in it', () => {
      const dataDir = path.resolve('data');
      expect(path.isAbsolute(config.dataDir)).toBe(true);
      expect(config.dataDir).toBe(dataDir);
      expect(config.databaseUrl).toBe(`sqlite:${path.join(dataDir, 'qr-creator.db')}`);
    });

    it('builds links from http://localhost:3000', () => {
      expect(config.publicUrl).toBe('http://localhost:3000');
    });

    it('uses the documented defaults for the other settings', () => {
      expect(config).toMatchObject({
        adminUsername: 'admin',
        adminPassword: undefined,
        adminEmail: undefined,
        seedDemo: true,
        freePlanLimit: 3,
        smtpUrl: undefined,
        requireEmailVerification: false,
        trustProxy: undefined,
        anonymizeIps: false,
        geoipCityDb: undefined,
        logLevel: 'info',
        scansPerClientMinute: 30,
      });
      expect(config.sessionIdleMs).toBeGreaterThan(0);
      expect(config.sessionMaxMs).toBeGreaterThanOrEqual(config.sessionIdleMs);
    });
  });

  it('derives PUBLIC_URL from PORT', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('derives the database file from DATA_DIR, made absolute', () => {
    const config = loadConfig({ DATA_DIR: 'some/relative/dir' });
    expect(config.dataDir).toBe(path.resolve('some/relative/dir'));
    expect(config.databaseUrl).toBe(`sqlite:${path.resolve('some/relative/dir', 'qr-creator.db')}`);
  });

  it('takes DATABASE_URL and PUBLIC_URL as given (without a trailing slash)', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://qr:secret@db.internal:5432/qr',
      PUBLIC_URL: 'https://qr.example.com/',
    });
    expect(config.databaseUrl).toBe('postgres://qr:secret@db.internal:5432/qr');
    expect(config.publicUrl).toBe('https://qr.example.com');
  });

  it.each([
    ['false', false],
    ['0', false],
    ['no', false],
    ['true', true],
    ['1', true],
    ['yes', true],
  ])('reads SEED_DEMO=%s as %s', (value, expected) => {
    expect(loadConfig({ SEED_DEMO: value }).seedDemo).toBe(expected);
  });

  describe('SEED_DEMO (the demo account demo/demo123 anyone can sign in with)', () => {
    it.each([
      'http://localhost:3000',
      'http://LOCALHOST:3000',
      'http://localhost.:3000',
      'http://qr.localhost:8080',
      'http://127.0.0.1:3000',
      'http://127.12.0.7',
      'http://[::1]:3000',
    ])('is on by default for the local PUBLIC_URL %s', (url) => {
      expect(isLocalUrl(url)).toBe(true);
      expect(loadConfig({ PUBLIC_URL: url }).seedDemo).toBe(true);
      expect(loadConfig({ PUBLIC_URL: url, SEED_DEMO: 'false' }).seedDemo).toBe(false);
    });

    it.each([
      'https://qr.example.com',
      'http://192.168.1.20:3000',
      'http://10.0.0.5',
      'http://0.0.0.0:3000',
      'http://[::]:3000',
      'http://[2001:db8::1]',
      'http://localhost.example.com',
      'http://mylocalhost',
      'http://127.0.0.1.nip.io',
      'http://128.0.0.1',
    ])('is off by default for the public PUBLIC_URL %s, on only with SEED_DEMO=true', (url) => {
      expect(isLocalUrl(url)).toBe(false);
      expect(loadConfig({ PUBLIC_URL: url }).seedDemo).toBe(false);
      expect(loadConfig({ PUBLIC_URL: url, SEED_DEMO: 'true' }).seedDemo).toBe(true);
      expect(loadConfig({ PUBLIC_URL: url, SEED_DEMO: 'false' }).seedDemo).toBe(false);
    });

    it('is on without PUBLIC_URL (http://localhost:<PORT>)', () => {
      expect(loadConfig({ PORT: '8080' }).seedDemo).toBe(true);
    });
  });

  it('reads the hosts outbound requests may reach although private, and the destination checks switch', () => {
    expect(loadConfig({}).outbound.allowedHosts).toEqual([]);
    expect(loadConfig({}).destinationChecks).toBe(true);
    const config = loadConfig({
      OUTBOUND_ALLOWED_HOSTS: ' Shlink.Intra.example. , 10.20.0.15,[::1],, ',
      DESTINATION_CHECKS: 'false',
    });
    expect(config.outbound.allowedHosts).toEqual(['shlink.intra.example', '10.20.0.15', '::1']);
    expect(config.destinationChecks).toBe(false);
  });

  it('reads the analytics forwarding switch and the GA4 endpoint', () => {
    expect(loadConfig({})).toMatchObject({
      analyticsForwarding: true,
      ga4CollectUrl: 'https://www.google-analytics.com/mp/collect',
    });
    const config = loadConfig({
      ANALYTICS_FORWARDING: 'false',
      GA4_COLLECT_URL: 'https://region1.google-analytics.com/mp/collect',
    });
    expect(config.analyticsForwarding).toBe(false);
    expect(config.ga4CollectUrl).toBe('https://region1.google-analytics.com/mp/collect');
  });

  it('reads the session lifetimes in hours and days', () => {
    const config = loadConfig({ SESSION_IDLE_HOURS: '2', SESSION_MAX_DAYS: '3' });
    expect(config.sessionIdleMs).toBe(2 * 3_600_000);
    expect(config.sessionMaxMs).toBe(3 * 86_400_000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '3000.5'],
    ['SEED_DEMO', 'maybe'],
    ['REQUIRE_EMAIL_VERIFICATION', 'sure'],
    ['DESTINATION_CHECKS', 'sometimes'],
    ['ANALYTICS_FORWARDING', 'often'],
    ['GA4_COLLECT_URL', 'ftp://x'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'ftp://x'],
    ['PUBLIC_URL', 'not a url'],
    ['FREE_PLAN_LIMIT', '-1'],
    ['FREE_PLAN_LIMIT', 'lots'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_EMAIL', 'not-an-email'],
    ['ADMIN_PASSWORD', '123'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['SESSION_IDLE_HOURS', '0'],
    ['SCANS_PER_CLIENT_MINUTE', '-1'],
    ['SCANS_PER_CLIENT_MINUTE', 'many'],
    ['SCAN_RETENTION_DAYS', '0'],
  ])('refuses %s=%j with a one-line ConfigError naming the variable', (name, value) => {
    const error = configErrorOf({ [name]: value });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(name);
    expect(error.message).not.toMatch(/[\r\n]/);
    // The message says what is wrong, not just which variable.
    expect(error.message).toMatch(new RegExp(`${name}\\b.*\\b(must|invalid)\\b`, 'i'));
  });

  // An empty value (PORT= in a .env or compose file) is either "unset" or an error, like every
  // other variable; read as 0 it would silently listen on a random port or allow no codes at all.
  it.each(['PORT', 'FREE_PLAN_LIMIT'])('does not read an empty %s as 0', (name) => {
    let config;
    try {
      config = loadConfig({ [name]: '' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return;
    }
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.freePlanLimit).toBe(3);
  });

  it('turns Stripe on with its key, and then requires the webhook secret and both prices', () => {
    expect(loadConfig({}).stripe).toBeUndefined();
    expect(loadConfig({}).registrationOpen).toBe(true);
    expect(loadConfig({ REGISTRATION_OPEN: 'false' }).registrationOpen).toBe(false);
    const full = {
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_PRICE_PRO: 'price_pro',
      STRIPE_PRICE_PREMIUM: 'price_premium',
    };
    expect(loadConfig(full).stripe).toEqual({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      prices: { pro: 'price_pro', premium: 'price_premium' },
      apiUrl: undefined,
    });
    const error = configErrorOf({ ...full, STRIPE_PRICE_PREMIUM: '' });
    expect(error.message).toBe(
      'Invalid configuration: STRIPE_PRICE_PREMIUM is required when STRIPE_SECRET_KEY is set',
    );
  });

  it('reports the variable at fault even when other variables are fine', () => {
    const error = configErrorOf({ PORT: '8080', SEED_DEMO: 'false', DATABASE_URL: 'mysql://x' });
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).not.toContain('PORT');
  });

  it('names every bad value at once, one line each in the one-problem format', () => {
    const error = configErrorOf({
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      ADMIN_PASSWORD: 'pw1',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PRICE_PRO: 'price_pro',
    });
    expect(error.problems).toEqual([
      'Invalid configuration: PORT must be a port number',
      'Invalid configuration: ADMIN_PASSWORD must be at least 6 characters',
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'Invalid configuration: STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set',
      'Invalid configuration: STRIPE_PRICE_PREMIUM is required when STRIPE_SECRET_KEY is set',
    ]);
    expect(error.message).toBe(error.problems.join('\n'));
    expect(error.message).not.toContain('pw1');
  });
});

describe('CONFIG_FILE', () => {
  it('reads KEY=value lines: comments, blank lines, spaces, quotes, CRLF; an empty value is unset', () => {
    const file = writeFile(
      '\uFEFF# QR Creator\r\n' +
        '\n' +
        '; also a comment\n' +
        '  PORT = 8080\n' +
        "PUBLIC_URL='https://qr.example.com'\n" +
        'MAIL_FROM="QR \\"Codes\\" <qr@example.com>"   # the sender\n' +
        'ADMIN_PASSWORD=pa#ss word\n' +
        'FREE_PLAN_LIMIT=\n' +
        'SEED_DEMO=false\r\n',
    );
    const config = loadConfig({ CONFIG_FILE: file });
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'https://qr.example.com',
      mailFrom: 'QR "Codes" <qr@example.com>',
      // A # inside an unquoted value is part of it: passwords contain them.
      adminPassword: 'pa#ss word',
      freePlanLimit: 3,
      seedDemo: false,
    });
  });

  it('is overridden by the environment, a secret and its _FILE counting as one setting', () => {
    const secret = writeFile('smtp://env:from-file@mail.example.com:587\n');
    const file = writeFile('PORT=8080\nLOG_LEVEL=warn\nSMTP_URL=smtp://file@mail.example.com\n');
    const check = checkConfig({ CONFIG_FILE: file, PORT: '9090', SMTP_URL_FILE: secret });
    expect(check.problems).toEqual([]);
    expect(check.config).toMatchObject({
      port: 9090,
      logLevel: 'warn',
      smtpUrl: 'smtp://env:from-file@mail.example.com:587',
    });
    const setting = (name: string) => check.settings.find((s) => s.name === name);
    expect(setting('PORT')?.source).toEqual({ from: 'environment' });
    expect(setting('LOG_LEVEL')?.source).toEqual({ from: 'config-file', file, line: 2 });
    expect(setting('SMTP_URL')?.source).toEqual({
      from: 'secret-file',
      variable: 'SMTP_URL_FILE',
      file: secret,
    });
  });

  it('refuses a name that is no setting (naming the one meant), and every other fault of the file', () => {
    const file = writeFile(
      [
        'SMTP_URI=smtp://user:s3cret@mail.example.com',
        'port=3000',
        'NODE_OPTIONS=--max-old-space-size=512',
        'CONFIG_FILE=/etc/other.conf',
        'WHATEVER=1',
        'LOG_LEVEL=info',
        'LOG_LEVEL=debug',
        'this line has no equals sign',
        'ADMIN_PASSWORD="s3cret',
        'PORT=abc',
      ].join('\n'),
    );
    const error = configErrorOf({ CONFIG_FILE: file });
    const where = `CONFIG_FILE ${file}`;
    expect(error.problems).toEqual([
      `Invalid configuration: LOG_LEVEL is set twice in ${where} (lines 6 and 7)`,
      `Invalid configuration: ${where} line 8 must be NAME=value (a # starts a comment)`,
      `Invalid configuration: ADMIN_PASSWORD in ${where} (line 9) has an opening quote without its closing one`,
      `Invalid configuration: SMTP_URI in ${where} (line 1) is not a setting (did you mean SMTP_URL?)`,
      `Invalid configuration: port in ${where} (line 2) is not a setting (did you mean PORT?)`,
      `Invalid configuration: NODE_OPTIONS in ${where} (line 3) is read before the server starts: set it in the environment instead`,
      `Invalid configuration: CONFIG_FILE in ${where} (line 4): a config file cannot name another one`,
      `Invalid configuration: WHATEVER in ${where} (line 5) is not a setting: the settings are README.md's configuration table`,
      `Invalid configuration: PORT must be a port number (from ${where} line 10)`,
    ]);
    expect(error.message).not.toContain('s3cret');
  });

  it('is one clear error when it cannot be read', () => {
    const missing = path.join(temp, 'no-such.conf');
    expect(configErrorOf({ CONFIG_FILE: missing, PORT: '8080' }).message).toBe(
      `Invalid configuration: CONFIG_FILE ${missing} cannot be read: no such file`,
    );
    expect(configErrorOf({ CONFIG_FILE: temp }).message).toBe(
      `Invalid configuration: CONFIG_FILE ${temp} cannot be read: it is a folder`,
    );
  });

  it('warns (and still loads) when it holds a secret and other users can read it', () => {
    const warnings: string[] = [];
    const open = writeFile(
      'METRICS_TOKEN=0123456789abcdef0123\nDATABASE_URL=postgres://qr:pw@db/qr\n',
      0o644,
    );
    expect(loadConfig({ CONFIG_FILE: open }, { warn: (w) => warnings.push(w) }).metricsToken).toBe(
      '0123456789abcdef0123',
    );
    expect(warnings).toEqual([
      `CONFIG_FILE ${open} holds secrets (METRICS_TOKEN, DATABASE_URL) and other users can read it ` +
        '(mode 0644): chmod 600 it, or move the secrets to files named by METRICS_TOKEN_FILE, DATABASE_URL_FILE.',
    ]);
    // Owner-only, or readable but holding no secret (a URL without a password is none): no warning.
    const closed = writeFile('METRICS_TOKEN=0123456789abcdef0123\n', 0o600);
    const plain = writeFile('PORT=8080\nDATABASE_URL=postgres://db/qr\nSMTP_URL_FILE=/run/x\n', 0o644);
    expect(checkConfig({ CONFIG_FILE: closed }).warnings).toEqual([]);
    expect(checkConfig({ CONFIG_FILE: plain }).warnings).toEqual([]);
  });
});

describe('<SECRET>_FILE', () => {
  it.each(SECRET_SETTINGS)('reads %s from its file, less one final newline', (name) => {
    const value = {
      ADMIN_PASSWORD: 'correct horse',
      DATABASE_URL: 'postgres://qr:p%40ss@db.internal:5432/qr',
      METRICS_TOKEN: '0123456789abcdef0123',
      SMTP_URL: 'smtps://mailer:p4ss@mail.example.com:465',
      STRIPE_SECRET_KEY: 'sk_test_from_file',
      STRIPE_WEBHOOK_SECRET: 'whsec_from_file',
    }[name];
    const stripe = { STRIPE_PRICE_PRO: 'price_pro', STRIPE_PRICE_PREMIUM: 'price_premium' };
    const others =
      name === 'STRIPE_SECRET_KEY'
        ? { ...stripe, STRIPE_WEBHOOK_SECRET: 'whsec_1' }
        : name === 'STRIPE_WEBHOOK_SECRET'
          ? { ...stripe, STRIPE_SECRET_KEY: 'sk_test_1' }
          : {};
    const check = checkConfig({ ...others, [`${name}_FILE`]: writeFile(`${value}\n`) });
    expect(check.problems).toEqual([]);
    expect(check.settings.find((s) => s.name === name)?.value).toBe(value);
    const config = check.config!;
    const read = {
      ADMIN_PASSWORD: config.adminPassword,
      DATABASE_URL: config.databaseUrl,
      METRICS_TOKEN: config.metricsToken,
      SMTP_URL: config.smtpUrl,
      STRIPE_SECRET_KEY: config.stripe?.secretKey,
      STRIPE_WEBHOOK_SECRET: config.stripe?.webhookSecret,
    }[name];
    expect(read).toBe(value);
  });

  it('refuses X with X_FILE, an unreadable or empty file, a _FILE of a setting that is no secret', () => {
    const token = writeFile('0123456789abcdef0123');
    const missing = path.join(temp, 'missing-secret');
    const empty = writeFile('\n');
    const bad = writeFile('http://mail.example.com\n');
    const error = configErrorOf({
      METRICS_TOKEN: '0123456789abcdef0123',
      METRICS_TOKEN_FILE: token,
      ADMIN_PASSWORD_FILE: missing,
      STRIPE_SECRET_KEY_FILE: empty,
      SMTP_URL_FILE: bad,
      PORT_FILE: token,
    });
    expect(error.problems).toEqual([
      'Invalid configuration: PORT_FILE is not read: only ADMIN_PASSWORD_FILE, DATABASE_URL_FILE, ' +
        'METRICS_TOKEN_FILE, SMTP_URL_FILE, STRIPE_SECRET_KEY_FILE, STRIPE_WEBHOOK_SECRET_FILE exist; set PORT instead',
      `Invalid configuration: ADMIN_PASSWORD_FILE ${missing} cannot be read: no such file`,
      `Invalid configuration: STRIPE_SECRET_KEY_FILE ${empty} is empty`,
      'Invalid configuration: METRICS_TOKEN and METRICS_TOKEN_FILE are both set in the environment: set one of them',
      `Invalid configuration: SMTP_URL must start with smtp:// or smtps:// (from SMTP_URL_FILE ${bad})`,
    ]);
  });
});

describe('maskedValue', () => {
  it('hides secrets and the password of a URL, and shows everything else', () => {
    expect(maskedValue('METRICS_TOKEN', '0123456789abcdef0123')).toBe('********');
    expect(maskedValue('SMTP_URL', 'smtp://mailer:s3cret@mail.example.com:587')).toBe(
      'smtp://mailer:****@mail.example.com:587',
    );
    expect(maskedValue('DATABASE_URL', 'postgres://qr@db/qr')).toBe('postgres://qr@db/qr');
    expect(maskedValue('SMTP_URL', 'smtp://u:p#w@mail')).toBe('********');
    expect(maskedValue('PORT', '3000')).toBe('3000');
    expect(maskedValue('ADMIN_PASSWORD', undefined)).toBeUndefined();
  });
});

describe('testConfig', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('reads nothing from the environment', () => {
    vi.stubEnv('PORT', 'abc');
    vi.stubEnv('SEED_DEMO', 'maybe');
    vi.stubEnv('REQUIRE_EMAIL_VERIFICATION', 'true');
    const config = testConfig();
    expect(config.port).toBe(3000);
    expect(config.seedDemo).toBe(false);
    expect(config.requireEmailVerification).toBe(false);
    expect(config.logLevel).toBe('silent');
  });

  it('leaves the timed background jobs to the tests that start them; the server runs them', () => {
    expect(testConfig()).toMatchObject({ backgroundScanChecks: false, backgroundSweeps: false });
    expect(loadConfig({})).toMatchObject({ backgroundScanChecks: true, backgroundSweeps: true });
  });

  it('applies overrides', () => {
    const config = testConfig({ dataDir: '/tmp/qr-test', requireEmailVerification: true });
    expect(config.dataDir).toBe('/tmp/qr-test');
    expect(config.requireEmailVerification).toBe(true);
  });
});

describe('trustProxyWarning', () => {
  it('warns when TRUST_PROXY=true and the server listens beyond loopback, and only then', () => {
    const warned = trustProxyWarning(loadConfig({ TRUST_PROXY: 'true', HOST: '0.0.0.0' }));
    expect(warned).toContain('TRUST_PROXY=true believes X-Forwarded-For from any client');
    expect(warned).toContain('listens on 0.0.0.0');
    expect(trustProxyWarning(loadConfig({ TRUST_PROXY: 'true', HOST: '127.0.0.1' }))).toBeUndefined();
    expect(trustProxyWarning(loadConfig({ TRUST_PROXY: '1', HOST: '0.0.0.0' }))).toBeUndefined();
    expect(trustProxyWarning(loadConfig({ TRUST_PROXY: '10.0.0.0/8', HOST: '0.0.0.0' }))).toBeUndefined();
    expect(trustProxyWarning(loadConfig({ HOST: '0.0.0.0' }))).toBeUndefined();
  });
});
