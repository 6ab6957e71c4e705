// The cross-site request check of server/app.ts: a state-changing request that carries cookies must come
// from our own pages. Origin decides when it is sent, else Sec-Fetch-Site, else (new) the Referer; a
// request with none of the three (curl, scripts) and a token call without cookies pass as before.
import { describe, expect, it } from 'vitest';
import { insertQrRow } from './test/fixtures.js';
import {
  EVIL_ORIGIN,
  call,
  expectRestError,
  signedInUser,
  useTestApp,
  type Response,
  type TestApp,
} from './test/test-app.js';
import { countRows, describeOnSqlite } from './test/test-db.js';

const PUBLIC_URL = 'http://localhost:3000';
const newCode = { name: 'Menu', type: 'url', content: 'https://example.com/menu', customization: {} };

function postCode(t: TestApp, cookie: string | undefined, headers: Record<string, string>) {
  return call(t.app, 'POST', '/api/qr-codes', { ...(cookie ? { cookie } : {}), json: newCode, headers });
}

/** Refused exactly as a foreign Origin is: 403, the same body. */
function expectRefused(res: Response, asForeignOrigin: Response) {
  const body = expectRestError(res, 403, 'CROSS_SITE_REFUSED');
  expect(body.message).toBe('Cross-origin request refused');
  expect(res.statusCode).toBe(asForeignOrigin.statusCode);
  expect(res.json()).toEqual(asForeignOrigin.json());
}

describeOnSqlite('the cross-site request check', (getDb) => {
  const t = useTestApp(getDb);

  async function signedIn() {
    const me = await signedInUser(t(), `csrf${Math.random().toString(36).slice(2, 8)}`);
    const byOrigin = await postCode(t(), me.cookie, { origin: EVIL_ORIGIN });
    expect(byOrigin.statusCode).toBe(403);
    return { ...me, byOrigin };
  }

  describe('a cookie request with neither Origin nor Sec-Fetch-Site', () => {
    it('is refused, like a foreign Origin, when its Referer is another site; nothing is written', async () => {
      const { cookie, byOrigin } = await signedIn();
      for (const referer of [
        `${EVIL_ORIGIN}/innocent-page`,
        'http://localhost:3000.evil.example/',
        'https://localhost:3000/',
        'http://localhost:4000/',
        'http://127.0.0.1:3000/',
        // No absolute URL names no page of ours.
        'not a url',
        '/relative',
      ]) {
        expectRefused(await postCode(t(), cookie, { referer }), byOrigin);
      }
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('is refused on every state-changing method and on /trpc', async () => {
      const { user, cookie, byOrigin } = await signedIn();
      const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true });
      const referer = `${EVIL_ORIGIN}/`;
      const headers = { referer };
      expectRefused(
        await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
          cookie,
          json: { name: 'Hijacked' },
          headers,
        }),
        byOrigin,
      );
      expectRefused(
        await call(t().app, 'PATCH', `/api/qr-codes/${code.id}`, {
          cookie,
          json: { folderId: null },
          headers,
        }),
        byOrigin,
      );
      expectRefused(await call(t().app, 'DELETE', `/api/qr-codes/${code.id}`, { cookie, headers }), byOrigin);
      expectRefused(
        await call(t().app, 'POST', '/trpc/auth.logout', { cookie, json: {}, headers }),
        byOrigin,
      );
      // Still there, unchanged, and the session still works.
      const after = await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie, headers });
      expect(after.statusCode).toBe(200);
      expect(after.json<{ name: string }>().name).toBe(code.name);
    });

    it('passes with a Referer of PUBLIC_URL, or of the address the request was sent to', async () => {
      const { cookie } = await signedIn();
      expect((await postCode(t(), cookie, { referer: `${PUBLIC_URL}/create?x=1` })).statusCode).toBe(201);
      expect((await postCode(t(), cookie, { referer: `${PUBLIC_URL}` })).statusCode).toBe(201);
      // The own origin is accepted today for Origin (a LAN address, a second name): so for Referer.
      const own = await postCode(t(), cookie, {
        host: 'qr.internal:8080',
        referer: 'http://qr.internal:8080/create',
      });
      expect(own.statusCode, own.body).toBe(201);
    });

    it('passes without a Referer, as curl sends it', async () => {
      const { cookie } = await signedIn();
      const res = await postCode(t(), cookie, {});
      expect(res.statusCode, res.body).toBe(201);
    });
  });

  describe('when Origin or Sec-Fetch-Site is sent, they decide and the Referer is not read', () => {
    it('passes our Origin or same-origin with any Referer, refuses a foreign Origin with ours', async () => {
      const { cookie, byOrigin } = await signedIn();
      const foreignReferer = `${EVIL_ORIGIN}/`;
      expect((await postCode(t(), cookie, { origin: PUBLIC_URL, referer: foreignReferer })).statusCode).toBe(
        201,
      );
      expect(
        (await postCode(t(), cookie, { 'sec-fetch-site': 'same-origin', referer: foreignReferer }))
          .statusCode,
      ).toBe(201);
      expectRefused(await postCode(t(), cookie, { origin: EVIL_ORIGIN, referer: PUBLIC_URL }), byOrigin);
      expectRefused(
        await postCode(t(), cookie, { 'sec-fetch-site': 'cross-site', referer: PUBLIC_URL }),
        byOrigin,
      );
    });
  });

  describe('requests without cookies', () => {
    it('a Bearer token call passes whatever its Referer; with cookies along it is checked', async () => {
      const { cookie, byOrigin } = await signedIn();
      const made = await call(t().app, 'POST', '/api/user/tokens', {
        cookie,
        json: { name: 'script', scope: 'write' },
      });
      expect(made.statusCode, made.body).toBe(201);
      const authorization = `Bearer ${made.json<{ token: string }>().token}`;
      const bare = await postCode(t(), undefined, { authorization, referer: `${EVIL_ORIGIN}/` });
      expect(bare.statusCode, bare.body).toBe(201);
      expectRefused(await postCode(t(), cookie, { authorization, referer: `${EVIL_ORIGIN}/` }), byOrigin);
    });

    it('a signed-out call is not held to its Referer (there is no session to ride on)', async () => {
      const res = await call(t().app, 'POST', '/api/login', {
        json: { username: 'nobody', password: 'wrong-password' },
        headers: { referer: `${EVIL_ORIGIN}/` },
      });
      expect(expectRestError(res, 401).message).toBe('Invalid username or password');
    });
  });

  it('reads (GET) are not checked', async () => {
    const { cookie } = await signedIn();
    const res = await call(t().app, 'GET', '/api/qr-codes', {
      cookie,
      headers: { referer: `${EVIL_ORIGIN}/` },
    });
    expect(res.statusCode).toBe(200);
  });
});
