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
  setCookieLines,
  signedInUser,
  useTestApp,
  userBody,
  type Response,
  type TestApp,
} from '../../test/test-app.js';

const INVALID_CREDENTIALS = 'Invalid username or password';

/** Keys that must never appear in any answer about a user. */
const SECRET_KEY = /password|hash|token|stripe|secret/i;

function secretKeysIn(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(SECRET_KEY.test(key) ? [`${prefix}${key}`] : []),
    ...secretKeysIn(inner, `${prefix}${key}.`),
  ]);
}

function expectPublicUser(res: Response, expected: { username: string; name?: string; email?: string }) {
  const user = userBody(res);
  expect(user).toEqual({
    id: expect.any(Number) as number,
    username: expected.username,
    name: expected.name ?? (expect.any(String) as string),
    email: expected.email ?? (expect.any(String) as string),
    profilePicture: null,
    isAdmin: false,
    emailVerified: false,
    subscriptionTier: 'free',
    subscriptionStatus: null,
    subscriptionEndDate: null,
    hasUnlimitedAccess: false,
    createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/) as string,
  });
  expect(Number.isInteger(user.id)).toBe(true);
  expect(secretKeysIn(user)).toEqual([]);
  expect(res.body).not.toMatch(/\$argon2/);
  return user;
}

/** Everything a request could have written. */
async function snapshotCounts(t: TestApp) {
  return {
    users: await countRows(t.db, 'users'),
    sessions: await countRows(t.db, 'sessions'),
    loginFailures: await countRows(t.db, 'login_failures'),
  };
}

interface BadRequest {
  name: string;
  /** A raw payload with its content type, or a JSON value. */
  raw?: { contentType?: string; payload?: string };
  json?: unknown;
  status: number;
  message?: string;
}

const big = 'x'.repeat(10 * 1024);

function badBodies(path: '/api/login' | '/api/register'): BadRequest[] {
  const valid = path === '/api/login' ? { username: 'alice', password: 'secret123' } : newUserBody();
  const fields = Object.keys(valid);
  const cases: BadRequest[] = [
    { name: 'an empty object', json: {}, status: 400, message: 'Username is required' },
    {
      name: 'no password',
      json: { ...valid, password: undefined },
      status: 400,
      message: 'Password is required',
    },
    { name: 'a JSON array', json: [valid], status: 400, message: 'Request body must be a JSON object' },
    {
      name: 'JSON null',
      raw: { contentType: 'application/json', payload: 'null' },
      status: 400,
      message: 'Request body must be a JSON object',
    },
    { name: 'a JSON string', raw: { contentType: 'application/json', payload: '"alice"' }, status: 400 },
    {
      name: 'invalid JSON with application/json',
      raw: { contentType: 'application/json', payload: '{"username": "alice", ' },
      status: 400,
      message: 'Request body is not valid JSON',
    },
    {
      name: 'an empty body with application/json',
      raw: { contentType: 'application/json', payload: '' },
      status: 400,
    },
    { name: 'no body and no content type', raw: {}, status: 400 },
    {
      name: 'a form-encoded body',
      raw: {
        contentType: 'application/x-www-form-urlencoded',
        payload: new URLSearchParams(valid as Record<string, string>).toString(),
      },
      status: 415,
    },
    {
      name: 'a text/plain body',
      raw: { contentType: 'text/plain', payload: JSON.stringify(valid) },
      status: 415,
    },
    {
      name: 'a multipart body',
      raw: {
        contentType: 'multipart/form-data; boundary=xyz',
        payload: `--xyz\r\nContent-Disposition: form-data; name="username"\r\n\r\nalice\r\n--xyz--\r\n`,
      },
      status: 415,
    },
    {
      name: 'a __proto__ key',
      raw: {
        contentType: 'application/json',
        payload: `{"__proto__":{"isAdmin":true},${JSON.stringify(valid).slice(1)}`,
      },
      status: 400,
    },
    {
      name: 'a body over 1 MB',
      json: { ...valid, username: 'u'.repeat(1024 * 1024 + 10) },
      status: 413,
    },
  ];
  for (const field of fields) {
    const label = field.charAt(0).toUpperCase() + field.slice(1);
    cases.push(
      {
        name: `${field} as a number`,
        json: { ...valid, [field]: 123456 },
        status: 400,
        message: `${label} must be text`,
      },
      {
        name: `${field} as an array`,
        json: { ...valid, [field]: ['abcdef'] },
        status: 400,
        message: `${label} must be text`,
      },
      {
        name: `${field} as null`,
        json: { ...valid, [field]: null },
        status: 400,
        message: `${label} must be text`,
      },
      {
        name: `${field} as an object`,
        json: { ...valid, [field]: { a: 1 } },
        status: 400,
        message: `${label} must be text`,
      },
      { name: `${field} of 10 kB`, json: { ...valid, [field]: big }, status: 400 },
    );
  }
  return cases;
}

function send(t: TestApp, path: string, c: BadRequest) {
  if (c.raw) {
    return call(t.app, 'POST', path, {
      ...(c.raw.contentType ? { headers: { 'content-type': c.raw.contentType } } : {}),
      ...(c.raw.payload !== undefined ? { payload: c.raw.payload } : {}),
    });
  }
  return call(t.app, 'POST', path, { json: c.json });
}

describeEachDb('auth REST paths', (getDb) => {
  describe('POST /api/register', () => {
    const t = useTestApp(getDb);

    it('answers 201 with the public user and a session cookie that GET /api/user accepts', async () => {
      const body = newUserBody({ username: 'alice', name: 'Alice Liddell', email: 'alice@example.com' });
      const res = await call(t().app, 'POST', '/api/register', { json: body });
      expect(res.statusCode).toBe(201);
      const user = expectPublicUser(res, {
        username: 'alice',
        name: 'Alice Liddell',
        email: 'alice@example.com',
      });

      const cookie = sessionCookie(res);
      const me = await call(t().app, 'GET', '/api/user', { cookie });
      expect(me.statusCode).toBe(200);
      expect(userBody(me)).toEqual(user);
    });

    it('stores an argon2id hash, never the password itself', async () => {
      const body = newUserBody();
      const user = userBody(await register(t().app, body));
      const row = await t()
        .db.selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.password).not.toBe(body.password);
      expect(row.password).toMatch(/^\$argon2id\$/);
    });

    it('ignores fields a user may not set (isAdmin, subscriptionTier, emailVerified, hasUnlimitedAccess)', async () => {
      const res = await call(t().app, 'POST', '/api/register', {
        json: {
          ...newUserBody({ username: 'mallory' }),
          isAdmin: true,
          is_admin: true,
          subscriptionTier: 'premium',
          emailVerified: true,
          hasUnlimitedAccess: true,
          id: 999,
        },
      });
      expect(res.statusCode).toBe(201);
      const user = expectPublicUser(res, { username: 'mallory' });
      expect(user.id).not.toBe(999);
      const row = await t()
        .db.selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Boolean(row.is_admin)).toBe(false);
      expect(Boolean(row.email_verified)).toBe(false);
      expect(Boolean(row.has_unlimited_access)).toBe(false);
      expect(row.subscription_tier).toBe('free');
    });

    it.each([
      ['username', { username: 'ab' }, 'Username must be at least 3 characters'],
      ['password', { password: '12345' }, 'Password must be at least 6 characters'],
      ['name', { name: 'A' }, 'Name must be at least 2 characters'],
      ['email', { email: 'not-an-email' }, 'Invalid email address'],
    ] as const)(
      'refuses a short or invalid %s with the message of the form',
      async (field, patch, message) => {
        const before = await snapshotCounts(t());
        const res = await call(t().app, 'POST', '/api/register', { json: { ...newUserBody(), ...patch } });
        expect(res.statusCode).toBe(400);
        const body = expectRestError(res, 400);
        expect(body.code).toBe('VALIDATION_FAILED');
        expect(body.message).toBe(message);
        expect(body.issues).toEqual([{ path: field, message }]);
        expect(cookieValue(res)).toBeUndefined();
        expect(await snapshotCounts(t())).toEqual(before);
      },
    );

    it('lists every invalid field in issues, the first one in message', async () => {
      const res = await call(t().app, 'POST', '/api/register', {
        json: {
          username: 'ab',
          password: '123',
          name: 'A',
          email: 'nope',
        },
      });
      expect(res.statusCode).toBe(400);
      const body = expectRestError(res, 400);
      expect(body.message).toBe('Username must be at least 3 characters');
      expect(body.issues).toEqual([
        { path: 'username', message: 'Username must be at least 3 characters' },
        { path: 'password', message: 'Password must be at least 6 characters' },
        { path: 'name', message: 'Name must be at least 2 characters' },
        { path: 'email', message: 'Invalid email address' },
      ]);
      expect(await countRows(t().db, 'users')).toBe(0);
    });

    it.each(badBodies('/api/register'))('refuses $name ($status) and writes nothing', async (c) => {
      const before = await snapshotCounts(t());
      const res = await send(t(), '/api/register', c);
      expect(res.statusCode).toBe(c.status);
      const body = expectRestError(res, c.status);
      if (c.message) expect(body.message).toBe(c.message);
      expect(cookieValue(res)).toBeUndefined();
      expect(await snapshotCounts(t())).toEqual(before);
    });

    it('refuses a username that exists in another case with 409 and writes nothing', async () => {
      await register(t().app, { username: 'Alice', email: 'first@example.com' });
      const before = await snapshotCounts(t());
      const res = await register(t().app, { username: 'aLICE', email: 'second@example.com' });
      expect(res.statusCode).toBe(409);
      const body = expectRestError(res, 409);
      expect(body.message).toBe('Username already exists');
      expect(body.code).toBe('USERNAME_TAKEN');
      expect(cookieValue(res)).toBeUndefined();
      expect(await snapshotCounts(t())).toEqual(before);
    });

    it('refuses an e-mail address that is already registered with 409', async () => {
      await insertTestUser(t().db, { username: 'first', email: 'shared@example.com' });
      const res = await register(t().app, { username: 'second', email: 'SHARED@example.com' });
      expect(res.statusCode).toBe(409);
      expectRestError(res, 409);
      expect(await countRows(t().db, 'users')).toBe(1);
    });

    it('refuses a cross-origin request with 403 and writes nothing', async () => {
      const res = await call(t().app, 'POST', '/api/register', {
        json: newUserBody(),
        headers: { origin: 'https://evil.example' },
      });
      expect(res.statusCode).toBe(403);
      expectRestError(res, 403);
      expect(cookieValue(res)).toBeUndefined();
      expect(await countRows(t().db, 'users')).toBe(0);
    });

    it('refuses Sec-Fetch-Site: cross-site without an Origin header with 403', async () => {
      const res = await call(t().app, 'POST', '/api/register', {
        json: newUserBody(),
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(res.statusCode).toBe(403);
      expectRestError(res, 403);
      expect(await countRows(t().db, 'users')).toBe(0);
    });
  });

  describe('POST /api/register with REQUIRE_EMAIL_VERIFICATION=true', () => {
    const publicUrl = 'http://qr.example.test:8080';
    const t = useTestApp(getDb, { config: { requireEmailVerification: true, publicUrl } });

    it('answers 200 { requiresVerification, message } without a session, and mails a link built from PUBLIC_URL', async () => {
      const body = newUserBody({ username: 'verifyme', email: 'verifyme@example.com' });
      // The Host header is the attacker's to choose: the link must not be built from it.
      const res = await call(t().app, 'POST', '/api/register', {
        json: body,
        headers: { host: 'evil.example' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ requiresVerification: true, message: expect.any(String) as string });
      expect(setCookieLines(res)).toEqual([]);
      expect(await countRows(t().db, 'users')).toBe(1);
      expect(await countRows(t().db, 'sessions')).toBe(0);

      const mails = await readOutbox(t().outbox);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail).toMatch(/^To: verifyme@example\.com$/m);
      const match = /(\S+)\/verify-email#token=([A-Za-z0-9_%-]+)/.exec(mail);
      expect(match?.[1]).toBe(publicUrl);
      expect(mail).not.toContain('evil.example');

      // Only a hash of the token is stored.
      const token = decodeURIComponent(match![2]!);
      expect(token.length).toBeGreaterThanOrEqual(22);
      const row = await t()
        .db.selectFrom('users')
        .selectAll()
        .where('username', '=', 'verifyme')
        .executeTakeFirstOrThrow();
      expect(row.email_verification_token).toBeTruthy();
      expect(row.email_verification_token).not.toBe(token);
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row.email_verification_token).toBe(createHash('sha256').update(token).digest('hex'));
    });

    it('answers a taken address exactly as a new one, and tells its owner instead (once an hour)', async () => {
      await insertTestUser(t().db, { username: 'owner', email: 'taken@example.com' });
      const fresh = await call(t().app, 'POST', '/api/register', {
        json: newUserBody({ username: 'fresh', email: 'fresh@example.com' }),
      });
      const taken = await call(t().app, 'POST', '/api/register', {
        json: newUserBody({ username: 'intruder', email: 'TAKEN@example.com' }),
      });
      expect(taken.statusCode).toBe(fresh.statusCode);
      expect(taken.json()).toEqual(fresh.json());
      expect(await countRows(t().db, 'users')).toBe(2);
      await call(t().app, 'POST', '/api/register', {
        json: newUserBody({ username: 'intruder2', email: 'taken@example.com' }),
      });
      let mails: string[] = [];
      for (let i = 0; i < 500 && mails.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 20));
        mails = await readOutbox(t().outbox);
      }
      const warnings = mails.filter((m) => /^Subject: Someone tried to register with your address$/m.test(m));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^To: taken@example\.com$/m);
      // The username stays a conflict: usernames are public anyway.
      const sameName = await call(t().app, 'POST', '/api/register', {
        json: newUserBody({ username: 'owner', email: 'other@example.com' }),
      });
      expect(expectRestError(sameName, 409).message).toBe('Username already exists');
    });

    it('refuses to sign in the unverified user: 403 with requiresVerification and no cookie', async () => {
      const body = newUserBody({ username: 'unverified' });
      expect((await call(t().app, 'POST', '/api/register', { json: body })).statusCode).toBe(200);
      const res = await login(t().app, body.username, body.password);
      expect(res.statusCode).toBe(403);
      const error = expectRestError(res, 403);
      expect(error.requiresVerification).toBe(true);
      expect(error.message).toMatch(/verify/i);
      expect(cookieValue(res)).toBeUndefined();
      expect(await countRows(t().db, 'sessions')).toBe(0);
    });
  });

  describe('POST /api/login', () => {
    const t = useTestApp(getDb);

    it('answers 200 with the public user and a session cookie that GET /api/user accepts', async () => {
      await insertTestUser(t().db, { username: 'bob', email: 'bob@example.com' });
      const res = await login(t().app, 'bob', TEST_PASSWORD);
      expect(res.statusCode).toBe(200);
      const user = expectPublicUser(res, { username: 'bob', email: 'bob@example.com' });
      const me = await call(t().app, 'GET', '/api/user', { cookie: sessionCookie(res) });
      expect(me.statusCode).toBe(200);
      expect(userBody(me)).toEqual(user);
    });

    it('signs in a user who registered through POST /api/register', async () => {
      const body = newUserBody();
      const user = userBody(await register(t().app, body));
      const res = await login(t().app, body.username, body.password);
      expect(res.statusCode).toBe(200);
      expect(userBody(res)).toEqual(user);
    });

    it('answers 401 with the same body for a wrong password and for an unknown user', async () => {
      await insertTestUser(t().db, { username: 'carol' });
      const wrong = await login(t().app, 'carol', 'not-the-password');
      const unknown = await login(t().app, 'nobody-here', 'not-the-password');
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: INVALID_CREDENTIALS, code: 'INVALID_CREDENTIALS' });
        expect(cookieValue(res)).toBeUndefined();
      }
      expect(await countRows(t().db, 'sessions')).toBe(0);
    });

    it.each([
      ['username', { username: 'ab', password: 'whatever' }, 'Username must be at least 3 characters'],
      ['password', { username: 'alice', password: '' }, 'Password is required'],
    ] as const)('refuses a short %s with the message of the form', async (field, body, message) => {
      const before = await snapshotCounts(t());
      const res = await call(t().app, 'POST', '/api/login', { json: body });
      expect(res.statusCode).toBe(400);
      const error = expectRestError(res, 400);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toBe(message);
      expect(error.issues).toEqual([{ path: field, message }]);
      expect(await snapshotCounts(t())).toEqual(before);
    });

    it('enforces no length on the password it verifies (a 5-character password is just wrong)', async () => {
      await insertTestUser(t().db, { username: 'dave' });
      const res = await login(t().app, 'dave', '12345');
      expect(res.statusCode).toBe(401);
      expect(expectRestError(res, 401).message).toBe(INVALID_CREDENTIALS);
    });

    it.each(badBodies('/api/login'))('refuses $name ($status) and writes nothing', async (c) => {
      const before = await snapshotCounts(t());
      const res = await send(t(), '/api/login', c);
      expect(res.statusCode).toBe(c.status);
      const body = expectRestError(res, c.status);
      if (c.message) expect(body.message).toBe(c.message);
      expect(cookieValue(res)).toBeUndefined();
      expect(await snapshotCounts(t())).toEqual(before);
    });

    it('after 5 failed attempts on one account refuses the 6th, even with the right password: 429 with Retry-After', async () => {
      await insertTestUser(t().db, { username: 'erin' });
      await insertTestUser(t().db, { username: 'frank' });
      for (let i = 0; i < 5; i++) {
        expect((await login(t().app, 'erin', `wrong-${i}`)).statusCode).toBe(401);
      }
      const res = await login(t().app, 'erin', TEST_PASSWORD);
      expect(res.statusCode).toBe(429);
      const body = expectRestError(res, 429);
      expect(body.code).toBe('RATE_LIMITED');
      expect(body.message).toMatch(/try again/i);
      const retryAfter = Number(res.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(cookieValue(res)).toBeUndefined();

      // The same account in another case is the same account.
      expect((await login(t().app, 'ERIN', TEST_PASSWORD)).statusCode).toBe(429);

      // Another account from the same address is not affected.
      const other = await login(t().app, 'frank', TEST_PASSWORD);
      expect(other.statusCode).toBe(200);
      expect(userBody(other).username).toBe('frank');
    });

    it('holds the per-account limit when the guesses arrive at the same time', async () => {
      await insertTestUser(t().db, { username: 'parallel' });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => login(t().app, 'parallel', `guess-${i}`)),
      );
      const statuses = results.map((r) => r.statusCode);
      // Every answer is a refusal; at most 5 guesses may have been checked against the password.
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    });

    it('lets the real owner back in once the lockout window has passed', async () => {
      await insertTestUser(t().db, { username: 'grace' });
      for (let i = 0; i < 5; i++) await login(t().app, 'grace', `wrong-${i}`);
      expect((await login(t().app, 'grace', TEST_PASSWORD)).statusCode).toBe(429);
      t().clock.advance(15 * 60_000 + 1_000);
      expect((await login(t().app, 'grace', TEST_PASSWORD)).statusCode).toBe(200);
    });

    it("lets the owner's own browser in during a lockout others caused; other browsers stay held", async () => {
      await insertTestUser(t().db, { username: 'judy' });
      const first = await login(t().app, 'judy', TEST_PASSWORD);
      const device = cookieValue(first, 'qr_device');
      expect(device).toBeDefined();
      // Someone else fails five times from another address.
      for (let i = 0; i < 5; i++) {
        await login(t().app, 'judy', `wrong-${i}`, { remoteAddress: '203.0.113.50' });
      }
      expect((await login(t().app, 'judy', TEST_PASSWORD)).statusCode).toBe(429);
      const own = await call(t().app, 'POST', '/api/login', {
        json: { username: 'judy', password: TEST_PASSWORD },
        headers: { cookie: `qr_device=${device}` },
      });
      expect(own.statusCode).toBe(200);
      // A device cookie of another account, or a made-up one, does not help.
      await insertTestUser(t().db, { username: 'mallory' });
      const mallorys = cookieValue(await login(t().app, 'mallory', TEST_PASSWORD), 'qr_device');
      for (let i = 0; i < 5; i++)
        await login(t().app, 'judy', `again-${i}`, { remoteAddress: '203.0.113.51' });
      for (const cookie of [`qr_device=${mallorys}`, 'qr_device=made-up']) {
        const res = await call(t().app, 'POST', '/api/login', {
          json: { username: 'judy', password: TEST_PASSWORD },
          headers: { cookie },
        });
        expect(res.statusCode).toBe(429);
      }
    });

    it('limits failed attempts per client address across accounts (20), other addresses unaffected', async () => {
      await insertTestUser(t().db, { username: 'heidi' });
      const attacker = '203.0.113.7';
      for (let i = 0; i < 20; i++) {
        const res = await login(t().app, `victim${i}`, 'guess', { remoteAddress: attacker });
        expect(res.statusCode).toBe(401);
      }
      const blocked = await login(t().app, 'heidi', TEST_PASSWORD, { remoteAddress: attacker });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBeDefined();
      const elsewhere = await login(t().app, 'heidi', TEST_PASSWORD, { remoteAddress: '198.51.100.9' });
      expect(elsewhere.statusCode).toBe(200);
    });

    it('refuses a cross-origin request with 403 and sets no cookie', async () => {
      await insertTestUser(t().db, { username: 'ivan' });
      const res = await call(t().app, 'POST', '/api/login', {
        json: { username: 'ivan', password: TEST_PASSWORD },
        headers: { origin: 'https://evil.example' },
      });
      expect(res.statusCode).toBe(403);
      expectRestError(res, 403);
      expect(cookieValue(res)).toBeUndefined();
      expect(await countRows(t().db, 'sessions')).toBe(0);
    });

    it('accepts a request whose Origin is PUBLIC_URL', async () => {
      await insertTestUser(t().db, { username: 'judy' });
      const res = await call(t().app, 'POST', '/api/login', {
        json: { username: 'judy', password: TEST_PASSWORD },
        headers: { origin: new URL(t().config.publicUrl).origin },
      });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('GET /api/user', () => {
    const t = useTestApp(getDb);

    it('answers 401 with a JSON message when signed out', async () => {
      const res = await call(t().app, 'GET', '/api/user');
      expect(res.statusCode).toBe(401);
      const body = expectRestError(res, 401);
      expect(body.code).toBe('NOT_SIGNED_IN');
    });

    it('answers 401 for a cookie that names no session', async () => {
      for (const cookie of ['made-up-token', 'x'.repeat(5000), '']) {
        const res = await call(t().app, 'GET', '/api/user', { cookie: cookie || undefined });
        expect(res.statusCode).toBe(401);
        expectRestError(res, 401);
      }
    });

    it('answers the signed-in user without secrets', async () => {
      const registered = await register(t().app, { username: 'kim', name: 'Kim Lee' });
      const user = userBody(registered);
      const cookie = sessionCookie(registered);
      const res = await call(t().app, 'GET', '/api/user', { cookie });
      expect(res.statusCode).toBe(200);
      expect(expectPublicUser(res, { username: 'kim', name: 'Kim Lee' })).toEqual(user);
    });
  });

  describe('POST /api/logout', () => {
    const t = useTestApp(getDb);

    it('ends the session: 2xx, the cookie is cleared and no longer signs in', async () => {
      const { cookie } = await signedInUser(t(), 'leaving');
      const res = await call(t().app, 'POST', '/api/logout', { json: {}, cookie });
      expect(res.statusCode).toBeGreaterThanOrEqual(200);
      expect(res.statusCode).toBeLessThan(300);
      const cleared = setCookieLines(res).find((c) => c.startsWith('qr_session='));
      expect(cleared).toBeDefined();
      expect(cleared).toMatch(/^qr_session=;/);
      expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(401);
      expect(await countRows(t().db, 'sessions')).toBe(0);
    });

    it('answers 2xx when already signed out', async () => {
      const res = await call(t().app, 'POST', '/api/logout');
      expect(res.statusCode).toBeGreaterThanOrEqual(200);
      expect(res.statusCode).toBeLessThan(300);
    });

    it('refuses a cross-origin logout with 403 and the session survives', async () => {
      const { cookie } = await signedInUser(t(), 'staying');
      const res = await call(t().app, 'POST', '/api/logout', {
        json: {},
        cookie,
        headers: { origin: 'https://evil.example' },
      });
      expect(res.statusCode).toBe(403);
      expectRestError(res, 403);
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
    });
  });

  describe('other paths', () => {
    const t = useTestApp(getDb);

    it.each([
      ['GET', '/api/does-not-exist'],
      ['POST', '/api/does-not-exist'],
      ['GET', '/api/user/nothing-here'],
    ] as const)('%s %s answers a JSON 404', async (method, url) => {
      const res = await call(t().app, method, url, method === 'POST' ? { json: {} } : {});
      expect(res.statusCode).toBe(404);
      const body = expectRestError(res, 404);
      expect(body.code).toBe('NOT_FOUND');
    });

    it('an unknown /trpc procedure answers a JSON 404', async () => {
      const res = await call(t().app, 'GET', '/trpc/nothing.here');
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    });

    it('GET /healthz answers 200', async () => {
      const res = await call(t().app, 'GET', '/healthz');
      expect(res.statusCode).toBe(200);
    });

    it('GET /readyz answers 200 when the database answers', async () => {
      const res = await call(t().app, 'GET', '/readyz');
      expect(res.statusCode).toBe(200);
    });
  });
});
