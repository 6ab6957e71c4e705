import { describe, expect, it } from 'vitest';
import { tokenMessages } from '../../src/auth/api-token.schema.js';
import type { UserRow } from '../db/database.js';
import { hashToken } from '../features/auth/tokens.js';
import { createToken } from '../features/tokens/tokens.service.js';
import { toUser } from '../features/users/users.mapper.js';
import { insertFolderRow, insertQrRow } from '../test/fixtures.js';
import { sessionFor, signedInUser, useTestApp, type TestApp } from '../test/test-app.js';
import { describeEachDb } from '../test/test-db.js';
import { appRouter } from '../trpc/app-router.js';
import type { AnyRestRoute } from './rest-kit.js';
import { restRoutes } from './rest-plugin.js';

/**
 * Who may call what, for every REST route × {signed out, owner, another user, admin, read token, write
 * token} and every tRPC procedure × {signed out, user}. The expected answer of each cell follows from what
 * the route declares (`access`, `tokens`, its method, and whether its path names an object of the caller's):
 * a route added tomorrow is checked the moment it is declared, and a procedure must be listed as public
 * or answer 401 signed out.
 */

type Role = 'signed out' | 'owner' | 'another user' | 'admin' | 'read token' | 'write token';
const roles: Role[] = ['signed out', 'another user', 'read token', 'owner', 'write token', 'admin'];

/** Path parameters naming an object that belongs to a user: another user gets 404 for it. */
const OWNED = /^\/api\/(qr-codes|analytics\/qr-codes|folders|user\/sessions|user\/tokens)\/:id/;

interface Fixture {
  owner: UserRow;
  ownerCookie: string;
  sessionId: string;
  codeId: number;
  folderId: number;
  tokenId: number;
  readToken: string;
  writeToken: string;
  requestId: number;
}

let serial = 0;

/** A fresh owner with one of everything, so a cell that deletes cannot disturb the next. */
async function fixture(t: TestApp): Promise<Fixture> {
  serial += 1;
  const { user: owner, cookie: ownerCookie } = await signedInUser(t, `owner${serial}`);
  const second = await sessionFor(t, owner.id);
  const code = await insertQrRow(t.db, { userId: owner.id, isDynamic: true });
  const folder = await insertFolderRow(t.db, owner.id);
  const read = await createToken(t.deps, toUser(owner), { name: 'read', scope: 'read' });
  const write = await createToken(t.deps, toUser(owner), { name: 'write', scope: 'write' });
  const request = await t.db
    .insertInto('upgrade_requests')
    .values({ user_id: owner.id, tier: 'pro', created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    owner,
    ownerCookie,
    sessionId: hashToken(second),
    codeId: code.id,
    folderId: folder.id,
    tokenId: read.apiToken.id,
    readToken: read.token,
    writeToken: write.token,
    requestId: request.id,
  };
}

function urlOf(route: AnyRestRoute, f: Fixture): string {
  const id = route.path.startsWith('/api/admin/upgrade-requests/')
    ? f.requestId
    : route.path.startsWith('/api/admin/users/')
      ? f.owner.id
      : route.path.includes('/qr-codes/')
        ? f.codeId
        : route.path.startsWith('/api/folders/')
          ? f.folderId
          : route.path.startsWith('/api/user/sessions/')
            ? f.sessionId
            : route.path.startsWith('/api/user/tokens/')
              ? f.tokenId
              : 'not-an-id';
  return route.path.replace(':id', String(id));
}

/** What a cell must answer: an exact status, or a set it must stay out of. */
type Expected = { status: number; message?: string } | { not: number[] };

function expected(route: AnyRestRoute, role: Role): Expected {
  const isToken = role === 'read token' || role === 'write token';
  if (role === 'signed out') return route.access === 'public' ? { not: [401, 403] } : { status: 401 };
  if (isToken) {
    if (route.tokens === false) return { status: 403, message: tokenMessages.sessionOnly };
    // The owner is no admin: refused as a user would be (an admin's non-admin token: tokens.rest.test.ts).
    if (route.access === 'admin') return { status: 403 };
    if (role === 'read token' && route.method !== 'GET')
      return { status: 403, message: tokenMessages.readOnly };
    return { not: [401, 403] };
  }
  if (route.access === 'admin') return role === 'admin' ? { not: [401, 403] } : { status: 403 };
  if (role === 'another user' && OWNED.test(route.path)) {
    // Without a body it is the object that is refused; a body as empty as ours may be refused first (400).
    return route.method === 'GET' || route.method === 'DELETE'
      ? { status: 404 }
      : { not: [200, 201, 204, 401, 403] };
  }
  return { not: [401, 403] };
}

describeEachDb('the authorization matrix', (getDb) => {
  const t = useTestApp(getDb);

  it('holds for every REST route × every kind of caller', { timeout: 120_000 }, async () => {
    const { user: stranger } = await signedInUser(t(), 'stranger');
    const { user: root } = await signedInUser(t(), 'root', { isAdmin: true });
    let cells = 0;
    const failures: string[] = [];
    for (const route of restRoutes) {
      for (const role of roles) {
        const f = await fixture(t());
        const headers: Record<string, string> = {};
        if (role === 'read token') headers.authorization = `Bearer ${f.readToken}`;
        if (role === 'write token') headers.authorization = `Bearer ${f.writeToken}`;
        // A session of its own per cell: a cell may sign its caller out (logout, sessions).
        const cookie =
          role === 'owner'
            ? f.ownerCookie
            : role === 'another user'
              ? await sessionFor(t(), stranger.id)
              : role === 'admin'
                ? await sessionFor(t(), root.id)
                : undefined;
        if (cookie) headers.cookie = `qr_session=${cookie}`;
        const withBody = route.method !== 'GET' && route.method !== 'DELETE';
        const res = await t().app.inject({
          method: route.method,
          url: urlOf(route, f),
          headers: withBody ? { ...headers, 'content-type': 'application/json' } : headers,
          ...(withBody ? { payload: '{}' } : {}),
        });
        cells += 1;
        const want = expected(route, role);
        const where = `${route.method} ${route.path} as ${role}: ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (res.statusCode >= 500) failures.push(`5xx — ${where}`);
        else if ('status' in want) {
          if (res.statusCode !== want.status) failures.push(`expected ${want.status} — ${where}`);
          else if (want.message && res.json<{ message: string }>().message !== want.message) {
            failures.push(`expected "${want.message}" — ${where}`);
          }
        } else if (want.not.includes(res.statusCode))
          failures.push(`expected none of ${want.not.join('/')} — ${where}`);
      }
    }
    console.log(
      `authorization matrix: ${cells} REST cells checked (${restRoutes.length} routes × ${roles.length} callers)`,
    );
    expect(failures).toEqual([]);
  });

  it('every tRPC procedure is public by name or refuses a signed-out caller, alone and in a batch', async () => {
    const publicProcedures = new Set([
      'auth.me',
      'auth.login',
      'auth.loginTwoFactor',
      'auth.register',
      'auth.logout',
      'auth.requestPasswordReset',
      'auth.verifyResetToken',
      'auth.resetPassword',
      'auth.verifyEmail',
      'auth.resendVerification',
      'auth.publicConfig',
    ]);
    const adminProcedures = /^admin\.|^account\.(verifyEmailService|sendTestEmail)$/;
    const procedures = (
      appRouter._def as unknown as { procedures: Record<string, { _def: { type: string } }> }
    ).procedures;
    const { cookie: userCookie } = await signedInUser(t(), 'plain');
    const call = (path: string, type: string, cookie?: string) =>
      t().app.inject({
        method: type === 'query' ? 'GET' : 'POST',
        url: `/trpc/${path}${type === 'query' ? `?input=${encodeURIComponent('{}')}` : ''}`,
        headers: {
          ...(cookie ? { cookie: `qr_session=${cookie}` } : {}),
          ...(type === 'query' ? {} : { 'content-type': 'application/json' }),
        },
        ...(type === 'query' ? {} : { payload: '{}' }),
      });
    let cells = 0;
    const failures: string[] = [];
    for (const [path, procedure] of Object.entries(procedures)) {
      const type = procedure._def.type;
      const out = await call(path, type);
      cells += 1;
      if (out.statusCode >= 500) failures.push(`5xx signed out — ${path}`);
      if (publicProcedures.has(path) === (out.statusCode === 401))
        failures.push(`signed out ${out.statusCode} — ${path}`);
      if (publicProcedures.has(path)) continue;
      const asUser = await call(path, type, userCookie);
      cells += 1;
      const refused = asUser.statusCode === 403;
      if (asUser.statusCode >= 500 || asUser.statusCode === 401)
        failures.push(`user ${asUser.statusCode} — ${path}`);
      if (adminProcedures.test(path) !== refused) failures.push(`user ${asUser.statusCode} — ${path}`);
    }
    // One batch of every protected query, signed out: each answer in it is a 401 of its own.
    const queries = Object.entries(procedures)
      .filter(([path, p]) => p._def.type === 'query' && !publicProcedures.has(path))
      .map(([path]) => path);
    const input = Object.fromEntries(queries.map((_, i) => [i, {}]));
    const batch = await t().app.inject({
      method: 'GET',
      url: `/trpc/${queries.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
    });
    const answers = batch.json<{ error?: { data?: { httpStatus?: number } } }[]>();
    expect(answers).toHaveLength(queries.length);
    for (const [i, answer] of answers.entries()) {
      cells += 1;
      if (answer.error?.data?.httpStatus !== 401)
        failures.push(`batched ${queries[i]} answered ${JSON.stringify(answer).slice(0, 120)}`);
    }
    console.log(
      `authorization matrix: ${cells} tRPC cells checked (${Object.keys(procedures).length} procedures, one batch of ${queries.length})`,
    );
    expect(failures).toEqual([]);
  });
});

describe('the matrix covers the table', () => {
  it('knows every kind of path parameter in the table', () => {
    const named = restRoutes.filter((r) => r.path.includes(':'));
    const known =
      /^\/api\/(admin\/upgrade-requests|admin\/users|qr-codes|analytics\/qr-codes|folders|user\/sessions|user\/tokens|uploads)\/:id/;
    expect(named.filter((r) => !known.test(r.path)).map((r) => r.path)).toEqual([]);
  });
});
