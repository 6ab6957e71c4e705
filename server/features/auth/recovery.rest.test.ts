import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { TEST_PASSWORD, insertTestUser } from '../../test/fixtures.js';
import {
  call,
  cookieValue,
  expectRestError,
  login,
  newUserBody,
  readOutbox,
  register,
  sessionCookie,
  useTestApp,
  userBody,
  type TestApp,
} from '../../test/test-app.js';

const PUBLIC_URL = 'http://qr.example.test:8080';
const RESET_REQUESTED = "If an account exists with that email, we've sent a password reset link.";
const VERIFIED = 'Email verified successfully!';
const NEW_PASSWORD = 'a-brand-new-passphrase';
const HOUR = 3_600_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls the outbox until it holds at least `count` mails (they are sent in the background). */
async function waitForMails(t: TestApp, count: number, timeoutMs = 2_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await readOutbox(t.outbox);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await sleep(20);
  }
}

/** Gives a background send that should not happen the time to happen, then reads the outbox. */
async function outboxAfterSettling(t: TestApp): Promise<string[]> {
  await sleep(200);
  return readOutbox(t.outbox);
}

/** The base URL and the (decoded) token of the first `<base><path>#token=…` link of a mail (the token in the fragment, never sent to a server). */
function linkIn(mail: string, path: '/reset-password' | '/verify-email'): { base: string; token: string } {
  const escaped = path.replace(/[/-]/g, (c) => `\\${c}`);
  const match = new RegExp(`(\\S+?)${escaped}#token=([A-Za-z0-9_%.~-]+)`).exec(mail);
  if (!match) throw new Error(`no ${path} link in mail:\n${mail}`);
  return { base: match[1]!, token: decodeURIComponent(match[2]!) };
}

/** Mails present in `after` but not in `before`. */
function newMails(before: string[], after: string[]): string[] {
  return after.filter((m) => !before.includes(m));
}

function requestReset(t: TestApp, email: unknown, headers: Record<string, string> = {}) {
  return call(t.app, 'POST', '/api/password-reset/request', { json: { email }, headers });
}

/** Asks for a reset of `email`, waits for the mail and returns the token of its link. */
async function resetTokenFor(t: TestApp, email: string): Promise<string> {
  const before = await readOutbox(t.outbox);
  const res = await requestReset(t, email);
  expect(res.statusCode).toBe(200);
  const fresh = newMails(before, await waitForMails(t, before.length + 1));
  expect(fresh).toHaveLength(1);
  return linkIn(fresh[0]!, '/reset-password').token;
}

function verifyReset(t: TestApp, body: unknown) {
  return call(t.app, 'POST', '/api/password-reset/verify', { json: body });
}

function resetPassword(t: TestApp, body: unknown) {
  return call(t.app, 'POST', '/api/password-reset/reset', { json: body });
}

function verifyEmail(t: TestApp, token?: string) {
  const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
  return call(t.app, 'GET', `/api/email/verify-token${query}`);
}

function resend(t: TestApp, email: unknown) {
  return call(t.app, 'POST', '/api/email/resend-verification', { json: { email } });
}

async function passwordHashOf(t: TestApp, userId: number): Promise<string> {
  const row = await t.db
    .selectFrom('users')
    .select('password')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.password;
}

async function sessionsOf(t: TestApp, userId: number): Promise<number> {
  const rows = await t.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
  return rows.length;
}

describeEachDb('password reset and e-mail verification REST paths', (getDb) => {
  describe('POST /api/password-reset/request', () => {
    const t = useTestApp(getDb, { config: { publicUrl: PUBLIC_URL } });

    it('answers the neutral message and mails a link built from PUBLIC_URL, not from the Host header', async () => {
      const user = await insertTestUser(t().db, { username: 'alice', email: 'alice@example.com' });
      const res = await requestReset(t(), 'alice@example.com', { host: 'evil.example' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: RESET_REQUESTED });

      const mails = await waitForMails(t(), 1);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail).toMatch(/^To: alice@example\.com$/m);
      const { base, token } = linkIn(mail, '/reset-password');
      expect(base).toBe(PUBLIC_URL);
      expect(mail).not.toContain('evil.example');
      expect(token).toMatch(/^[A-Za-z0-9_-]{22,}$/);

      // Only a hash of the token is stored, bound to the user, expiring after 1 hour.
      const rows = await t().db.selectFrom('password_reset_tokens').selectAll().execute();
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row.id).not.toBe(token);
      expect(row.id).toBe(sha256(token));
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row.user_id).toBe(user.id);
      expect(row.used_at).toBeNull();
      const expiresAt = new Date(row.expires_at).getTime();
      expect(Math.abs(expiresAt - (t().clock.now().getTime() + HOUR))).toBeLessThan(5_000);
    });

    it('answers exactly the same for an unknown address, and sends no mail and stores no token', async () => {
      await insertTestUser(t().db, { username: 'bob', email: 'bob@example.com' });
      const known = await requestReset(t(), 'bob@example.com');
      await waitForMails(t(), 1);
      const unknown = await requestReset(t(), 'nobody@example.com');
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual({ message: RESET_REQUESTED });
      expect(unknown.body).toBe(known.body);
      expect(cookieValue(unknown)).toBeUndefined();

      const mails = await outboxAfterSettling(t());
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatch(/^To: bob@example\.com$/m);
      expect(mails.join('\n')).not.toContain('nobody@example.com');
      expect(await countRows(t().db, 'password_reset_tokens')).toBe(1);
    });

    it('finds the account whatever the case of the address', async () => {
      const user = await insertTestUser(t().db, { username: 'carol', email: 'carol@example.com' });
      const res = await requestReset(t(), 'CAROL@Example.COM');
      expect(res.statusCode).toBe(200);
      const mails = await waitForMails(t(), 1);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatch(/^To: carol@example\.com$/m);
      const row = await t().db.selectFrom('password_reset_tokens').selectAll().executeTakeFirstOrThrow();
      expect(row.user_id).toBe(user.id);
    });

    it.each([['not-an-email'], ['alice@'], ['']])(
      'refuses the invalid address %j with 400 and the form message, writing and sending nothing',
      async (email) => {
        await insertTestUser(t().db, { username: 'dave', email: 'dave@example.com' });
        const res = await requestReset(t(), email);
        const body = expectRestError(res, 400, 'VALIDATION_FAILED');
        expect(body.message).toBe('Please enter a valid email address');
        expect(body.issues).toEqual([{ path: 'email', message: 'Please enter a valid email address' }]);
        expect(await countRows(t().db, 'password_reset_tokens')).toBe(0);
        expect(await outboxAfterSettling(t())).toEqual([]);
      },
    );

    it('refuses a missing address with 400 naming Email', async () => {
      const res = await call(t().app, 'POST', '/api/password-reset/request', { json: {} });
      const body = expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(body.message).toMatch(/Email/);
    });
  });

  describe('POST /api/password-reset/verify', () => {
    const t = useTestApp(getDb, { config: { publicUrl: PUBLIC_URL } });

    it('answers 200 { success: true } for the mailed token, and checking does not spend it', async () => {
      await insertTestUser(t().db, { username: 'erin', email: 'erin@example.com' });
      const token = await resetTokenFor(t(), 'erin@example.com');
      for (let i = 0; i < 2; i++) {
        const res = await verifyReset(t(), { token });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true });
      }
      const row = await t().db.selectFrom('password_reset_tokens').selectAll().executeTakeFirstOrThrow();
      expect(row.used_at).toBeNull();
    });

    it('answers 400 with a message for a wrong token, and for the stored hash used as a token', async () => {
      await insertTestUser(t().db, { username: 'frank', email: 'frank@example.com' });
      const token = await resetTokenFor(t(), 'frank@example.com');
      for (const wrong of [
        `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
        'made-up',
        sha256(token),
      ]) {
        expectRestError(await verifyReset(t(), { token: wrong }), 400, 'BAD_REQUEST');
      }
    });

    it('answers 400 once the token is more than 1 hour old (still 200 just before)', async () => {
      await insertTestUser(t().db, { username: 'grace', email: 'grace@example.com' });
      const token = await resetTokenFor(t(), 'grace@example.com');
      t().clock.advance(HOUR - 60_000);
      expect((await verifyReset(t(), { token })).statusCode).toBe(200);
      t().clock.advance(60_000 + 1_000);
      expectRestError(await verifyReset(t(), { token }), 400, 'BAD_REQUEST');
    });

    it.each([
      ['a missing token', {}],
      ['an empty token', { token: '' }],
    ])('answers 400 naming Token for %s', async (_label, body) => {
      const error = expectRestError(await verifyReset(t(), body), 400, 'VALIDATION_FAILED');
      expect(error.message).toMatch(/Token/);
      expect(error.issues?.[0]?.path).toBe('token');
    });
  });

  describe('POST /api/password-reset/reset', () => {
    const t = useTestApp(getDb, { config: { publicUrl: PUBLIC_URL } });

    it('sets the new password, ends every session of the user (only of that user) and signs in with it', async () => {
      const user = await insertTestUser(t().db, { username: 'heidi', email: 'heidi@example.com' });
      await insertTestUser(t().db, { username: 'ivan', email: 'ivan@example.com' });
      const oldCookie = sessionCookie(await login(t().app, 'heidi', TEST_PASSWORD));
      const otherCookie = sessionCookie(await login(t().app, 'ivan', TEST_PASSWORD));
      expect((await call(t().app, 'GET', '/api/user', { cookie: oldCookie })).statusCode).toBe(200);

      const token = await resetTokenFor(t(), 'heidi@example.com');
      const res = await resetPassword(t(), { token, password: NEW_PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: expect.any(String) as string });
      expect(res.json<{ message: string }>().message.length).toBeGreaterThan(0);

      // Every session of the user ended server-side; another user's session is untouched.
      expect((await call(t().app, 'GET', '/api/user', { cookie: oldCookie })).statusCode).toBe(401);
      expect(await sessionsOf(t(), user.id)).toBe(0);
      expect((await call(t().app, 'GET', '/api/user', { cookie: otherCookie })).statusCode).toBe(200);

      // The stored password is a new argon2id hash, never the password itself.
      const hash = await passwordHashOf(t(), user.id);
      expect(hash).not.toBe(user.password);
      expect(hash).toMatch(/^\$argon2id\$/);
      expect(hash).not.toContain(NEW_PASSWORD);

      expect((await login(t().app, 'heidi', TEST_PASSWORD)).statusCode).toBe(401);
      const fresh = await login(t().app, 'heidi', NEW_PASSWORD);
      expect(fresh.statusCode).toBe(200);
      expect(userBody(fresh).username).toBe('heidi');
      expect((await call(t().app, 'GET', '/api/user', { cookie: sessionCookie(fresh) })).statusCode).toBe(
        200,
      );
    });

    it('refuses the same token a second time with 400 (single use)', async () => {
      const user = await insertTestUser(t().db, { username: 'judy', email: 'judy@example.com' });
      const token = await resetTokenFor(t(), 'judy@example.com');
      expect((await resetPassword(t(), { token, password: NEW_PASSWORD })).statusCode).toBe(200);
      const hash = await passwordHashOf(t(), user.id);

      expectRestError(
        await resetPassword(t(), { token, password: 'yet-another-password' }),
        400,
        'BAD_REQUEST',
      );
      expectRestError(await verifyReset(t(), { token }), 400, 'BAD_REQUEST');
      expect(await passwordHashOf(t(), user.id)).toBe(hash);
      expect((await login(t().app, 'judy', 'yet-another-password')).statusCode).toBe(401);
    });

    it('spends every token of the user: one requested earlier stops working too', async () => {
      const user = await insertTestUser(t().db, { username: 'kim', email: 'kim@example.com' });
      const earlier = await resetTokenFor(t(), 'kim@example.com');
      const later = await resetTokenFor(t(), 'kim@example.com');
      expect(later).not.toBe(earlier);
      expect((await verifyReset(t(), { token: earlier })).statusCode).toBe(200);

      expect((await resetPassword(t(), { token: later, password: NEW_PASSWORD })).statusCode).toBe(200);
      const hash = await passwordHashOf(t(), user.id);

      expectRestError(await verifyReset(t(), { token: earlier }), 400, 'BAD_REQUEST');
      expectRestError(
        await resetPassword(t(), { token: earlier, password: 'attacker-chosen' }),
        400,
        'BAD_REQUEST',
      );
      expect(await passwordHashOf(t(), user.id)).toBe(hash);
      const rows = await t().db.selectFrom('password_reset_tokens').select('used_at').execute();
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => r.used_at !== null)).toBe(true);
    });

    it('lets only one of two resets racing with the same token through', async () => {
      await insertTestUser(t().db, { username: 'race', email: 'race@example.com' });
      const token = await resetTokenFor(t(), 'race@example.com');
      const [first, second] = await Promise.all([
        resetPassword(t(), { token, password: 'first-racer-password' }),
        resetPassword(t(), { token, password: 'second-racer-password' }),
      ]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 400]);
      const winner = first.statusCode === 200 ? 'first-racer-password' : 'second-racer-password';
      const loser = winner === 'first-racer-password' ? 'second-racer-password' : 'first-racer-password';
      expect((await login(t().app, 'race', loser)).statusCode).toBe(401);
      expect((await login(t().app, 'race', winner)).statusCode).toBe(200);
    });

    it('does not spend the tokens of other users', async () => {
      await insertTestUser(t().db, { username: 'leo', email: 'leo@example.com' });
      await insertTestUser(t().db, { username: 'mia', email: 'mia@example.com' });
      const leo = await resetTokenFor(t(), 'leo@example.com');
      const mia = await resetTokenFor(t(), 'mia@example.com');
      expect((await resetPassword(t(), { token: leo, password: NEW_PASSWORD })).statusCode).toBe(200);
      expect((await verifyReset(t(), { token: mia })).statusCode).toBe(200);
    });

    it('refuses a password under 6 characters with the form message; the token stays usable', async () => {
      const user = await insertTestUser(t().db, { username: 'nina', email: 'nina@example.com' });
      const token = await resetTokenFor(t(), 'nina@example.com');
      const res = await resetPassword(t(), { token, password: '12345' });
      const body = expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(body.message).toBe('Password must be at least 6 characters');
      expect(body.issues).toEqual([{ path: 'password', message: 'Password must be at least 6 characters' }]);
      expect(await passwordHashOf(t(), user.id)).toBe(user.password);
      expect((await verifyReset(t(), { token })).statusCode).toBe(200);
    });

    it('refuses an expired token with 400 and leaves the password unchanged', async () => {
      const user = await insertTestUser(t().db, { username: 'oscar', email: 'oscar@example.com' });
      const cookie = sessionCookie(await login(t().app, 'oscar', TEST_PASSWORD));
      const token = await resetTokenFor(t(), 'oscar@example.com');
      t().clock.advance(HOUR + 1_000);

      expectRestError(await resetPassword(t(), { token, password: NEW_PASSWORD }), 400, 'BAD_REQUEST');
      expect(await passwordHashOf(t(), user.id)).toBe(user.password);
      expect(await sessionsOf(t(), user.id)).toBe(1);
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
      expect((await login(t().app, 'oscar', NEW_PASSWORD)).statusCode).toBe(401);
      expect((await login(t().app, 'oscar', TEST_PASSWORD)).statusCode).toBe(200);
    });

    it('refuses a wrong token with 400 and changes nothing', async () => {
      const user = await insertTestUser(t().db, { username: 'pat', email: 'pat@example.com' });
      await resetTokenFor(t(), 'pat@example.com');
      expectRestError(
        await resetPassword(t(), { token: 'not-a-real-token', password: NEW_PASSWORD }),
        400,
        'BAD_REQUEST',
      );
      expect(await passwordHashOf(t(), user.id)).toBe(user.password);
    });

    it.each([
      ['a missing token', { password: NEW_PASSWORD }],
      ['an empty token', { token: '', password: NEW_PASSWORD }],
    ])('refuses %s with 400 naming Token', async (_label, body) => {
      const error = expectRestError(await resetPassword(t(), body), 400, 'VALIDATION_FAILED');
      expect(error.message).toMatch(/Token/);
    });

    it('lifts a login lockout of the account: after 5 failures (429) a reset lets the new password in', async () => {
      await insertTestUser(t().db, { username: 'quinn', email: 'quinn@example.com' });
      for (let i = 0; i < 5; i++) {
        expect((await login(t().app, 'quinn', `wrong-${i}`)).statusCode).toBe(401);
      }
      expect((await login(t().app, 'quinn', TEST_PASSWORD)).statusCode).toBe(429);

      const token = await resetTokenFor(t(), 'quinn@example.com');
      expect((await resetPassword(t(), { token, password: NEW_PASSWORD })).statusCode).toBe(200);
      const res = await login(t().app, 'quinn', NEW_PASSWORD);
      expect(res.statusCode).toBe(200);
      expect(userBody(res).username).toBe('quinn');
    });
  });

  describe('GET /api/email/verify-token', () => {
    const t = useTestApp(getDb, { config: { requireEmailVerification: true, publicUrl: PUBLIC_URL } });

    /** Registers through the API (which sends the mail before answering) and returns the mailed token. */
    async function registerUnverified(username: string) {
      const body = newUserBody({ username });
      const before = await readOutbox(t().outbox);
      const res = await register(t().app, body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ requiresVerification: true });
      const fresh = newMails(before, await waitForMails(t(), before.length + 1));
      expect(fresh).toHaveLength(1);
      expect(fresh[0]).toMatch(new RegExp(`^To: ${body.email.replace(/[.]/g, '\\.')}$`, 'm'));
      const { base, token } = linkIn(fresh[0]!, '/verify-email');
      expect(base).toBe(PUBLIC_URL);
      return { body, token };
    }

    it('verifies the address with the mailed token: 200 { success, message }, then login works', async () => {
      const { body, token } = await registerUnverified('rita');
      expect((await login(t().app, body.username, body.password)).statusCode).toBe(403);

      const res = await verifyEmail(t(), token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: VERIFIED });

      const row = await t()
        .db.selectFrom('users')
        .selectAll()
        .where('username', '=', 'rita')
        .executeTakeFirstOrThrow();
      expect(Boolean(row.email_verified)).toBe(true);
      expect(row.email_verification_token).toBeNull();

      const signedIn = await login(t().app, body.username, body.password);
      expect(signedIn.statusCode).toBe(200);
      expect(userBody(signedIn).emailVerified).toBe(true);
    });

    it('refuses the same token a second time with 400', async () => {
      const { token } = await registerUnverified('sam');
      expect((await verifyEmail(t(), token)).statusCode).toBe(200);
      const body = expectRestError(await verifyEmail(t(), token), 400, 'BAD_REQUEST');
      expect(body.expired).toBeUndefined();
    });

    it('refuses a token older than 24 hours with 400, expired: true and a message saying expired', async () => {
      const { body: user, token } = await registerUnverified('tara');
      t().clock.advance(24 * HOUR + 1_000);
      const res = await verifyEmail(t(), token);
      const body = expectRestError(res, 400, 'BAD_REQUEST');
      expect(body.expired).toBe(true);
      expect(body.message).toMatch(/expired/i);
      expect((await login(t().app, user.username, user.password)).statusCode).toBe(403);
    });

    it('accepts the token just before 24 hours have passed', async () => {
      const { token } = await registerUnverified('uma');
      t().clock.advance(24 * HOUR - 60_000);
      expect((await verifyEmail(t(), token)).statusCode).toBe(200);
    });

    it('refuses a wrong token, or the stored hash used as a token, with 400', async () => {
      const { token } = await registerUnverified('vera');
      for (const wrong of ['made-up-token', sha256(token)]) {
        const body = expectRestError(await verifyEmail(t(), wrong), 400, 'BAD_REQUEST');
        expect(body.expired).toBeUndefined();
      }
      expect((await verifyEmail(t(), token)).statusCode).toBe(200);
    });

    it.each([
      ['a missing token', undefined],
      ['an empty token', ''],
    ])('refuses %s with 400 naming Token', async (_label, token) => {
      const body = expectRestError(await verifyEmail(t(), token), 400, 'VALIDATION_FAILED');
      expect(body.message).toMatch(/Token/);
    });
  });

  describe('POST /api/email/resend-verification', () => {
    const t = useTestApp(getDb, { config: { requireEmailVerification: true, publicUrl: PUBLIC_URL } });

    async function registerUnverified(username: string) {
      const body = newUserBody({ username });
      expect((await register(t().app, body)).statusCode).toBe(200);
      const mails = await waitForMails(t(), 1);
      expect(mails).toHaveLength(1);
      return { body, token: linkIn(mails[0]!, '/verify-email').token };
    }

    it('mails a new link to an unverified address: the new token works, the old one no longer does', async () => {
      const { body, token: oldToken } = await registerUnverified('walt');
      const res = await resend(t(), body.email);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: expect.any(String) as string });

      const mails = await waitForMails(t(), 2);
      expect(mails).toHaveLength(2);
      const fresh = mails.filter((m) => !m.includes(oldToken));
      expect(fresh).toHaveLength(1);
      expect(fresh[0]).toMatch(/^To: walt@example\.com$/m);
      const { base, token: newToken } = linkIn(fresh[0]!, '/verify-email');
      expect(base).toBe(PUBLIC_URL);
      expect(newToken).not.toBe(oldToken);

      expectRestError(await verifyEmail(t(), oldToken), 400, 'BAD_REQUEST');
      const verified = await verifyEmail(t(), newToken);
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toEqual({ success: true, message: VERIFIED });
      expect((await login(t().app, body.username, body.password)).statusCode).toBe(200);
    });

    it('after the link expired, a resent link verifies the address', async () => {
      const { body, token: oldToken } = await registerUnverified('xena');
      t().clock.advance(24 * HOUR + 1_000);
      expect(expectRestError(await verifyEmail(t(), oldToken), 400, 'BAD_REQUEST').expired).toBe(true);

      expect((await resend(t(), body.email)).statusCode).toBe(200);
      const mails = await waitForMails(t(), 2);
      const fresh = mails.filter((m) => !m.includes(oldToken));
      expect(fresh).toHaveLength(1);
      expect((await verifyEmail(t(), linkIn(fresh[0]!, '/verify-email').token)).statusCode).toBe(200);
      expect((await login(t().app, body.username, body.password)).statusCode).toBe(200);
    });

    it('answers the same message and sends nothing for an unknown or an already verified address', async () => {
      const { body, token } = await registerUnverified('yuri');
      const neutral = await resend(t(), body.email);
      expect(neutral.statusCode).toBe(200);
      const mailsAfterResend = await waitForMails(t(), 2);
      expect(mailsAfterResend).toHaveLength(2);
      const fresh = mailsAfterResend.filter((m) => !m.includes(token));
      expect((await verifyEmail(t(), linkIn(fresh[0]!, '/verify-email').token)).statusCode).toBe(200);

      const tokenBefore = await t()
        .db.selectFrom('users')
        .select(['email_verification_token', 'email_verified'])
        .where('username', '=', 'yuri')
        .executeTakeFirstOrThrow();

      for (const email of ['nobody@example.com', body.email, body.email.toUpperCase()]) {
        const res = await resend(t(), email);
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(neutral.body);
      }
      expect(await outboxAfterSettling(t())).toHaveLength(2);
      const tokenAfter = await t()
        .db.selectFrom('users')
        .select(['email_verification_token', 'email_verified'])
        .where('username', '=', 'yuri')
        .executeTakeFirstOrThrow();
      expect(tokenAfter).toEqual(tokenBefore);
    });

    it('refuses an invalid address with 400 and the form message', async () => {
      const res = await resend(t(), 'not-an-email');
      const body = expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(body.message).toBe('Please enter a valid email address');
      expect(await outboxAfterSettling(t())).toEqual([]);
    });
  });
});
