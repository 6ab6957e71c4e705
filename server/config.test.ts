import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, isLocalUrl, loadConfig, trustProxyWarning, testConfig } from './config.js';

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
