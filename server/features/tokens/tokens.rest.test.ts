import { expect, it } from 'vitest';
import { TOKEN_RATE_PER_MINUTE, tokenMessages, type ApiToken } from '../../../src/auth/api-token.schema.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

async function tokenFor(
  t: TestApp,
  cookie: string,
  scope: 'read' | 'write' | 'admin',
  expiresInDays?: number,
) {
  const res = await call(t.app, 'POST', '/api/user/tokens', {
    cookie,
    json: { name: `${scope} token`, scope, ...(expiresInDays ? { expiresInDays } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ token: string; apiToken: ApiToken }>();
}

const bearer = (token: string, extra: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${token}`, ...extra },
});

const newCode = {
  name: 'Menu',
  type: 'url',
  content: 'https://example.com/menu',
  isDynamic: true,
  customization: {},
};

describeEachDb('personal API tokens', (getDb) => {
  const t = useTestApp(getDb);

  it('is shown once, listed without its value, and scripts the product with curl-like calls', async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    const { token, apiToken } = await tokenFor(t(), cookie, 'write');
    expect(token).toMatch(/^qrc_[A-Za-z0-9_-]{30,}$/);
    const list = await call(t().app, 'GET', '/api/user/tokens', { cookie });
    expect(list.json()).toEqual([{ ...apiToken, lastUsedAt: null }]);
    expect(list.body).not.toContain(token);

    const created = await call(t().app, 'POST', '/api/qr-codes', { json: newCode, ...bearer(token) });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['ratelimit-limit']).toBe(String(TOKEN_RATE_PER_MINUTE));
    expect(created.headers['ratelimit-remaining']).toBe(String(TOKEN_RATE_PER_MINUTE - 1));
    const id = created.json<{ id: number }>().id;
    const changed = await call(t().app, 'PUT', `/api/qr-codes/${id}`, {
      json: { content: 'https://example.com/new-menu' },
      ...bearer(token),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const daily = await call(t().app, 'GET', `/api/analytics/qr-codes/${id}/daily?days=7`, bearer(token));
    expect(daily.statusCode, daily.body).toBe(200);
    const used = await call(t().app, 'GET', '/api/user/tokens', { cookie });
    expect(used.json<ApiToken[]>()[0]!.lastUsedAt).not.toBeNull();
  });

  it('a read token reads but never writes; a foreign origin needs no CSRF pass without cookies', async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    const { token } = await tokenFor(t(), cookie, 'read');
    expect((await call(t().app, 'GET', '/api/qr-codes', bearer(token))).statusCode).toBe(200);
    const write = await call(t().app, 'POST', '/api/qr-codes', { json: newCode, ...bearer(token) });
    expect(expectRestError(write, 403).message).toBe(tokenMessages.readOnly);
    const { token: writer } = await tokenFor(t(), cookie, 'write');
    const foreign = await call(t().app, 'POST', '/api/qr-codes', {
      json: newCode,
      ...bearer(writer, { origin: 'https://elsewhere.example' }),
    });
    expect(foreign.statusCode).toBe(201);
  });

  it('admin paths need an admin-scoped token, which only admins can make', async () => {
    const { cookie: userCookie } = await signedInUser(t(), 'ada');
    const refused = await call(t().app, 'POST', '/api/user/tokens', {
      cookie: userCookie,
      json: { name: 'sneaky', scope: 'admin' },
    });
    expect(expectRestError(refused, 403).message).toBe(tokenMessages.adminScope);
    const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
    const { token: write } = await tokenFor(t(), cookie, 'write');
    const denied = await call(t().app, 'GET', '/api/admin/users', bearer(write));
    expect(expectRestError(denied, 403).message).toBe(tokenMessages.notAdminScope);
    const { token: admin } = await tokenFor(t(), cookie, 'admin');
    expect((await call(t().app, 'GET', '/api/admin/users', bearer(admin))).statusCode).toBe(200);
  });

  it('cannot sign in, change a password or manage tokens', async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    const { token } = await tokenFor(t(), cookie, 'write');
    for (const [method, url, json] of [
      ['PUT', '/api/user/password', { currentPassword: 'x', newPassword: 'yyyyyy' }],
      ['POST', '/api/user/tokens', { name: 'more', scope: 'write' }],
      ['GET', '/api/user/tokens', undefined],
      ['POST', '/api/login', { username: 'ada', password: 'whatever' }],
    ] as const) {
      const res = await call(t().app, method, url, { json, ...bearer(token) });
      expect(expectRestError(res, 403).message, url).toBe(tokenMessages.sessionOnly);
    }
  });

  it("leaves other schemes alone: a proxy's Basic auth in front of the app does not sign anyone out", async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    const res = await call(t().app, 'GET', '/api/qr-codes', {
      cookie,
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses an unknown, expired or revoked token with 401', async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    expect(
      expectRestError(await call(t().app, 'GET', '/api/qr-codes', bearer('qrc_nope')), 401).message,
    ).toBe(tokenMessages.invalid);
    const { token: short } = await tokenFor(t(), cookie, 'read', 1);
    expect((await call(t().app, 'GET', '/api/qr-codes', bearer(short))).statusCode).toBe(200);
    t().clock.advance(86_400_000 + 1000);
    expect((await call(t().app, 'GET', '/api/qr-codes', bearer(short))).statusCode).toBe(401);
    const { token, apiToken } = await tokenFor(t(), cookie, 'read');
    expect((await call(t().app, 'DELETE', `/api/user/tokens/${apiToken.id}`, { cookie })).statusCode).toBe(
      200,
    );
    expect((await call(t().app, 'GET', '/api/qr-codes', bearer(token))).statusCode).toBe(401);
    // Another user's token id is not found.
    const { cookie: other } = await signedInUser(t(), 'bob');
    const { apiToken: bobs } = await tokenFor(t(), other, 'read');
    expect((await call(t().app, 'DELETE', `/api/user/tokens/${bobs.id}`, { cookie })).statusCode).toBe(404);
  });

  it(
    `limits a token to ${TOKEN_RATE_PER_MINUTE} requests a minute, with Retry-After`,
    { timeout: 60_000 },
    async () => {
      const { cookie } = await signedInUser(t(), 'ada');
      const { token } = await tokenFor(t(), cookie, 'read');
      // Held at the start of a minute, so the window does not roll over mid-test.
      t().clock.set(new Date(Math.ceil(t().clock.now().getTime() / 60_000) * 60_000 + 1000));
      for (let i = 0; i < TOKEN_RATE_PER_MINUTE; i++) {
        const res = await call(t().app, 'GET', '/api/config', bearer(token));
        if (res.statusCode !== 200) throw new Error(`request ${i + 1} answered ${res.statusCode}`);
      }
      const over = await call(t().app, 'GET', '/api/config', bearer(token));
      expectRestError(over, 429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.headers['ratelimit-remaining']).toBe('0');
      t().clock.advance(60_000);
      expect((await call(t().app, 'GET', '/api/config', bearer(token))).statusCode).toBe(200);
    },
  );
});
