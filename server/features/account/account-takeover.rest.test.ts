import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { accountMessages } from '../../../src/auth/account.schema.js';
import { tokenMessages } from '../../../src/auth/api-token.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import { TEST_PASSWORD } from '../../test/fixtures.js';
import {
  call,
  createTestClock,
  expectRestError,
  readOutbox,
  setCookieLines,
  sessionFor,
  signedInUser,
  useTestApp,
  type Response,
  type TestApp,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

/**
 * Issue 27: what an outside probe did to take accounts over, replayed against the real server, each
 * now ending with the attacker refused and the owner still in.
 */

const START = new Date('2026-11-27T10:00:00Z');

/** The owner: a verified address, a session, and a write token made from that session. */
async function owner(t: TestApp, username: string) {
  const { user, cookie } = await signedInUser(t, username);
  await t.db.updateTable('users').set({ email_verified: true }).where('id', '=', user.id).execute();
  const made = await call(t.app, 'POST', '/api/user/tokens', {
    cookie,
    json: { name: 'ci', scope: 'write' },
  });
  expect(made.statusCode, made.body).toBe(201);
  return { user, cookie, token: made.json<{ token: string }>().token, email: user.email! };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function tokenWorks(t: TestApp, token: string): Promise<boolean> {
  const res = await call(t.app, 'GET', '/api/qr-codes', { headers: bearer(token) });
  if (res.statusCode !== 200 && res.statusCode !== 401) throw new Error(`unexpected ${res.statusCode}`);
  return res.statusCode === 200;
}

async function mailsTo(t: TestApp, address: string): Promise<string[]> {
  return (await readOutbox(t.outbox)).filter((m) => m.toLowerCase().includes(`to: ${address.toLowerCase()}`));
}

/** The token of the first `<path>#token=…` link of a mail. */
function tokenIn(mail: string, path: string): string {
  const match = new RegExp(`${path.replace(/[/-]/g, (c) => `\\${c}`)}#token=([A-Za-z0-9_%.~-]+)`).exec(mail);
  if (!match) throw new Error(`no ${path} link in mail:\n${mail}`);
  return decodeURIComponent(match[1]!);
}

async function signIn(t: TestApp, username: string, password = TEST_PASSWORD, headers = {}) {
  return call(t.app, 'POST', '/api/login', { json: { username, password }, headers });
}

describeEachDb('account takeover (issue 27)', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(START) });

  describe('a write token never becomes the account', () => {
    it('replays the probe: e-mail change by token refused, no reset link to the thief, the owner still in', async () => {
      const { token, email } = await owner(t(), 'victim');
      const change = await call(t().app, 'PUT', '/api/user/profile', {
        headers: bearer(token),
        json: { name: 'Victim', email: 'thief@evil.example' },
      });
      expect(expectRestError(change, 403).message).toBe(tokenMessages.sessionOnly);
      const reset = await call(t().app, 'POST', '/api/password-reset/request', {
        json: { email: 'thief@evil.example' },
      });
      expect(reset.statusCode).toBe(200);
      // The thief's inbox stays empty; the address is still the owner's.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await mailsTo(t(), 'thief@evil.example')).toEqual([]);
      const me = await call(t().app, 'GET', '/api/user', { headers: bearer(token) });
      expect(me.json<User>().email).toBe(email);
      expect((await signIn(t(), 'victim')).statusCode).toBe(200);
    });

    it('refuses every token on the picture, the preferences, the sessions, two-factor and the tokens', async () => {
      const { token } = await owner(t(), 'holder');
      for (const [method, url] of [
        ['PUT', '/api/user/preferences'],
        ['POST', '/api/upload/profile-picture'],
        ['GET', '/api/user/sessions'],
        ['POST', '/api/user/sessions/sign-out-others'],
        ['POST', '/api/user/two-factor/begin'],
        ['POST', '/api/user/tokens'],
      ] as const) {
        const res = await call(t().app, method, url, { headers: bearer(token), json: {} });
        expect(expectRestError(res, 403).message, `${method} ${url}`).toBe(tokenMessages.sessionOnly);
      }
    });
  });

  describe('changing the address', () => {
    it('needs the current password to leave a verified address; a wrong one changes nothing', async () => {
      const { cookie, email } = await owner(t(), 'careful');
      const missing = await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Careful', email: 'new@example.com' },
      });
      const body = expectRestError(missing, 400);
      expect(body.message).toBe(accountMessages.passwordForEmail);
      const wrong = await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Careful', email: 'new@example.com', currentPassword: 'nope' },
      });
      expect(expectRestError(wrong, 400).message).toBe(accountMessages.wrongCurrentPassword);
      expect((await call(t().app, 'GET', '/api/user', { cookie })).json<User>().email).toBe(email);
      // The name alone needs no password.
      const rename = await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Care Ful', email },
      });
      expect(rename.json<User>()).toMatchObject({ name: 'Care Ful', emailVerified: true });
    });

    it('sends no reset link to a new address until it is verified; the old verified one gets it meanwhile', async () => {
      const { cookie, email } = await owner(t(), 'mover');
      const moved = await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Mover', email: 'new-home@example.com', currentPassword: TEST_PASSWORD },
      });
      expect(moved.json<User>()).toMatchObject({ email: 'new-home@example.com', emailVerified: false });
      await expect.poll(async () => (await mailsTo(t(), 'new-home@example.com')).length).toBe(1);

      await call(t().app, 'POST', '/api/password-reset/request', { json: { email: 'new-home@example.com' } });
      await call(t().app, 'POST', '/api/password-reset/request', { json: { email } });
      await expect
        .poll(async () => (await mailsTo(t(), email)).filter((m) => m.includes('Reset your')).length)
        .toBe(1);
      expect((await mailsTo(t(), 'new-home@example.com')).filter((m) => m.includes('Reset your'))).toEqual(
        [],
      );
      const [resetMail] = (await mailsTo(t(), email)).filter((m) => m.includes('Reset your'));
      expect(resetMail).toContain('revokes every API token');

      // Once verified, resets go to the new address and no longer to the old one.
      const [verification] = await mailsTo(t(), 'new-home@example.com');
      const verified = await call(t().app, 'POST', '/trpc/auth.verifyEmail', {
        json: { token: tokenIn(verification!, '/verify-email') },
      });
      expect(verified.statusCode, verified.body).toBe(200);
      await call(t().app, 'POST', '/api/password-reset/request', { json: { email: 'new-home@example.com' } });
      await call(t().app, 'POST', '/api/password-reset/request', { json: { email } });
      await expect
        .poll(
          async () =>
            (await mailsTo(t(), 'new-home@example.com')).filter((m) => m.includes('Reset your')).length,
        )
        .toBe(1);
      expect((await mailsTo(t(), email)).filter((m) => m.includes('Reset your'))).toHaveLength(1);
    });

    it('lets the old address undo the change once, within 7 days: address back, everyone signed out, tokens revoked', async () => {
      const { user, cookie, token, email } = await owner(t(), 'undoer');
      await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Undoer', email: 'grabbed@evil.example', currentPassword: TEST_PASSWORD },
      });
      await expect.poll(async () => (await mailsTo(t(), email)).length).toBe(1);
      const [notice] = await mailsTo(t(), email);
      expect(notice).toContain('grabbed@evil.example');
      const undoToken = tokenIn(notice!, '/undo-email-change');

      t().clock.advance(6 * 24 * 3_600_000);
      const undone = await call(t().app, 'POST', '/api/email/undo-change', { json: { token: undoToken } });
      expect(undone.statusCode, undone.body).toBe(200);
      const row = await t()
        .db.selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect({
        email: row.email,
        verified: Boolean(row.email_verified),
        pending: Boolean(row.email_change_pending),
      }).toEqual({
        email,
        verified: true,
        pending: false,
      });
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(401);
      expect(await tokenWorks(t(), token)).toBe(false);
      const again = await call(t().app, 'POST', '/api/email/undo-change', { json: { token: undoToken } });
      expectRestError(again, 400);
    });

    it('changed back to its verified address (A → B → A), resets still reach A before it is verified again', async () => {
      const { cookie, email } = await owner(t(), 'backagain');
      await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Back', email: 'b@elsewhere.example', currentPassword: TEST_PASSWORD },
      });
      const back = await call(t().app, 'PUT', '/api/user/profile', { cookie, json: { name: 'Back', email } });
      expect(back.json<User>()).toMatchObject({ email, emailVerified: false });
      await call(t().app, 'POST', '/api/password-reset/request', { json: { email } });
      await expect
        .poll(async () => (await mailsTo(t(), email)).filter((m) => m.includes('Reset your')).length)
        .toBe(1);
    });

    it('refuses an undo link after 7 days', async () => {
      const { cookie, email } = await owner(t(), 'slow');
      await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Slow', email: 'later@example.com', currentPassword: TEST_PASSWORD },
      });
      await expect.poll(async () => (await mailsTo(t(), email)).length).toBe(1);
      const undoToken = tokenIn((await mailsTo(t(), email))[0]!, '/undo-email-change');
      t().clock.advance(7 * 24 * 3_600_000 + 1000);
      expectRestError(
        await call(t().app, 'POST', '/api/email/undo-change', { json: { token: undoToken } }),
        400,
      );
    });

    it('after an undo, the undo link mailed to an address in between brings nothing back', async () => {
      const { cookie, email } = await owner(t(), 'chain');
      await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Chain', email: 'b@evil.example', currentPassword: TEST_PASSWORD },
      });
      await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Chain', email: 'c@evil.example' },
      });
      await expect.poll(async () => (await mailsTo(t(), 'b@evil.example')).length).toBe(2);
      const ownerUndo = tokenIn((await mailsTo(t(), email))[0]!, '/undo-email-change');
      const thiefUndo = tokenIn(
        (await mailsTo(t(), 'b@evil.example')).find((m) => m.includes('/undo-email-change'))!,
        '/undo-email-change',
      );
      // While c@ is pending, resets still go to the owner's verified address, not to b@ or c@.
      await call(t().app, 'POST', '/api/password-reset/request', { json: { email: 'b@evil.example' } });
      await call(t().app, 'POST', '/api/password-reset/request', { json: { email } });
      await expect
        .poll(async () => (await mailsTo(t(), email)).filter((m) => m.includes('Reset your')).length)
        .toBe(1);
      expect((await mailsTo(t(), 'b@evil.example')).filter((m) => m.includes('Reset your'))).toEqual([]);

      expect(
        (await call(t().app, 'POST', '/api/email/undo-change', { json: { token: ownerUndo } })).statusCode,
      ).toBe(200);
      expectRestError(
        await call(t().app, 'POST', '/api/email/undo-change', { json: { token: thiefUndo } }),
        400,
      );
      const row = await t()
        .db.selectFrom('users')
        .select('email')
        .where('username', '=', 'chain')
        .executeTakeFirst();
      expect(row?.email).toBe(email);
    });
  });

  describe('API tokens die with the password', () => {
    it('a password change revokes every token and says so by mail', async () => {
      const { cookie, token, email } = await owner(t(), 'changer');
      expect(await tokenWorks(t(), token)).toBe(true);
      const res = await call(t().app, 'PUT', '/api/user/password', {
        cookie,
        json: { currentPassword: TEST_PASSWORD, newPassword: 'a-new-secret' },
      });
      expect(res.statusCode).toBe(200);
      expect(await tokenWorks(t(), token)).toBe(false);
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
      await expect.poll(async () => (await mailsTo(t(), email)).length).toBe(1);
      expect((await mailsTo(t(), email))[0]).toContain('every API token revoked (1 token)');
    });

    it('a reset by mail revokes every token', async () => {
      const { token, email } = await owner(t(), 'forgot');
      await call(t().app, 'POST', '/api/password-reset/request', { json: { email } });
      await expect.poll(async () => (await mailsTo(t(), email)).length).toBe(1);
      const resetToken = tokenIn((await mailsTo(t(), email))[0]!, '/reset-password');
      const res = await call(t().app, 'POST', '/api/password-reset/reset', {
        json: { token: resetToken, password: 'brand-new-pass' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await tokenWorks(t(), token)).toBe(false);
    });

    it("an admin's reset revokes every token", async () => {
      const { user, token } = await owner(t(), 'managed');
      const { cookie: adminCookie } = await signedInUser(t(), 'boss', { isAdmin: true });
      const res = await call(t().app, 'POST', `/api/admin/users/${user.id}/reset-password`, {
        cookie: adminCookie,
        json: { newPassword: 'set-by-admin' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ message: string }>().message).toContain('every API token revoked');
      expect(await tokenWorks(t(), token)).toBe(false);
    });

    it('"sign out all other sessions" revokes the tokens only when asked', async () => {
      const { user, cookie, token } = await owner(t(), 'signer');
      await sessionFor(t(), user.id);
      const keep = await call(t().app, 'POST', '/api/user/sessions/sign-out-others', { cookie });
      expect(keep.json()).toEqual({ success: true, count: 1, tokensRevoked: 0 });
      expect(await tokenWorks(t(), token)).toBe(true);
      const revoke = await call(t().app, 'POST', '/api/user/sessions/sign-out-others', {
        cookie,
        json: { revokeTokens: true },
      });
      expect(revoke.json()).toEqual({ success: true, count: 0, tokensRevoked: 1 });
      expect(await tokenWorks(t(), token)).toBe(false);
    });
  });

  describe('two-factor guesses are counted on their own', () => {
    /** A browser that keeps every cookie it is given, as the probe's did (the known-device cookie too). */
    function browser() {
      const jar = new Map<string, string>();
      return {
        async send(method: 'POST', url: string, json: unknown): Promise<Response> {
          const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
          const res = await call(t().app, method, url, { json, headers: cookie ? { cookie } : {} });
          for (const line of setCookieLines(res)) {
            const [pair = ''] = line.split(';');
            const [name = '', value = ''] = pair.split('=');
            if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
            else jar.set(name, value);
          }
          return res;
        },
      };
    }

    it('replays the probe: a right password between guesses clears nothing, the sixth code is refused, the owner is mailed', async () => {
      const { cookie, email } = await owner(t(), 'totp');
      const begin = await call(t().app, 'POST', '/api/user/two-factor/begin', {
        cookie,
        json: { password: TEST_PASSWORD },
      });
      const { secret } = begin.json<{ secret: string }>();
      const codeAt = (ms: number) =>
        new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
          timestamp: ms,
        });
      const confirm = await call(t().app, 'POST', '/api/user/two-factor/confirm', {
        cookie,
        json: { code: codeAt(t().clock.now().getTime()) },
      });
      expect(confirm.statusCode).toBe(200);

      const attacker = browser();
      const password = () =>
        attacker.send('POST', '/api/login', { username: 'totp', password: TEST_PASSWORD });
      const guess = () => attacker.send('POST', '/api/login/two-factor', { code: '000000' });
      let codes = 0;
      for (let round = 0; round < 3; round++) {
        expect((await password()).json()).toMatchObject({ requiresTwoFactor: true });
        for (let i = 0; i < 2; i++) {
          codes += 1;
          expect((await guess()).statusCode, `code ${codes}`).toBe(401);
          if (codes === 5) break;
        }
      }
      expect(codes).toBe(5);
      // The password still opens the code step; the sixth code, even the right one, is refused.
      expect((await password()).json()).toMatchObject({ requiresTwoFactor: true });
      t().clock.advance(30_000);
      const sixth = await attacker.send('POST', '/api/login/two-factor', {
        code: codeAt(t().clock.now().getTime()),
      });
      expect(expectRestError(sixth, 429).message).toMatch(/^Too many wrong two-factor codes/);
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
      await expect
        .poll(async () => (await mailsTo(t(), email)).filter((m) => m.includes('was locked')).length)
        .toBe(1);

      // 15 minutes later the owner signs in with a right code.
      t().clock.advance(15 * 60_000 + 1000);
      const owners = browser();
      await owners.send('POST', '/api/login', { username: 'totp', password: TEST_PASSWORD });
      const done = await owners.send('POST', '/api/login/two-factor', {
        code: codeAt(t().clock.now().getTime()),
      });
      expect(done.statusCode, done.body).toBe(200);
    });
  });

  describe('GET /api/qr-codes/{id}/scan', () => {
    it('refuses read tokens and cross-site requests; a write token or the app records a simulated scan', async () => {
      const { cookie, token } = await owner(t(), 'tester');
      const made = await call(t().app, 'POST', '/api/qr-codes', {
        cookie,
        json: {
          name: 'Menu',
          type: 'url',
          content: 'https://example.com/menu',
          isDynamic: true,
          customization: {},
        },
      });
      const id = made.json<{ id: number }>().id;
      const read = await call(t().app, 'POST', '/api/user/tokens', {
        cookie,
        json: { name: 'ro', scope: 'read' },
      });
      const readToken = read.json<{ token: string }>().token;
      const byRead = await call(t().app, 'GET', `/api/qr-codes/${id}/scan`, { headers: bearer(readToken) });
      expect(expectRestError(byRead, 403).message).toBe(tokenMessages.readOnly);
      const crossSite = await call(t().app, 'GET', `/api/qr-codes/${id}/scan`, {
        cookie,
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(expectRestError(crossSite, 403).message).toMatch(/another site/);
      const totals = async () =>
        (await call(t().app, 'GET', `/api/analytics/qr-codes/${id}`, { cookie })).json<{
          totalScans: number;
        }>().totalScans;
      expect(await totals()).toBe(0);
      expect(
        (await call(t().app, 'GET', `/api/qr-codes/${id}/scan`, { headers: bearer(token) })).statusCode,
      ).toBe(200);
      const fromApp = await call(t().app, 'GET', `/api/qr-codes/${id}/scan`, {
        cookie,
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(fromApp.statusCode).toBe(200);
      expect(await totals()).toBe(2);
      const stored = await t()
        .db.selectFrom('qr_scans')
        .select('refused')
        .where('qr_code_id', '=', id)
        .execute();
      expect(stored.map((s) => s.refused)).toEqual([5, 5]);
    });
  });
});

describeEachDb('ANONYMIZE_IPS masks every stored address (issue 27)', (getDb) => {
  const t = useTestApp(getDb, { config: { anonymizeIps: true } });

  it('sessions and sign-in attempt keys hold the masked address, never the full one', async () => {
    const { cookie } = await signedInUser(t(), 'private');
    const ok = await call(t().app, 'POST', '/api/login', {
      json: { username: 'private', password: TEST_PASSWORD },
      remoteAddress: '203.0.113.77',
    });
    expect(ok.statusCode).toBe(200);
    const failed = await call(t().app, 'POST', '/api/login', {
      json: { username: 'private', password: 'wrong' },
      remoteAddress: '203.0.113.77',
    });
    expect(failed.statusCode).toBe(401);
    await call(t().app, 'POST', '/api/password-reset/request', {
      json: { email: 'private@example.com' },
      remoteAddress: '2001:db8:1234:5678::9',
    });
    // A wrong password on a password-protected short link, from the same client.
    const made = await call(t().app, 'POST', '/api/qr-codes', {
      cookie,
      json: {
        name: 'Locked',
        type: 'url',
        content: 'https://example.com/',
        isDynamic: true,
        customization: {},
        password: 'open-sesame',
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { slug } = made.json<{ slug: string }>();
    const gate = await call(t().app, 'POST', `/r/${slug}`, {
      payload: 'password=wrong',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: '203.0.113.77',
    });
    expect(gate.statusCode).toBe(200);
    const sessions = await t().db.selectFrom('sessions').select('ip_address').execute();
    expect(sessions.map((s) => s.ip_address)).toContain('203.0.113.0');
    const keys = (await t().db.selectFrom('login_failures').select('key').execute()).map((k) => k.key);
    expect(keys).toContain('ip:203.0.113.0');
    expect(keys).toContain('reset-ip:2001:db8:1234::');
    expect(keys.some((k) => k.startsWith('short-link:') && k.endsWith(':203.0.113.0'))).toBe(true);
    const everything = JSON.stringify({ sessions, keys });
    expect(everything).not.toContain('203.0.113.77');
    expect(everything).not.toContain('5678');
  });
});
