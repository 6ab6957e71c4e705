import fs from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PublicConfig } from '../../../src/auth/auth.schema.js';
import type { QrVersion } from '../../../src/qr/history.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { insertTestUser } from '../../test/fixtures.js';
import { storedScans } from '../../test/stored-scans.js';
import {
  call,
  createTestApp,
  expectRestError,
  login,
  useTestApp,
  userBody,
  type TestApp,
} from '../../test/test-app.js';
import { loadConfig } from '../../config.js';
import { hashPassword } from '../auth/passwords.js';
import { bootstrap, INITIAL_ADMIN_PASSWORD_FILE } from './seed.js';

const DAY = 86_400_000;

/** A real pino logger whose lines the test can read. */
function capturingLog() {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  return { log, text: () => lines.join('') };
}

async function runBootstrap(t: TestApp) {
  const { log, text } = capturingLog();
  await bootstrap(t.deps, log);
  return text();
}

async function exists(file: string) {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

async function findUser(t: TestApp, username: string) {
  return t.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
}

describeEachDb('bootstrap (first start)', (getDb) => {
  describe('with a generated admin password and demo seeding on', () => {
    const t = useTestApp(getDb, { config: { seedDemo: true } });

    it('creates the admin with a random password, written to a file only the owner can read, that logs in', async () => {
      const logged = await runBootstrap(t());

      const admin = await findUser(t(), 'admin');
      expect(admin).toBeDefined();
      expect(Boolean(admin!.is_admin)).toBe(true);

      const file = path.join(t().dataDir, INITIAL_ADMIN_PASSWORD_FILE);
      const stat = await fs.stat(file);
      expect(stat.mode & 0o777).toBe(0o600);
      const password = (await fs.readFile(file, 'utf8')).trim();
      expect(password.length).toBeGreaterThanOrEqual(12);
      expect(password).not.toMatch(/\s/);
      expect(admin!.password).not.toContain(password);
      // Printed once to the log for the operator.
      expect(logged.split(password).length - 1).toBe(1);

      const res = await login(t().app, 'admin', password);
      expect(res.statusCode).toBe(200);
      const user = userBody(res);
      expect(user.username).toBe('admin');
      expect(user.isAdmin).toBe(true);
      expect(res.body).not.toContain(password);
    });

    it('creates the demo account demo/demo123: not an admin, two codes, two weeks of scans', async () => {
      const before = Date.now();
      await runBootstrap(t());
      const now = t().clock.now().getTime();

      const res = await login(t().app, 'demo', 'demo123');
      expect(res.statusCode).toBe(200);
      const demo = userBody(res);
      expect(demo.isAdmin).toBe(false);
      expect(demo.subscriptionTier).toBe('free');

      const codes = await t()
        .db.selectFrom('qr_codes')
        .selectAll()
        .where('user_id', '=', demo.id)
        .orderBy('id')
        .execute();
      expect(codes).toHaveLength(2);
      // The free plan still allows one more.
      expect(codes.length).toBeLessThan(t().config.freePlanLimit);
      const dynamic = codes.filter((c) => Boolean(c.is_dynamic));
      const fixed = codes.filter((c) => !c.is_dynamic);
      expect(dynamic).toHaveLength(1);
      expect(fixed).toHaveLength(1);
      expect(dynamic[0]!.slug).toMatch(/^[A-Za-z0-9_-]{4,}$/);
      expect(fixed[0]!.slug).toBeNull();
      expect(dynamic[0]!.type).toBe('url');
      expect(dynamic[0]!.content).toMatch(/^https?:\/\//);

      const scans = await storedScans(t().db);
      const dynamicScans = scans.filter((s) => s.qr_code_id === dynamic[0]!.id);
      expect(dynamicScans.length).toBeGreaterThanOrEqual(50);
      const times = dynamicScans.map((s) => s.ms).sort((a, b) => a - b);
      const days = new Set(dynamicScans.map((s) => s.timestamp.slice(0, 10)));
      expect(days.size).toBeGreaterThanOrEqual(12);
      expect(days.size).toBeLessThanOrEqual(15);
      expect(times.at(-1)! - times[0]!).toBeGreaterThan(11 * DAY);
      expect(times.at(-1)! - times[0]!).toBeLessThanOrEqual(15 * DAY);
      expect(times.at(-1)!).toBeLessThanOrEqual(Math.max(now, before) + 1000);
      // "Varied": several devices and places.
      expect(new Set(dynamicScans.map((s) => s.device)).size).toBeGreaterThan(1);
      expect(new Set(dynamicScans.map((s) => s.location)).size).toBeGreaterThan(1);
    });

    it('starts each demo code’s history with its creation', async () => {
      await runBootstrap(t());
      const signedIn = await login(t().app, 'demo', 'demo123');
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const cookie = /qr_session=([^;]+)/.exec(String(signedIn.headers['set-cookie']))![1]!;
      const codes = (await call(t().app, 'GET', '/api/qr-codes', { cookie })).json<QrCode[]>();
      expect(codes).toHaveLength(2);
      for (const code of codes) {
        const res = await call(t().app, 'GET', `/api/qr-codes/${code.id}/history`, { cookie });
        expect(res.statusCode, res.body).toBe(200);
        const versions = res.json<QrVersion[]>();
        expect(versions.map((v) => [v.kind, v.created, v.state.name])).toEqual([
          ['created', code.created, code.name],
        ]);
      }
    });

    it('creates nothing new when it runs a second time', async () => {
      await runBootstrap(t());
      const file = path.join(t().dataDir, INITIAL_ADMIN_PASSWORD_FILE);
      const password = await fs.readFile(file, 'utf8');
      const counts = async () => ({
        users: await countRows(t().db, 'users'),
        codes: await countRows(t().db, 'qr_codes'),
        scans: await countRows(t().db, 'qr_scans'),
      });
      const before = await counts();
      expect(before.users).toBe(2);

      const logged = await runBootstrap(t());
      expect(await counts()).toEqual(before);
      expect(await fs.readFile(file, 'utf8')).toBe(password);
      expect(logged).not.toContain(password.trim());
      expect((await login(t().app, 'admin', password.trim())).statusCode).toBe(200);
    });

    it('on a database that already has users but no admin, adds the admin and no demo account', async () => {
      await insertTestUser(t().db, { username: 'existing' });
      await runBootstrap(t());
      expect(Boolean((await findUser(t(), 'admin'))?.is_admin)).toBe(true);
      expect(await findUser(t(), 'demo')).toBeUndefined();
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('GET /api/config reports the demo account while it exists', async () => {
      await runBootstrap(t());
      const res = await call(t().app, 'GET', '/api/config');
      expect(res.statusCode).toBe(200);
      expect(res.json<PublicConfig>()).toEqual({
        demoAccount: { username: 'demo', password: 'demo123' },
        freePlanLimit: 3,
        requireEmailVerification: false,
        registrationOpen: true,
        payments: 'request',
        // No SSO_CONFIG: passwords only.
        sso: { providers: [], ldap: null, passwordSignIn: true, proxy: false },
      });

      await t().db.deleteFrom('users').where('username', '=', 'demo').execute();
      const after = await call(t().app, 'GET', '/api/config');
      expect(after.json<PublicConfig>().demoAccount).toBeNull();
    });

    it('GET /api/config does not report the demo account when seeding is off, even if it exists', async () => {
      await runBootstrap(t());
      const off = await createTestApp(getDb(), { config: { seedDemo: false } });
      try {
        const res = await call(off.app, 'GET', '/api/config');
        expect(res.statusCode).toBe(200);
        expect(res.json<PublicConfig>().demoAccount).toBeNull();
      } finally {
        await off.close();
      }
    });
  });

  describe('with ADMIN_USERNAME, ADMIN_PASSWORD and ADMIN_EMAIL set', () => {
    const t = useTestApp(getDb, {
      config: {
        seedDemo: true,
        adminUsername: 'root',
        adminPassword: 'operator-chosen-pw',
        adminEmail: 'ops@example.com',
      },
    });

    it('creates that admin, writes no password file and never logs the password', async () => {
      const logged = await runBootstrap(t());
      expect(await exists(path.join(t().dataDir, INITIAL_ADMIN_PASSWORD_FILE))).toBe(false);
      expect(logged).not.toContain('operator-chosen-pw');
      expect(await findUser(t(), 'admin')).toBeUndefined();

      const res = await login(t().app, 'root', 'operator-chosen-pw');
      expect(res.statusCode).toBe(200);
      expect(userBody(res)).toMatchObject({ username: 'root', isAdmin: true, email: 'ops@example.com' });
    });
  });

  describe('on a public PUBLIC_URL without SEED_DEMO', () => {
    // The config main.ts would load from this environment.
    const fromEnv = loadConfig({ PUBLIC_URL: 'https://qr.example.com' });
    const t = useTestApp(getDb, {
      config: { publicUrl: fromEnv.publicUrl, seedDemo: fromEnv.seedDemo },
    });

    it('creates no demo account anyone could sign in with, names none on GET /api/config, and says why', async () => {
      const logged = await runBootstrap(t());
      expect(logged).toContain(
        'No demo account: PUBLIC_URL https://qr.example.com is public (SEED_DEMO=true creates one)',
      );
      expect(logged).not.toContain('created (');
      expect(await findUser(t(), 'demo')).toBeUndefined();
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
      const denied = await login(t().app, 'demo', 'demo123');
      expect(expectRestError(denied, 401).message).toBe('Invalid username or password');
      const res = await call(t().app, 'GET', '/api/config');
      expect(res.statusCode).toBe(200);
      expect(res.json<PublicConfig>().demoAccount).toBeNull();
    });

    it('warns at every start while a demo account left by an earlier start still opens with demo123', async () => {
      const seeded = await createTestApp(getDb(), { config: { seedDemo: true } });
      try {
        await runBootstrap(seeded);
      } finally {
        await seeded.close();
      }
      const logged = await runBootstrap(t());
      expect(logged).toContain(
        'Demo account demo/demo123 exists and anyone can sign in with it, although PUBLIC_URL https://qr.example.com is public',
      );
      expect(logged).toContain('"level":40');
      // Not named on the login form, though.
      const res = await call(t().app, 'GET', '/api/config');
      expect(res.json<PublicConfig>().demoAccount).toBeNull();

      // A user who merely took the name "demo" is no such account.
      await t()
        .db.updateTable('users')
        .set({ password: await hashPassword('their-own-password') })
        .where('username', '=', 'demo')
        .execute();
      expect(await runBootstrap(t())).not.toContain('Demo account');
    });
  });

  describe('on a public PUBLIC_URL with SEED_DEMO=true', () => {
    const fromEnv = loadConfig({ PUBLIC_URL: 'https://qr.example.com', SEED_DEMO: 'true' });
    const t = useTestApp(getDb, {
      config: { publicUrl: fromEnv.publicUrl, seedDemo: fromEnv.seedDemo },
    });

    it('creates the demo account as asked, warns that anyone can use it, and prefills the login form', async () => {
      const logged = await runBootstrap(t());
      expect(logged).toContain(
        'Demo account demo/demo123 created (SEED_DEMO=true) although PUBLIC_URL https://qr.example.com is public',
      );
      expect(await findUser(t(), 'demo')).toBeDefined();
      const res = await call(t().app, 'GET', '/api/config');
      expect(res.json<PublicConfig>().demoAccount).toEqual({ username: 'demo', password: 'demo123' });
    });
  });

  describe('on a local PUBLIC_URL without SEED_DEMO', () => {
    const fromEnv = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' });
    const t = useTestApp(getDb, {
      config: { publicUrl: fromEnv.publicUrl, seedDemo: fromEnv.seedDemo },
    });

    it('creates the demo account and says how to turn it off', async () => {
      const logged = await runBootstrap(t());
      expect(logged).toContain(
        'Demo account demo/demo123 created (local PUBLIC_URL; SEED_DEMO=false turns it off)',
      );
      expect((await login(t().app, 'demo', 'demo123')).statusCode).toBe(200);
      // Said once: a later start says nothing more about it.
      expect(await runBootstrap(t())).not.toContain('demo');
    });
  });

  describe('with SEED_DEMO=false', () => {
    const t = useTestApp(getDb, { config: { seedDemo: false } });

    it('creates the admin only: no demo account, no codes, and GET /api/config names no demo account', async () => {
      await runBootstrap(t());
      expect(await countRows(t().db, 'users')).toBe(1);
      expect(Boolean((await findUser(t(), 'admin'))?.is_admin)).toBe(true);
      expect(await findUser(t(), 'demo')).toBeUndefined();
      expect(await countRows(t().db, 'qr_codes')).toBe(0);

      const denied = await login(t().app, 'demo', 'demo123');
      expect(denied.statusCode).toBe(401);
      expect(expectRestError(denied, 401).message).toBe('Invalid username or password');

      const res = await call(t().app, 'GET', '/api/config');
      expect(res.json<PublicConfig>().demoAccount).toBeNull();
    });

    it('says so in one line', async () => {
      expect(await runBootstrap(t())).toContain('No demo account (SEED_DEMO=false)');
    });
  });
});
