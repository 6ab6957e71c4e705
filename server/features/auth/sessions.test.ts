import { describe, expect, it } from 'vitest';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { TEST_PASSWORD, insertTestUser } from '../../test/fixtures.js';
import {
  call,
  cookieValue,
  login,
  newUserBody,
  register,
  sessionCookie,
  setCookieLines,
  signedInUser,
  useTestApp,
  userBody,
  type Response,
} from '../../test/test-app.js';

const HOUR = 3_600_000;

function sessionSetCookie(res: Response, name: string): string {
  const line = setCookieLines(res).find((l) => l.startsWith(`${name}=`));
  if (!line) throw new Error(`no Set-Cookie for ${name}: ${JSON.stringify(res.headers['set-cookie'])}`);
  return line;
}

/** The attributes of a Set-Cookie line, names lower-cased. */
function attributesOf(line: string): Map<string, string> {
  return new Map(
    line
      .split(';')
      .slice(1)
      .map((part) => {
        const [key = '', ...rest] = part.trim().split('=');
        return [key.toLowerCase(), rest.join('=')] as const;
      }),
  );
}

describeEachDb('sessions', (getDb) => {
  describe('cookie over http (PUBLIC_URL http://…)', () => {
    const t = useTestApp(getDb);

    it('is qr_session, HttpOnly, SameSite=Lax, Path=/, without Secure or Domain (register and login)', async () => {
      const body = newUserBody();
      await register(t().app, body);
      const registered = await call(t().app, 'POST', '/api/register', {
        json: {
          ...body,
          username: 'other',
          email: 'o@example.com',
        },
      });
      const loggedIn = await login(t().app, body.username, body.password);
      for (const res of [registered, loggedIn]) {
        const attributes = attributesOf(sessionSetCookie(res, 'qr_session'));
        expect(attributes.has('httponly')).toBe(true);
        expect(attributes.get('samesite')).toBe('Lax');
        expect(attributes.get('path')).toBe('/');
        expect(attributes.has('secure')).toBe(false);
        expect(attributes.has('domain')).toBe(false);
        expect(Number(attributes.get('max-age'))).toBe(Math.floor(t().config.sessionMaxMs / 1000));
        expect(setCookieLines(res).some((l) => l.startsWith('__Host-'))).toBe(false);
      }
    });

    it('carries a token of at least 128 random bits, different for every session', async () => {
      const { cookie: first, user } = await signedInUser(t(), 'tokens');
      const second = sessionCookie(await login(t().app, user.username, TEST_PASSWORD));
      for (const token of [first, second]) expect(token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      expect(second).not.toBe(first);
    });
  });

  describe('cookie over https (PUBLIC_URL https://…)', () => {
    const t = useTestApp(getDb, { config: { publicUrl: 'https://qr.example.test' } });

    it('is __Host-qr_session with Secure, HttpOnly, SameSite=Lax, Path=/ and no Domain, and signs in', async () => {
      const res = await call(t().app, 'POST', '/api/register', {
        json: {
          username: 'secure',
          password: TEST_PASSWORD,
          name: 'Secure User',
          email: 'secure@example.com',
        },
      });
      expect(res.statusCode).toBe(201);
      const line = sessionSetCookie(res, '__Host-qr_session');
      const attributes = attributesOf(line);
      expect(attributes.has('secure')).toBe(true);
      expect(attributes.has('httponly')).toBe(true);
      expect(attributes.get('samesite')).toBe('Lax');
      expect(attributes.get('path')).toBe('/');
      expect(attributes.has('domain')).toBe(false);
      expect(cookieValue(res, 'qr_session')).toBeUndefined();

      const token = sessionCookie(res, '__Host-qr_session');
      const me = await call(t().app, 'GET', '/api/user', { cookie: token, cookieName: '__Host-qr_session' });
      expect(me.statusCode).toBe(200);
      expect(userBody(me).username).toBe('secure');
      // The unprefixed name is not read when PUBLIC_URL is https.
      expect(
        (await call(t().app, 'GET', '/api/user', { cookie: token, cookieName: 'qr_session' })).statusCode,
      ).toBe(401);
    });

    it('clears the __Host- cookie on logout with the same attributes', async () => {
      await insertTestUser(t().db, { username: 'secure2' });
      const token = sessionCookie(await login(t().app, 'secure2', TEST_PASSWORD), '__Host-qr_session');
      const res = await call(t().app, 'POST', '/api/logout', {
        json: {},
        cookie: token,
        cookieName: '__Host-qr_session',
      });
      expect(res.statusCode).toBe(200);
      const attributes = attributesOf(sessionSetCookie(res, '__Host-qr_session'));
      expect(attributes.has('secure')).toBe(true);
      expect(attributes.get('path')).toBe('/');
      expect(
        (await call(t().app, 'GET', '/api/user', { cookie: token, cookieName: '__Host-qr_session' }))
          .statusCode,
      ).toBe(401);
    });
  });

  describe('server-side state', () => {
    const t = useTestApp(getDb);

    it('stores only a hash of the token: the cookie value appears nowhere in the sessions table', async () => {
      const { cookie, user } = await signedInUser(t(), 'hashed');
      const rows = await t().db.selectFrom('sessions').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.user_id).toBe(user.id);
      expect(rows[0]!.id).not.toBe(cookie);
      expect(JSON.stringify(rows)).not.toContain(cookie);
    });

    it('logout ends the session on the server: the old cookie replayed afterwards gets 401', async () => {
      const { cookie, user } = await signedInUser(t(), 'two-devices');
      // A second device of the same user keeps its own session.
      const other = sessionCookie(await login(t().app, user.username, TEST_PASSWORD));
      expect(await countRows(t().db, 'sessions')).toBe(2);

      const res = await call(t().app, 'POST', '/api/logout', { json: {}, cookie });
      expect(res.statusCode).toBe(200);
      expect(await countRows(t().db, 'sessions')).toBe(1);
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(401);
      expect((await call(t().app, 'GET', '/api/user', { cookie: other })).statusCode).toBe(200);
    });

    it('login while carrying a session issues a new id and ends the old session', async () => {
      await insertTestUser(t().db, { username: 'rotate' });
      const first = sessionCookie(await login(t().app, 'rotate', TEST_PASSWORD));
      const res = await login(t().app, 'rotate', TEST_PASSWORD, { cookie: first });
      expect(res.statusCode).toBe(200);
      const second = sessionCookie(res);
      expect(second).not.toBe(first);
      expect((await call(t().app, 'GET', '/api/user', { cookie: first })).statusCode).toBe(401);
      expect((await call(t().app, 'GET', '/api/user', { cookie: second })).statusCode).toBe(200);
      expect(await countRows(t().db, 'sessions')).toBe(1);
    });

    it('login while carrying another user’s session ends that session too', async () => {
      await insertTestUser(t().db, { username: 'first-user' });
      await insertTestUser(t().db, { username: 'second-user' });
      const first = sessionCookie(await login(t().app, 'first-user', TEST_PASSWORD));
      const res = await login(t().app, 'second-user', TEST_PASSWORD, { cookie: first });
      const second = sessionCookie(res);
      expect((await call(t().app, 'GET', '/api/user', { cookie: first })).statusCode).toBe(401);
      const me = await call(t().app, 'GET', '/api/user', { cookie: second });
      expect(userBody(me).username).toBe('second-user');
    });

    it('never adopts a session id chosen by the client (no fixation)', async () => {
      await insertTestUser(t().db, { username: 'fixed' });
      const planted = 'attacker-chosen-session-token-0123456789';
      const res = await login(t().app, 'fixed', TEST_PASSWORD, { cookie: planted });
      expect(res.statusCode).toBe(200);
      expect(sessionCookie(res)).not.toBe(planted);
      expect((await call(t().app, 'GET', '/api/user', { cookie: planted })).statusCode).toBe(401);
    });

    it('a failed login leaves the current session alone and issues none', async () => {
      await insertTestUser(t().db, { username: 'keep' });
      const cookie = sessionCookie(await login(t().app, 'keep', TEST_PASSWORD));
      const res = await login(t().app, 'keep', 'wrong-password', { cookie });
      expect(res.statusCode).toBe(401);
      expect(cookieValue(res)).toBeUndefined();
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
    });
  });

  describe('lifetimes', () => {
    const t = useTestApp(getDb);

    it('a session idle for longer than SESSION_IDLE_HOURS gets 401 and is removed', async () => {
      const { cookie } = await signedInUser(t(), 'idle');
      t().clock.advance(t().config.sessionIdleMs + 1_000);
      const res = await call(t().app, 'GET', '/api/user', { cookie });
      expect(res.statusCode).toBe(401);
      expect(await countRows(t().db, 'sessions')).toBe(0);
      // Even if the clock could go back, the session is gone.
      t().clock.advance(-(t().config.sessionIdleMs + 1_000));
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(401);
    });

    it('activity keeps the session alive past the idle lifetime', async () => {
      const { cookie } = await signedInUser(t(), 'active');
      const idle = t().config.sessionIdleMs;
      for (let i = 0; i < 3; i++) {
        t().clock.advance(idle - 5 * 60_000);
        expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
      }
    });
  });

  describe('lifetimes with SESSION_IDLE_HOURS=1 and a 3-hour absolute lifetime', () => {
    const short = useTestApp(getDb, { config: { sessionIdleMs: HOUR, sessionMaxMs: 3 * HOUR } });

    it('ends the session after SESSION_MAX_DAYS even when it is used all the time', async () => {
      await insertTestUser(short().db, { username: 'busy' });
      const cookie = sessionCookie(await login(short().app, 'busy', TEST_PASSWORD));
      // Used every 50 minutes: never idle for an hour.
      for (let i = 0; i < 3; i++) {
        short().clock.advance(50 * 60_000);
        expect((await call(short().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
      }
      short().clock.advance(50 * 60_000); // 200 minutes after sign-in
      expect((await call(short().app, 'GET', '/api/user', { cookie })).statusCode).toBe(401);
    });
  });
});
