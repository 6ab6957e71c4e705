import { sql } from 'kysely';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import pino from 'pino';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { TOKEN_RATE_PER_MINUTE } from '../../src/auth/api-token.schema.js';
import { toUser } from '../features/users/users.mapper.js';
import { createToken } from '../features/tokens/tokens.service.js';
import { deleteExpiredIdempotencyKeys, idempotencyMessages } from '../features/idempotency/idempotency.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../test/test-app.js';
import { countRows, describeEachDb } from '../test/test-db.js';
import { sendRestError } from './rest-errors.js';
import { defineRoute, handlerOf, v1PathOf } from './rest-kit.js';
import { restRoutes } from './rest-plugin.js';

const newCode = {
  name: 'Menu',
  type: 'url',
  content: 'https://example.com/menu',
  isDynamic: true,
};

async function scripted(t: TestApp, username: string, scope: 'read' | 'write' = 'write') {
  const { user, cookie } = await signedInUser(t, username);
  const { token } = await createToken(t.deps, toUser(user), { name: `${scope} token`, scope });
  return { user, cookie, auth: { authorization: `Bearer ${token}` } };
}

describeEachDb('REST conventions: /api/v1, strict input, idempotency, error codes', (getDb) => {
  const t = useTestApp(getDb, { logger: pino({ level: process.env.DEBUG_LOG ? 'error' : 'silent' }) });

  // ---- /api/v1 and strict input -------------------------------------------------------------------

  it('serves every documented path under /api/v1 too, with the same answers', async () => {
    const { auth } = await scripted(t(), 'ada');
    const created = await call(t().app, 'POST', '/api/v1/qr-codes', { json: newCode, headers: auth });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    const v1 = await call(t().app, 'GET', `/api/v1/qr-codes/${id}`, { headers: auth });
    const plain = await call(t().app, 'GET', `/api/qr-codes/${id}`, { headers: auth });
    expect(v1.statusCode).toBe(200);
    expect(v1.json()).toEqual(plain.json());
    expectRestError(
      await call(t().app, 'GET', '/api/v1/qr-codes/999999', { headers: auth }),
      404,
      'NOT_FOUND',
    );
  });

  it('registers a /api/v1 twin of every documented path, with the same method', () => {
    for (const route of restRoutes) {
      expect(t().app.hasRoute({ method: route.method, url: route.path }), route.path).toBe(true);
      expect(t().app.hasRoute({ method: route.method, url: v1PathOf(route.path) }), route.path).toBe(true);
    }
  });

  it('/api/v1 refuses a field it does not know, naming it, and changes nothing; the spec path ignores it', async () => {
    const { auth } = await scripted(t(), 'ada');
    const id = (await call(t().app, 'POST', '/api/qr-codes', { json: newCode, headers: auth })).json<{
      id: number;
    }>().id;

    const v1 = await call(t().app, 'PUT', `/api/v1/qr-codes/${id}`, {
      json: { destination: 'https://x.example' },
      headers: auth,
    });
    const body = expectRestError(v1, 400, 'VALIDATION_FAILED');
    expect(body.message).toBe('destination: Unknown field');
    expect(body.issues).toEqual([{ path: 'destination', message: 'Unknown field' }]);

    // However deep: a design option that does not exist is named by its path.
    const deep = await call(t().app, 'POST', '/api/v1/qr-codes', {
      json: { ...newCode, customization: { foregroundColour: '#000000' } },
      headers: auth,
    });
    expect(expectRestError(deep, 400, 'VALIDATION_FAILED').issues).toEqual([
      { path: 'customization.foregroundColour', message: 'Unknown field' },
    ]);
    expect(await countRows(t().db, 'qr_codes')).toBe(1);

    // The spec's own path keeps its lenient reading.
    const lenient = await call(t().app, 'PUT', `/api/qr-codes/${id}`, {
      json: { destination: 'https://x.example', name: 'Menu 2' },
      headers: auth,
    });
    expect(lenient.statusCode, lenient.body).toBe(200);
    expect(lenient.json<{ name: string; content: string }>()).toMatchObject({
      name: 'Menu 2',
      content: 'https://example.com/menu',
    });
  });

  it('/api/v1 refuses an unknown QR type; the spec path reads it as url, as the spec says', async () => {
    const { auth } = await scripted(t(), 'ada');
    const refused = await call(t().app, 'POST', '/api/v1/qr-codes', {
      json: { ...newCode, type: 'banana' },
      headers: auth,
    });
    const body = expectRestError(refused, 400, 'VALIDATION_FAILED');
    expect(body.issues).toHaveLength(1);
    expect(body.issues?.[0]?.path).toBe('type');
    expect(body.issues?.[0]?.message).toMatch(/^Type must be one of: url, /);
    expect(await countRows(t().db, 'qr_codes')).toBe(0);

    const lenient = await call(t().app, 'POST', '/api/qr-codes', {
      json: { ...newCode, type: 'banana' },
      headers: auth,
    });
    expect(lenient.statusCode, lenient.body).toBe(201);
    expect(lenient.json<{ type: string }>().type).toBe('url');
  });

  // ---- Error codes and headers ---------------------------------------------------------------------

  it('names the cause in `code`, and a 401 says how to authenticate', async () => {
    const { cookie, auth } = await scripted(t(), 'ada');
    const signedOut = await call(t().app, 'GET', '/api/qr-codes');
    expectRestError(signedOut, 401, 'NOT_SIGNED_IN');
    expect(signedOut.headers['www-authenticate']).toBe('Bearer realm="QR Creator"');
    const badToken = await call(t().app, 'GET', '/api/qr-codes', {
      headers: { authorization: 'Bearer qrc_not-a-token' },
    });
    expectRestError(badToken, 401, 'TOKEN_INVALID');
    expect(badToken.headers['www-authenticate']).toBe('Bearer realm="QR Creator", error="invalid_token"');

    const staticCode = await call(t().app, 'POST', '/api/qr-codes', {
      json: { ...newCode, isDynamic: false },
      headers: auth,
    });
    const staticId = staticCode.json<{ id: number }>().id;
    expectRestError(
      await call(t().app, 'PUT', `/api/qr-codes/${staticId}`, { json: { name: 'X' }, headers: auth }),
      403,
      'STATIC_CODE_NOT_EDITABLE',
    );

    const { auth: readAuth } = await scripted(t(), 'bob', 'read');
    expectRestError(
      await call(t().app, 'POST', '/api/qr-codes', { json: newCode, headers: readAuth }),
      403,
      'TOKEN_READ_ONLY',
    );
    expectRestError(
      await call(t().app, 'GET', '/api/user/sessions', { headers: readAuth }),
      403,
      'TOKEN_NOT_ACCEPTED',
    );
    expectRestError(
      await call(t().app, 'POST', '/api/qr-codes', {
        payload: '{"name":',
        cookie,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'INVALID_JSON',
    );
  });

  it('counts a token request refused before its body is read (415, bad JSON) against the rate limit', async () => {
    const { auth } = await scripted(t(), 'ada');
    const first = await call(t().app, 'POST', '/api/qr-codes', {
      payload: 'name=Menu',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectRestError(first, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(first.headers['ratelimit-remaining']).toBe(String(TOKEN_RATE_PER_MINUTE - 1));
    const second = await call(t().app, 'POST', '/api/qr-codes', {
      payload: '{"name":',
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expectRestError(second, 400, 'INVALID_JSON');
    expect(second.headers['ratelimit-remaining']).toBe(String(TOKEN_RATE_PER_MINUTE - 2));
    const third = await call(t().app, 'GET', '/api/qr-codes', { headers: auth });
    expect(third.headers['ratelimit-remaining']).toBe(String(TOKEN_RATE_PER_MINUTE - 3));
  });

  // ---- Idempotency-Key -----------------------------------------------------------------------------

  it('runs a POST once per Idempotency-Key: the retry gets the same answer and creates nothing', async () => {
    const { auth } = await scripted(t(), 'ada');
    const headers = { ...auth, 'idempotency-key': 'create-menu-1' };
    const first = await call(t().app, 'POST', '/api/qr-codes', { json: newCode, headers });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await call(t().app, 'POST', '/api/v1/qr-codes', { json: newCode, headers });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countRows(t().db, 'qr_codes')).toBe(1);

    // The same key with another body is a mistake, not a retry.
    const other = await call(t().app, 'POST', '/api/qr-codes', {
      json: { ...newCode, name: 'Other' },
      headers,
    });
    const body = expectRestError(other, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(body.message).toBe(idempotencyMessages.reused);
    expect(await countRows(t().db, 'qr_codes')).toBe(1);

    // Keys are the caller's own: another user's same key acts for them.
    const { auth: bobAuth } = await scripted(t(), 'bob');
    const bobs = await call(t().app, 'POST', '/api/qr-codes', {
      json: newCode,
      headers: { ...bobAuth, 'idempotency-key': 'create-menu-1' },
    });
    expect(bobs.statusCode).toBe(201);
    expect(bobs.headers['idempotent-replayed']).toBeUndefined();
    expect(await countRows(t().db, 'qr_codes')).toBe(2);
  });

  it('makes a bulk call of 50 safe to retry', async () => {
    const { auth } = await scripted(t(), 'ada');
    await t()
      .db.updateTable('users')
      .set({ has_unlimited_access: true })
      .where('username', '=', 'ada')
      .execute();
    const codes = Array.from({ length: 50 }, (_, i) => ({ ...newCode, name: `Bulk ${i + 1}` }));
    const headers = { ...auth, 'idempotency-key': 'bulk-2026-11-28' };
    const first = await call(t().app, 'POST', '/api/qr-codes/bulk', { json: { codes }, headers });
    expect(first.statusCode, first.body).toBe(201);
    const retry = await call(t().app, 'POST', '/api/qr-codes/bulk', { json: { codes }, headers });
    expect(retry.json()).toEqual(first.json());
    expect(await countRows(t().db, 'qr_codes')).toBe(50);
  });

  it('lets a refused request try again with its key, and forgets keys after 24 hours', async () => {
    const { auth } = await scripted(t(), 'ada');
    const headers = { ...auth, 'idempotency-key': 'k-1' };
    expectRestError(
      await call(t().app, 'POST', '/api/qr-codes', { json: { ...newCode, name: '' }, headers }),
      400,
      'VALIDATION_FAILED',
    );
    const created = await call(t().app, 'POST', '/api/qr-codes', { json: newCode, headers });
    expect(created.statusCode).toBe(201);
    expect(created.headers['idempotent-replayed']).toBeUndefined();

    t().clock.advance(24 * 60 * 60 * 1000 + 1000);
    const later = await call(t().app, 'POST', '/api/qr-codes', { json: newCode, headers });
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await countRows(t().db, 'qr_codes')).toBe(2);

    t().clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect(await deleteExpiredIdempotencyKeys(t().db, t().clock.now())).toBe(1);
    expect(await countRows(t().db, 'idempotency_keys')).toBe(0);
  });

  it('answers 409 while the first request with the key still runs, and 400 to a key that is not one', async () => {
    const { auth } = await scripted(t(), 'ada');
    // A first request that claimed the key and has not answered yet.
    const tokenRow = await t().db.selectFrom('api_tokens').select('id').executeTakeFirstOrThrow();
    await sql`insert into idempotency_keys (owner, key, fingerprint, status, body, created_at)
              values (${`token:${tokenRow.id}`}, 'running', 'x', null, null, ${t().clock.now().toISOString()})`.execute(
      t().db,
    );
    const busy = await call(t().app, 'POST', '/api/qr-codes', {
      json: newCode,
      headers: { ...auth, 'idempotency-key': 'running' },
    });
    expect(expectRestError(busy, 409, 'IDEMPOTENCY_KEY_IN_USE').message).toBe(idempotencyMessages.inUse);
    const bad = await call(t().app, 'POST', '/api/qr-codes', {
      json: newCode,
      headers: { ...auth, 'idempotency-key': 'ü'.repeat(3) },
    });
    const body = expectRestError(bad, 400, 'VALIDATION_FAILED');
    expect(body.issues).toEqual([{ path: 'Idempotency-Key', message: idempotencyMessages.invalidKey }]);
    expect(await countRows(t().db, 'qr_codes')).toBe(0);
  });

  // ---- Deprecation ---------------------------------------------------------------------------------

  it('marks a deprecated path with Deprecation, Sunset and a Link to the policy', async () => {
    const app = Fastify();
    await app.register(fastifyCookie);
    app.setErrorHandler((error, req, reply) => sendRestError(error, req, reply));
    app.get(
      '/api/old-thing',
      handlerOf(
        defineRoute({
          method: 'GET',
          path: '/api/old-thing',
          summary: 'An old path.',
          access: 'public',
          deprecated: { since: '2026-12-01T00:00:00Z', sunset: '2027-06-01T00:00:00Z' },
          answer: z.object({ ok: z.boolean() }),
          handler: () => ({ ok: true }),
        }),
        t().deps,
      ),
    );
    const res = await app.inject({ method: 'GET', url: '/api/old-thing' });
    expect(res.json(), res.body).toEqual({ ok: true });
    expect(res.headers.deprecation).toBe(`@${Date.parse('2026-12-01T00:00:00Z') / 1000}`);
    expect(res.headers.sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(res.headers.link).toMatch(/rel="deprecation"$/);
    await app.close();
  });
});
