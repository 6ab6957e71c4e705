import fs from 'node:fs';
import { Writable } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import pino from 'pino';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { Config } from './config.js';
import { enableTotp, setTotp } from './features/auth/two-factor.repository.js';
import { TEST_PASSWORD, insertTestUser } from './test/fixtures.js';
import {
  call,
  cookieValue,
  createTestApp,
  createTestClock,
  expectRestError,
  login,
  signedInUser,
} from './test/test-app.js';
import { countRows, createTestDb, describeEachDb, type TestDb } from './test/test-db.js';
import { AUDIT_CAP_MS, AUDIT_CAP_PER_MINUTE, securityEvent } from './security-log.js';

// The security events as an operator finds them: one warn line each in the JSON log (what fail2ban
// reads) and an entry in the admin audit log, never a password, code or token in either.

const ATTACKER = '203.0.113.7';
const OTHER = '198.51.100.23';
const WRONG = 'Wrong-Password-3f9a1c';

interface LogLine {
  level: number;
  msg: string;
  event?: string;
  ip?: string;
  [field: string]: unknown;
}

/** A pino logger at `npm start`'s level (info) whose lines are kept. */
function capturedLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, sink) };
}

/** The app with its log kept as `npm start` writes it, and its audit rows. */
async function appWithLog(testDb: TestDb, config: Partial<Config> = {}) {
  const { lines, logger } = capturedLog();
  const clock = createTestClock(new Date('2026-12-01T10:00:00Z'));
  const t = await createTestApp(testDb, { config, clock, logger });
  const parsed = () => lines.map((l) => JSON.parse(l) as LogLine);
  return {
    t,
    lines,
    /** Every security event line so far, in order, as [event, line]. */
    events: () => parsed().filter((l) => l.event !== undefined),
    take(): LogLine[] {
      const taken = parsed().filter((l) => l.event !== undefined);
      lines.length = 0;
      return taken;
    },
    audit: () =>
      t.db
        .selectFrom('audit_log')
        .select(['actor_id', 'actor_username', 'action', 'target_type', 'target_id', 'target_label', 'after'])
        .orderBy('id')
        .execute()
        .then((rows) =>
          rows.map((r) => ({
            ...r,
            after: typeof r.after === 'string' ? (JSON.parse(r.after) as unknown) : r.after,
          })),
        ),
  };
}

/** docs/fail2ban.md's failregex, with fail2ban's <HOST> as a JS group: the filter operators install. */
function fail2banRegex(): RegExp {
  const doc = fs.readFileSync(new URL('../docs/fail2ban.md', import.meta.url), 'utf8');
  const line = /^failregex = (.+)$/m.exec(doc)?.[1];
  if (!line) throw new Error('docs/fail2ban.md has no failregex line');
  return new RegExp(line.replace('<HOST>', '(?<host>[0-9A-Fa-f:.]+)'));
}

function hostOf(line: string): string | undefined {
  return fail2banRegex().exec(line)?.groups?.host;
}

const eventsOf = (lines: LogLine[]) => lines.map((l) => l.event);

describeEachDb('security events', (getDb) => {
  it('sign-in failures: a warn line per failure and the lockout, fail2ban finds the address, audit capped', async () => {
    const log = await appWithLog(getDb());
    const { t } = log;
    try {
      const alice = await insertTestUser(t.db, { username: 'alice' });
      for (let i = 1; i <= 5; i += 1) {
        expect((await login(t.app, 'alice', WRONG, { remoteAddress: ATTACKER })).statusCode).toBe(401);
      }
      const five = log.take();
      expect(eventsOf(five)).toEqual([...Array<string>(5).fill('login.failed'), 'account.locked']);
      for (const [i, line] of five.slice(0, 5).entries()) {
        expect(line).toMatchObject({
          level: 40,
          event: 'login.failed',
          ip: ATTACKER,
          userId: alice.id,
          username: 'alice',
          reason: 'bad password',
          during: 'sign-in',
          failures: i + 1,
          msg: 'sign-in failed for alice: bad password',
        });
      }
      expect(five[5]).toMatchObject({
        level: 40,
        ip: ATTACKER,
        userId: alice.id,
        lock: 'account',
        minutes: 15,
      });

      // Locked: the refusal (429) is a failure too; the HTTP answers stay as they were.
      expectRestError(await login(t.app, 'alice', WRONG, { remoteAddress: ATTACKER }), 429);
      expectRestError(await login(t.app, 'nobody', WRONG, { remoteAddress: OTHER }), 401);
      expectRestError(await login(t.app, 'nobody2', WRONG, { remoteAddress: OTHER }), 401);
      const more = log.take();
      expect(more).toEqual([
        expect.objectContaining({ event: 'login.failed', ip: ATTACKER, reason: 'locked', lock: 'account' }),
        expect.objectContaining({
          event: 'login.failed',
          ip: OTHER,
          username: 'nobody',
          reason: 'unknown user',
        }),
        expect.objectContaining({ event: 'login.failed', ip: OTHER, username: 'nobody2' }),
      ]);
      expect(more[1]).not.toHaveProperty('userId');

      // The audit log: one login.failed a minute per address and account (per address alone for names
      // no account has: trying many names is one entry), and the lockout.
      const security = (await log.audit()).filter((r) => r.target_type === 'security');
      expect(security).toEqual([
        expect.objectContaining({
          actor_id: alice.id,
          actor_username: 'alice',
          action: 'login.failed',
          target_id: String(alice.id),
          after: expect.objectContaining({ ip: ATTACKER, reason: 'bad password' }) as unknown,
        }),
        expect.objectContaining({ actor_id: alice.id, action: 'account.locked' }),
        expect.objectContaining({
          actor_id: null,
          actor_username: 'nobody',
          action: 'login.failed',
          target_id: null,
          after: expect.objectContaining({ ip: OTHER, reason: 'unknown user' }) as unknown,
        }),
      ]);
      t.clock.advance(AUDIT_CAP_MS + 1000);
      expectRestError(await login(t.app, 'alice', WRONG, { remoteAddress: ATTACKER }), 429);
      expect(eventsOf(log.take())).toEqual(['login.failed']);
      expect((await log.audit()).map((r) => r.action)).toEqual([
        'login.failed',
        'account.locked',
        'login.failed',
        'login.failed',
      ]);

      // fail2ban: the filter of docs/fail2ban.md finds the address in each, and matches no other line.
      for (const line of [...five, ...more].map((l) => JSON.stringify(l))) {
        expect(hostOf(line), line).toBe(line.includes(OTHER) ? OTHER : ATTACKER);
      }
      expect(log.lines.join('\n')).not.toContain(WRONG);
    } finally {
      await t.close();
    }
  });

  it('two-factor: a wrong code at sign-in, at setup and at removal; the code step locks', async () => {
    const log = await appWithLog(getDb());
    const { t } = log;
    try {
      const { user, cookie } = await signedInUser(t, 'bob');
      await setTotp(t.db, user.id, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', true);
      await enableTotp(t.db, user.id);
      const password = await login(t.app, 'bob', TEST_PASSWORD, { remoteAddress: ATTACKER });
      const pending = cookieValue(password, 'qr_2fa') ?? '';
      expect(pending).not.toBe('');
      const code = (c: string) =>
        call(t.app, 'POST', '/api/login/two-factor', {
          json: { code: c },
          headers: { cookie: `qr_2fa=${pending}` },
          remoteAddress: ATTACKER,
        });
      for (let i = 0; i < 5; i += 1) expectRestError(await code('zzzz-zzzz'), 401);
      expectRestError(await code('zzzz-zzzz'), 429);
      const lines = log.take();
      expect(eventsOf(lines)).toEqual([
        ...Array<string>(5).fill('twofactor.failed'),
        'account.locked',
        'twofactor.failed',
      ]);
      expect(lines[4]).toMatchObject({
        ip: ATTACKER,
        userId: user.id,
        username: 'bob',
        reason: 'wrong code',
        during: 'sign-in',
        failures: 5,
      });
      expect(lines[5]).toMatchObject({ event: 'account.locked', lock: 'two-factor', userId: user.id });
      expect(lines[6]).toMatchObject({ reason: 'locked', lock: 'two-factor' });
      for (const line of lines) expect(hostOf(JSON.stringify(line))).toBe(ATTACKER);

      // Removing it with a wrong code (still locked: refused), and setting it up with one.
      const disable = await call(t.app, 'POST', '/api/user/two-factor/disable', {
        cookie,
        json: { password: TEST_PASSWORD, code: '123456' },
      });
      expectRestError(disable, 429);
      const { user: carol, cookie: carolCookie } = await signedInUser(t, 'carol');
      await setTotp(t.db, carol.id, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', false);
      const confirm = await call(t.app, 'POST', '/api/user/two-factor/confirm', {
        cookie: carolCookie,
        json: { code: 'abcdef' },
      });
      expectRestError(confirm, 400);
      expect(log.take()).toEqual([
        expect.objectContaining({
          event: 'twofactor.failed',
          during: 'two-factor removal',
          reason: 'locked',
        }),
        expect.objectContaining({
          event: 'twofactor.failed',
          userId: carol.id,
          during: 'two-factor setup',
          reason: 'wrong code',
        }),
      ]);
      const actions = (await log.audit()).map((r) => `${r.action} ${r.actor_username}`);
      // Capped: one twofactor.failed a minute per account and address (the removal came from another).
      expect(actions).toEqual([
        'twofactor.failed bob',
        'account.locked bob',
        'twofactor.failed bob',
        'twofactor.failed carol',
      ]);
      expect(log.lines.join('\n')).not.toContain('zzzz-zzzz');
    } finally {
      await t.close();
    }
  });

  it('API tokens: created, refused (forged, read-only, not admin scope, session-only path), revoked', async () => {
    const log = await appWithLog(getDb());
    const { t } = log;
    try {
      const { user, cookie } = await signedInUser(t, 'dave');
      const create = async (scope: string) => {
        const res = await call(t.app, 'POST', '/api/user/tokens', { cookie, json: { name: scope, scope } });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ token: string; apiToken: { id: number; prefix: string } }>();
      };
      const read = await create('read');
      const write = await create('write');
      const created = log.take();
      expect(created).toEqual([
        expect.objectContaining({
          event: 'token.created',
          userId: user.id,
          tokenId: read.apiToken.id,
          prefix: read.apiToken.prefix,
          scope: 'read',
        }),
        expect.objectContaining({ event: 'token.created', tokenId: write.apiToken.id, scope: 'write' }),
      ]);

      const forged = 'qrc_ForgedTokenValue0123456789abcdefABCDEF';
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      const as = (token: string, method: 'GET' | 'POST' | 'PUT', url: string) =>
        call(t.app, method, url, {
          headers: bearer(token),
          remoteAddress: ATTACKER,
          ...(method === 'GET' ? {} : { json: {} }),
        });
      expectRestError(await as(forged, 'GET', '/api/qr-codes'), 401);
      expectRestError(await as(forged, 'PUT', '/api/user/profile'), 403);
      expectRestError(await as(read.token, 'POST', '/api/qr-codes'), 403);
      expectRestError(await as(write.token, 'GET', '/api/admin/users'), 403);
      expect((await as(read.token, 'GET', '/api/qr-codes')).statusCode).toBe(200);
      const refused = log.take();
      expect(refused).toEqual([
        expect.objectContaining({
          event: 'token.refused',
          ip: ATTACKER,
          reason: 'unknown',
          route: 'GET /api/qr-codes',
        }),
        expect.objectContaining({
          event: 'token.refused',
          reason: 'session-only path',
          route: 'PUT /api/user/profile',
        }),
        expect.objectContaining({
          event: 'token.refused',
          userId: user.id,
          reason: 'scope',
          tokenId: read.apiToken.id,
          prefix: read.apiToken.prefix,
          route: 'POST /api/qr-codes',
        }),
        expect.objectContaining({
          event: 'token.refused',
          reason: 'not an admin',
          tokenId: write.apiToken.id,
        }),
      ]);
      expect(refused[0]).not.toHaveProperty('userId');
      for (const line of refused) expect(hostOf(JSON.stringify(line))).toBe(ATTACKER);

      const revoke = await call(t.app, 'DELETE', `/api/user/tokens/${read.apiToken.id}`, { cookie });
      expect(revoke.statusCode).toBe(200);
      expect(log.take()).toEqual([
        expect.objectContaining({ event: 'token.revoked', userId: user.id, tokenId: read.apiToken.id }),
      ]);
      const actions = (await log.audit()).map((r) => `${r.action} ${r.actor_username}`);
      // Two anonymous refusals from one address in a minute: one row; dave's scope refusals: one row.
      expect(actions).toEqual([
        'token.created dave',
        'token.created dave',
        'token.refused anonymous',
        'token.refused dave',
        'token.revoked dave',
      ]);
      const everything = log.lines.join('\n') + JSON.stringify(await log.audit());
      for (const secret of [forged, read.token, write.token]) expect(everything).not.toContain(secret);
      const hashes = await t.db.selectFrom('api_tokens').select('token_hash').execute();
      for (const { token_hash } of hashes) expect(everything).not.toContain(token_hash);
    } finally {
      await t.close();
    }
  });

  it('role and plan changes: a warn line each, the admin entry audits them once', async () => {
    const log = await appWithLog(getDb(), {
      stripe: {
        secretKey: 'sk_test_offline',
        webhookSecret: 'whsec_offline_secret',
        prices: { pro: 'price_pro', premium: 'price_premium' },
        apiUrl: 'http://127.0.0.1:9',
      },
    });
    const { t } = log;
    try {
      const { user: root, cookie } = await signedInUser(t, 'root', { isAdmin: true });
      const { user: erin } = await signedInUser(t, 'erin');
      const put = await call(t.app, 'PUT', `/api/admin/users/${erin.id}`, {
        cookie,
        json: { isAdmin: true },
      });
      expect(put.statusCode, put.body).toBe(200);
      const upgrade = await call(t.app, 'POST', `/api/admin/users/${erin.id}/subscription/upgrade`, {
        cookie,
        json: { tier: 'pro', duration: 30 },
      });
      expect(upgrade.statusCode, upgrade.body).toBe(200);
      const payload = JSON.stringify({
        id: 'evt_1',
        object: 'event',
        type: 'customer.subscription.updated',
        created: Math.floor(t.clock.now().getTime() / 1000),
        data: {
          object: {
            id: 'sub_1',
            object: 'subscription',
            status: 'active',
            customer: 'cus_1',
            cancel_at_period_end: false,
            cancel_at: null,
            metadata: { userId: String(erin.id) },
            items: {
              object: 'list',
              data: [{ current_period_end: 1893456000, price: { id: 'price_premium' } }],
            },
          },
        },
      });
      const signature = new Stripe('sk_test_offline').webhooks.generateTestHeaderString({
        payload,
        secret: 'whsec_offline_secret',
      });
      const hook = await call(t.app, 'POST', '/api/stripe/webhook', {
        payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      });
      expect(hook.statusCode, hook.body).toBe(200);
      expect(log.take()).toEqual([
        expect.objectContaining({
          event: 'role.changed',
          userId: erin.id,
          actor: 'root',
          isAdmin: true,
          wasAdmin: false,
          msg: 'erin made an admin by root',
        }),
        expect.objectContaining({ event: 'plan.changed', userId: erin.id, actor: 'root', tier: 'pro' }),
        expect.objectContaining({
          event: 'plan.changed',
          userId: erin.id,
          tier: 'premium',
          action: 'stripe.customer.subscription.updated',
        }),
      ]);
      const audit = await log.audit();
      expect(audit.map((r) => `${r.action} ${r.actor_username}`)).toEqual([
        'user.update root',
        'subscription.upgrade root',
        'plan.changed erin',
      ]);
      expect(audit[0]!.actor_id).toBe(root.id);
    } finally {
      await t.close();
    }
  });
});

describe('security events', () => {
  it('account events: password changed and reset, e-mail changed, sessions signed out, 2FA on and off', async () => {
    const testDb = await createTestDb('sqlite');
    const log = await appWithLog(testDb);
    const { t } = log;
    try {
      const { user, cookie } = await signedInUser(t, 'fay');
      const newPassword = 'Fresh-Password-77c1';
      const changed = await call(t.app, 'PUT', '/api/user/password', {
        cookie,
        json: { currentPassword: TEST_PASSWORD, newPassword },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const others = await call(t.app, 'POST', '/api/user/sessions/sign-out-others', { cookie, json: {} });
      expect(others.statusCode, others.body).toBe(200);
      const profile = await call(t.app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Fay', email: 'fay.new@example.com', currentPassword: newPassword },
      });
      expect(profile.statusCode, profile.body).toBe(200);
      const forgot = await call(t.app, 'POST', '/api/password-reset/request', {
        json: { email: 'fay@example.com' },
        remoteAddress: OTHER,
      });
      expect(forgot.statusCode, forgot.body).toBe(200);
      const begin = await call(t.app, 'POST', '/api/user/two-factor/begin', {
        cookie,
        json: { password: newPassword },
      });
      const totp = new TOTP({ secret: Secret.fromBase32(begin.json<{ secret: string }>().secret) });
      const confirm = await call(t.app, 'POST', '/api/user/two-factor/confirm', {
        cookie,
        json: { code: totp.generate({ timestamp: t.clock.now().getTime() }) },
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      t.clock.advance(60_000);
      const disable = await call(t.app, 'POST', '/api/user/two-factor/disable', {
        cookie,
        json: { password: newPassword, code: totp.generate({ timestamp: t.clock.now().getTime() }) },
      });
      expect(disable.statusCode, disable.body).toBe(200);
      expect(log.take()).toEqual([
        expect.objectContaining({ event: 'password.changed', userId: user.id, tokensRevoked: 0 }),
        expect.objectContaining({ event: 'session.revoked', userId: user.id }),
        expect.objectContaining({
          event: 'email.changed',
          userId: user.id,
          email: 'f***@example.com',
          previousEmail: 'f***@example.com',
        }),
        expect.objectContaining({ event: 'password.reset', userId: user.id, step: 'requested', ip: OTHER }),
        expect.objectContaining({ event: 'twofactor.enabled', userId: user.id }),
        expect.objectContaining({ event: 'twofactor.disabled', userId: user.id }),
      ]);
      const actions = (await log.audit()).map((r) => r.action);
      expect(actions).toEqual([
        'password.changed',
        'session.revoked',
        'email.changed',
        'password.reset',
        'twofactor.enabled',
        'twofactor.disabled',
      ]);
      const text = log.lines.join('\n');
      expect(text).not.toContain(newPassword);
      expect(text).not.toContain('fay.new@example.com');
    } finally {
      await t.close();
      await testDb.close();
    }
  });

  it('a flood from many addresses: every one logged, at most 100 audited a minute', async () => {
    const testDb = await createTestDb('sqlite');
    const { lines, logger } = capturedLog();
    const deps = {
      db: testDb.db,
      config: { anonymizeIps: false } as Config,
      clock: createTestClock(),
      log: logger,
    };
    for (let i = 0; i <= AUDIT_CAP_PER_MINUTE; i += 1) {
      await securityEvent({ ...deps, ip: `198.51.100.${i}` }, 'token.refused', { message: 'refused' });
    }
    expect(lines).toHaveLength(AUDIT_CAP_PER_MINUTE + 1);
    expect(await countRows(testDb.db, 'audit_log')).toBe(AUDIT_CAP_PER_MINUTE);
    await testDb.close();
  });

  it('a failure to write the audit row is logged, never thrown; user text cannot forge a fail2ban match', async () => {
    const testDb = await createTestDb('sqlite');
    await testDb.db.schema.dropTable('audit_log').execute();
    const { lines, logger } = capturedLog();
    const counted: string[] = [];
    const deps = {
      db: testDb.db,
      config: { anonymizeIps: false } as Config,
      clock: createTestClock(),
      signals: { securityEvent: (e: string) => counted.push(e), mail: () => undefined },
      log: logger,
      ip: '::ffff:203.0.113.7',
    };
    const forging = 'x","event":"login.failed","ip":"9.9.9.9';
    await securityEvent(deps, 'token.created', { username: forging, message: 'not a failure' });
    await securityEvent(deps, 'login.failed', { username: forging, message: 'sign-in failed' });
    await securityEvent(
      { ...deps, config: { anonymizeIps: true } as Config, ip: '2001:db8:1234::7' },
      'login.failed',
      { username: 'y'.repeat(300), message: 'sign-in failed' },
    );
    const [created, createdError, failed, failedError, masked, maskedError] = lines.map(
      (l) => JSON.parse(l) as LogLine,
    );
    expect(counted).toEqual(['token.created', 'login.failed', 'login.failed']);
    expect(created).toMatchObject({
      level: 40,
      event: 'token.created',
      ip: '203.0.113.7',
      username: forging,
    });
    expect(failed).toMatchObject({ event: 'login.failed', ip: '203.0.113.7' });
    for (const error of [createdError, failedError, maskedError]) {
      expect(error).toMatchObject({ level: 50, msg: 'security event not written to the audit log' });
    }
    expect(masked).toMatchObject({ ip: '2001:db8:*:*', username: 'y'.repeat(100) });
    // The filter finds the real address of a failure, nothing in a name, and no masked address.
    expect(lines.map(hostOf)).toEqual([undefined, undefined, '203.0.113.7', undefined, undefined, undefined]);
    await testDb.close();
  });
});
