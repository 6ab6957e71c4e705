import { describe, expect, it } from 'vitest';
import { accountMessages, type ActiveSession, type Preferences } from '../../../src/auth/account.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import { TEST_PASSWORD, insertTestUser } from '../../test/fixtures.js';
import {
  call,
  expectRestError,
  login,
  sessionCookie,
  sessionFor,
  signedInUser,
  useTestApp,
  readOutbox,
  type TestApp,
} from '../../test/test-app.js';
import { countRows, describeOnSqlite } from '../../test/test-db.js';
import { BOUNDARY, CLEAN_SVG, makePng, multipartBody } from '../../test/upload-fixtures.js';

function uploadPicture(t: TestApp, cookie: string, data: Buffer | string, filename = 'me.png') {
  return call(t.app, 'POST', '/api/upload/profile-picture', {
    cookie,
    payload: multipartBody([{ field: 'profilePicture', filename, data }]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
}

async function currentUser(t: TestApp, cookie: string) {
  return call(t.app, 'GET', '/api/user', { cookie });
}

describeOnSqlite('account REST paths', (getDb) => {
  const t = useTestApp(getDb);

  describe('PUT /api/user/profile', () => {
    it('changes name and e-mail and answers the user; fields it does not own are ignored', async () => {
      const { user, cookie } = await signedInUser(t(), 'ada');
      const res = await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: {
          name: '  Ada Lovelace ',
          email: 'ada@analytical.example',
          isAdmin: true,
          subscriptionTier: 'premium',
          hasUnlimitedAccess: true,
          emailVerified: true,
          username: 'someone-else',
        },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<User>();
      expect(body).toMatchObject({
        id: user.id,
        username: 'ada',
        name: 'Ada Lovelace',
        email: 'ada@analytical.example',
        isAdmin: false,
        subscriptionTier: 'free',
        hasUnlimitedAccess: false,
        emailVerified: false,
      });
      expect((await currentUser(t(), cookie)).json<User>()).toEqual(body);
    });

    it('sends a verification link to the new address and tells the old one', async () => {
      const { cookie } = await signedInUser(t(), 'mover');
      await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Mover', email: 'new-home@example.com' },
      });
      await expect.poll(async () => (await readOutbox(t().outbox)).length).toBe(2);
      const mails = await readOutbox(t().outbox);
      const verification = mails.find((m) => m.includes('To: new-home@example.com'));
      const notice = mails.find((m) => m.includes('To: mover@example.com'));
      expect(verification).toContain('/verify-email#token=');
      expect(notice).toContain('new-home@example.com');
    });

    it('keeps the address verified when only the name changes', async () => {
      const { user, cookie } = await signedInUser(t(), 'keeper');
      await t().db.updateTable('users').set({ email_verified: true }).where('id', '=', user.id).execute();
      const res = await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Keeper Two', email: 'KEEPER@example.com' },
      });
      expect(res.json<User>()).toMatchObject({ name: 'Keeper Two', emailVerified: true });
      expect(await readOutbox(t().outbox)).toEqual([]);
    });

    it("refuses another account's address with 409 and changes nothing", async () => {
      await insertTestUser(t().db, { username: 'owner', email: 'taken@example.com' });
      const { cookie } = await signedInUser(t(), 'grabber');
      const res = await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Grabber', email: 'Taken@Example.com' },
      });
      expect(expectRestError(res, 409).message).toBe('Email address is already registered');
      expect((await currentUser(t(), cookie)).json<User>().email).toBe('grabber@example.com');
    });

    it.each([
      [{ name: 'A', email: 'a@example.com' }, 'Name must be at least 2 characters'],
      [{ name: 'Abe', email: 'not-an-address' }, 'Invalid email address'],
      [{ email: 'a@example.com' }, 'Name is required'],
      [{ name: 'Abe' }, 'Email is required'],
    ])('refuses %j with 400 %j', async (json, message) => {
      const { cookie } = await signedInUser(t(), 'refused');
      const res = await call(t().app, 'PUT', '/api/user/profile', { cookie, json });
      expect(expectRestError(res, 400, 'VALIDATION_FAILED').message).toBe(message);
    });

    it('answers 401 when signed out', async () => {
      const res = await call(t().app, 'PUT', '/api/user/profile', {
        json: { name: 'No', email: 'n@o.example' },
      });
      expectRestError(res, 401);
    });
  });

  describe('PUT /api/user/password', () => {
    it('changes the password, keeps this session and ends every other one', async () => {
      const { user, cookie } = await signedInUser(t(), 'changer');
      const other = await sessionFor(t(), user.id);
      const res = await call(t().app, 'PUT', '/api/user/password', {
        cookie,
        json: { currentPassword: TEST_PASSWORD, newPassword: 'brand-new-secret' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Password changed' });
      expect((await currentUser(t(), cookie)).statusCode).toBe(200);
      expect((await currentUser(t(), other)).statusCode).toBe(401);
      expect((await login(t().app, 'changer', TEST_PASSWORD)).statusCode).toBe(401);
      expect((await login(t().app, 'changer', 'brand-new-secret')).statusCode).toBe(200);
    });

    it('answers a wrong current password with 400 naming the field, and stays signed in', async () => {
      const { cookie } = await signedInUser(t(), 'forgetful');
      const res = await call(t().app, 'PUT', '/api/user/password', {
        cookie,
        json: { currentPassword: 'not-it-at-all', newPassword: 'brand-new-secret' },
      });
      const body = expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(body).toMatchObject({
        message: 'Current password is incorrect',
        issues: [{ path: 'currentPassword', message: 'Current password is incorrect' }],
      });
      expect((await currentUser(t(), cookie)).statusCode).toBe(200);
      expect((await login(t().app, 'forgetful', TEST_PASSWORD)).statusCode).toBe(200);
    });

    it.each([
      [{ currentPassword: '', newPassword: 'long-enough' }, 'Current password is required'],
      [{ currentPassword: TEST_PASSWORD, newPassword: 'short' }, 'Password must be at least 6 characters'],
      [{ newPassword: 'long-enough' }, 'Current password is required'],
    ])('refuses %j with 400 %j and changes nothing', async (json, message) => {
      const { cookie } = await signedInUser(t(), 'rules');
      const res = await call(t().app, 'PUT', '/api/user/password', { cookie, json });
      expect(expectRestError(res, 400).message).toBe(message);
      expect((await login(t().app, 'rules', TEST_PASSWORD)).statusCode).toBe(200);
    });

    it('counts wrong current passwords like failed sign-ins (429 after five)', async () => {
      const { cookie } = await signedInUser(t(), 'guesser');
      for (let i = 0; i < 5; i++) {
        const res = await call(t().app, 'PUT', '/api/user/password', {
          cookie,
          json: { currentPassword: `guess-${i}`, newPassword: 'brand-new-secret' },
        });
        expect(res.statusCode).toBe(400);
      }
      const res = await call(t().app, 'PUT', '/api/user/password', {
        cookie,
        json: { currentPassword: TEST_PASSWORD, newPassword: 'brand-new-secret' },
      });
      expectRestError(res, 429);
    });
  });

  describe('POST /api/upload/profile-picture', () => {
    it('stores a PNG, answers { url, user } and the avatar URL serves it to its owner', async () => {
      const { cookie } = await signedInUser(t(), 'pictured');
      const res = await uploadPicture(t(), cookie, makePng(4, 4));
      expect(res.statusCode).toBe(200);
      const { url, user } = res.json<{ url: string; user: User }>();
      expect(url).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
      expect(user.profilePicture).toBe(url);
      expect((await currentUser(t(), cookie)).json<User>().profilePicture).toBe(url);
      const image = await call(t().app, 'GET', url, { cookie });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
    });

    it('replaces the previous picture instead of keeping both', async () => {
      const { cookie } = await signedInUser(t(), 'replacer');
      const first = (await uploadPicture(t(), cookie, makePng(2, 2))).json<{ url: string }>().url;
      const second = (await uploadPicture(t(), cookie, CLEAN_SVG, 'me.svg')).json<{ url: string }>().url;
      expect(second).not.toBe(first);
      expect(await countRows(t().db, 'uploads')).toBe(1);
      expect((await call(t().app, 'GET', first, { cookie })).statusCode).toBe(404);
    });

    it("refuses what is not a JPEG, PNG or SVG with 415 and the profile's message", async () => {
      const { cookie } = await signedInUser(t(), 'wrongtype');
      const res = await uploadPicture(t(), cookie, 'GIF89a not really', 'me.gif');
      expect(expectRestError(res, 415).message).toBe('Please upload a JPEG, PNG, or SVG image.');
      expect((await currentUser(t(), cookie)).json<User>().profilePicture).toBeNull();
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('refuses 5 MB and more with 413 while it streams in', async () => {
      const { cookie } = await signedInUser(t(), 'toobig');
      const big = Buffer.concat([makePng(2, 2), Buffer.alloc(5 * 1024 * 1024)]);
      const res = await uploadPicture(t(), cookie, big);
      expect(expectRestError(res, 413).message).toBe('Please upload an image smaller than 5MB.');
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('answers 401 when signed out', async () => {
      const res = await call(t().app, 'POST', '/api/upload/profile-picture', {
        payload: multipartBody([{ field: 'profilePicture', data: makePng() }]),
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      expectRestError(res, 401);
    });
  });

  describe('/api/user/preferences', () => {
    it('starts with System and every mail off, and stores changes per user', async () => {
      const { user, cookie } = await signedInUser(t(), 'prefs');
      const start = await call(t().app, 'GET', '/api/user/preferences', { cookie });
      expect(start.json<Preferences>()).toEqual({
        theme: 'system',
        productUpdates: false,
        scanDigest: false,
        scanThresholds: false,
        loginAlerts: false,
        language: null,
        timeZone: 'UTC',
      });
      const res = await call(t().app, 'PUT', '/api/user/preferences', {
        cookie,
        json: { theme: 'dark', scanDigest: true },
      });
      expect(res.json<Preferences>()).toMatchObject({ theme: 'dark', scanDigest: true, loginAlerts: false });
      // Another browser of the same user sees the same.
      const elsewhere = await sessionFor(t(), user.id);
      const read = await call(t().app, 'GET', '/api/user/preferences', { cookie: elsewhere });
      expect(read.json<Preferences>()).toMatchObject({ theme: 'dark', scanDigest: true });
      const other = await signedInUser(t(), 'otherprefs');
      const theirs = await call(t().app, 'GET', '/api/user/preferences', { cookie: other.cookie });
      expect(theirs.json<Preferences>().theme).toBe('system');
    });

    it('refuses an unknown theme with 400 naming it and stores nothing', async () => {
      const { cookie } = await signedInUser(t(), 'badtheme');
      const res = await call(t().app, 'PUT', '/api/user/preferences', {
        cookie,
        json: { theme: 'neon', productUpdates: true },
      });
      expect(expectRestError(res, 400).message).toBe('theme must be light, dark or system');
      const read = await call(t().app, 'GET', '/api/user/preferences', { cookie });
      expect(read.json<Preferences>()).toMatchObject({ theme: 'system', productUpdates: false });
    });
  });

  describe('/api/user/sessions', () => {
    it('lists the signed-in browsers with the current one marked, never the session secret', async () => {
      await insertTestUser(t().db, { username: 'traveller' });
      const signIn = async (userAgent: string) =>
        sessionCookie(
          await call(t().app, 'POST', '/api/login', {
            json: { username: 'traveller', password: TEST_PASSWORD },
            headers: { 'user-agent': userAgent },
          }),
        );
      const phone = await signIn(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      );
      const laptop = await signIn(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      );
      const res = await call(t().app, 'GET', '/api/user/sessions', { cookie: laptop });
      const sessions = res.json<ActiveSession[]>();
      expect(sessions).toHaveLength(2);
      const current = sessions.find((s) => s.current)!;
      expect(current).toMatchObject({ browser: 'Chrome 131', os: 'Windows 10' });
      expect(sessions.find((s) => !s.current)).toMatchObject({ browser: 'Mobile Safari 17', os: 'iOS 17.4' });
      for (const s of sessions) expect(s.ip).toMatch(/\*|Unknown/);
      const stored = await t().db.selectFrom('sessions').select('id').execute();
      for (const { id } of stored) expect(res.body).not.toContain(id);
      expect(res.body).not.toContain(phone);
    });

    it('signs out one other session, which is then signed out', async () => {
      const { user, cookie } = await signedInUser(t(), 'revoker');
      const other = await sessionFor(t(), user.id);
      const target = (await call(t().app, 'GET', '/api/user/sessions', { cookie }))
        .json<ActiveSession[]>()
        .find((s) => !s.current)!;
      const res = await call(t().app, 'DELETE', `/api/user/sessions/${target.id}`, { cookie });
      expect(res.json()).toEqual({ success: true });
      expect((await currentUser(t(), other)).statusCode).toBe(401);
      expect((await currentUser(t(), cookie)).statusCode).toBe(200);
    });

    it("cannot sign out another user's session: 404, and it stays signed in", async () => {
      const victim = await signedInUser(t(), 'victim');
      const attacker = await signedInUser(t(), 'attacker');
      const theirs = (await call(t().app, 'GET', '/api/user/sessions', { cookie: victim.cookie })).json<
        ActiveSession[]
      >()[0]!;
      const res = await call(t().app, 'DELETE', `/api/user/sessions/${theirs.id}`, {
        cookie: attacker.cookie,
      });
      expect(expectRestError(res, 404).message).toBe(accountMessages.sessionNotFound);
      expect((await currentUser(t(), victim.cookie)).statusCode).toBe(200);
    });

    it('signs out every other session at once', async () => {
      const { user, cookie } = await signedInUser(t(), 'cleaner');
      const others = [await sessionFor(t(), user.id), await sessionFor(t(), user.id)];
      const res = await call(t().app, 'POST', '/api/user/sessions/sign-out-others', { cookie });
      expect(res.json()).toEqual({ success: true, count: 2, tokensRevoked: 0 });
      for (const other of others) expect((await currentUser(t(), other)).statusCode).toBe(401);
      expect((await currentUser(t(), cookie)).statusCode).toBe(200);
    });
  });

  describe('the e-mail tools', () => {
    it('are for admins only: 401 signed out, 403 for a user', async () => {
      const { cookie } = await signedInUser(t(), 'plainuser');
      expectRestError(await call(t().app, 'GET', '/api/email/verify'), 401);
      expectRestError(await call(t().app, 'GET', '/api/email/verify', { cookie }), 403);
      const json = { to: 'x@example.com', subject: 'Hi', message: 'Hello' };
      expectRestError(await call(t().app, 'POST', '/api/email/test', { cookie, json }), 403);
      expect(await readOutbox(t().outbox)).toEqual([]);
    });

    it('checks the transport: without SMTP_URL, the outbox', async () => {
      const { cookie } = await signedInUser(t(), 'boss', { isAdmin: true });
      const res = await call(t().app, 'GET', '/api/email/verify', { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: 'Email service is working: SMTP_URL is not set, so messages are written to the outbox.',
      });
    });

    it.each([
      [{ subject: 'Hi', message: 'Hello' }],
      [{ to: 'x@example.com', subject: '  ', message: 'Hello' }],
      [{ to: 'x@example.com', subject: 'Hi' }],
      [undefined],
    ])('refuses %j with the message of the e-mail test', async (json) => {
      const { cookie } = await signedInUser(t(), 'boss2', { isAdmin: true });
      const res = await call(t().app, 'POST', '/api/email/test', {
        cookie,
        ...(json ? { json } : { payload: '"nothing"', headers: { 'content-type': 'application/json' } }),
      });
      expect(expectRestError(res, 400).message).toBe('Please provide recipient email, subject, and message.');
    });

    it('sends a test mail in the product layout with a text and an HTML part, escaping what was typed', async () => {
      const { cookie } = await signedInUser(t(), 'boss3', { isAdmin: true });
      const res = await call(t().app, 'POST', '/api/email/test', {
        cookie,
        json: { to: 'ops@example.com', subject: 'Mail check', message: 'It works <b>really</b> & truly' },
      });
      expect(res.json()).toEqual({ success: true, message: 'Test email sent to ops@example.com' });
      const [mail] = await readOutbox(t().outbox);
      expect(mail).toContain('To: ops@example.com');
      expect(mail).toContain('Content-Type: text/plain');
      expect(mail).toContain('Content-Type: text/html');
      expect(mail).toContain('It works &lt;b&gt;really&lt;/b&gt; &amp; truly');
    });
  });
});
