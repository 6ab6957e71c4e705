import { describe, expect, it } from 'vitest';
import { tokenMessages } from '../../src/auth/api-token.schema.js';
import type { UserRow } from '../db/database.js';
import { hashToken } from '../features/auth/tokens.js';
import { createToken } from '../features/tokens/tokens.service.js';
import { toUser } from '../features/users/users.mapper.js';
import { insertUpload } from '../features/uploads/uploads.repository.js';
import { insertQueuedMail } from '../features/mail/mail.repository.js';
import {
  insertAnalyticsShareRow,
  insertFolderRow,
  insertLinkImportRow,
  insertQrRow,
  insertWebhookRow,
} from '../test/fixtures.js';
import { makePng } from '../test/upload-fixtures.js';
import { sessionFor, signedInUser, useTestApp, type TestApp } from '../test/test-app.js';
import { describeEachDb } from '../test/test-db.js';
import { appRouter } from '../trpc/app-router.js';
import type { ProcedureMeta } from '../trpc/init.js';
import { ownedObjects, type AnyRestRoute, type PathObject } from './rest-kit.js';
import { restRoutes } from './rest-plugin.js';

/**
 * Who may call what, for every REST route × {signed out, owner, another user, admin, read token, write
 * token} and every tRPC procedure × {signed out, user, API token, admin}. The expected answer of each cell
 * follows from what the route declares (`access`, `tokens`, its method, and `object`: what its `:id`
 * names) and from the access each procedure declares in its meta: a route or procedure added tomorrow is
 * checked the moment it is declared, and one that declares nothing fails the test.
 */

type Role = 'signed out' | 'owner' | 'another user' | 'admin' | 'read token' | 'write token';
const roles: Role[] = ['signed out', 'another user', 'read token', 'owner', 'write token', 'admin'];

/** What each route says its `:id` names decides the fixture's id and whether another user gets 404. */
const isOwned = (route: AnyRestRoute) =>
  (ownedObjects as readonly string[]).includes(route.object ?? '') && route.path.includes(':id');

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
  uploadId: string;
  queuedMailId: number;
  domainId: number;
  importId: string;
  webhookId: number;
  deliveryId: number;
  shareId: number;
  shareToken: string;
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
  const uploadId = `matrix${serial}`;
  await insertUpload(t.db, {
    id: uploadId,
    userId: owner.id,
    kind: 'logo',
    mime: 'image/png',
    data: makePng(),
    createdAt: new Date().toISOString(),
  });
  // A mail given up after its tries, for the admin's Retry now.
  const queuedMailId = await insertQueuedMail(t.db, {
    recipient: `owner${serial}@example.com`,
    subject: 'Hello',
    body_text: 'Hello,',
    status: 'given-up',
    attempts: 7,
    next_attempt_at: new Date().toISOString(),
    created_at: new Date().toISOString(),
    finished_at: new Date().toISOString(),
  });
  // A short domain no code uses, for the admin's change and delete.
  const domain = await t.db
    .insertInto('short_domains')
    .values({ hostname: `matrix${serial}.example.test`, created: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const importId = await insertLinkImportRow(t.db, owner.id, `matrix-import-${serial}`);
  const { webhookId, deliveryId } = await insertWebhookRow(t.db, owner.id);
  const share = await insertAnalyticsShareRow(t.db, owner.id, code.id);
  return {
    webhookId,
    deliveryId,
    shareId: share.id,
    shareToken: share.token,
    uploadId,
    queuedMailId,
    importId,
    domainId: domain.id,
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
  const ids: Record<PathObject, string | number> = {
    qrCode: f.codeId,
    folder: f.folderId,
    session: f.sessionId,
    apiToken: f.tokenId,
    upload: f.uploadId,
    user: f.owner.id,
    // The owner's own workspace: its id is the owner's.
    workspace: f.owner.id,
    upgradeRequest: f.requestId,
    queuedMail: f.queuedMailId,
    shortDomain: f.domainId,
    linkImport: f.importId,
    webhook: f.webhookId,
    analyticsShare: f.shareId,
    sharedDashboard: f.shareToken,
  };
  return route.object
    ? route.path
        .replace(':id', String(ids[route.object]))
        .replace(':versionId', '1')
        .replace(':deliveryId', String(f.deliveryId))
    : route.path;
}

/** What a cell must answer: an exact status, or a set it must stay out of. */
type Expected = { status: number; message?: string } | { not: number[] };

function expected(route: AnyRestRoute, role: Role): Expected {
  const isToken = role === 'read token' || role === 'write token';
  if (role === 'signed out') return route.access === 'public' ? { not: [401, 403] } : { status: 401 };
  if (isToken) {
    if (!route.tokens) return { status: 403, message: tokenMessages.sessionOnly };
    // The owner is no admin: refused as a user would be (an admin's non-admin token: tokens.rest.test.ts).
    if (route.access === 'admin') return { status: 403 };
    if (role === 'read token' && route.tokens === 'write')
      return { status: 403, message: tokenMessages.readOnly };
    return { not: [401, 403] };
  }
  if (route.access === 'admin') return role === 'admin' ? { not: [401, 403] } : { status: 403 };
  if (role === 'another user' && isOwned(route)) {
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

  it('every tRPC procedure answers as its declared access says, alone and in a batch', async () => {
    const procedures = (
      appRouter._def as unknown as {
        procedures: Record<string, { _def: { type: string; meta?: ProcedureMeta } }>;
      }
    ).procedures;
    const accessOf = (path: string) => procedures[path]!._def.meta?.access;
    const undeclared = Object.keys(procedures).filter((path) => !accessOf(path));
    expect(undeclared, 'procedures that do not declare who may call them').toEqual([]);
    const { user: plain, cookie: userCookie } = await signedInUser(t(), 'plain');
    const { cookie: adminCookie } = await signedInUser(t(), 'boss', { isAdmin: true });
    const { token } = await createToken(t().deps, toUser(plain), { name: 'trpc', scope: 'write' });
    const call = (path: string, type: string, cookie?: string, bearer?: string) =>
      t().app.inject({
        method: type === 'query' ? 'GET' : 'POST',
        url: `/trpc/${path}${type === 'query' ? `?input=${encodeURIComponent('{}')}` : ''}`,
        headers: {
          ...(cookie ? { cookie: `qr_session=${cookie}` } : {}),
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
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
      const access = accessOf(path);
      if ((access === 'public') === (out.statusCode === 401))
        failures.push(`signed out ${out.statusCode} — ${path}`);
      if (access === 'public') continue;
      const asUser = await call(path, type, userCookie);
      cells += 1;
      const refused = asUser.statusCode === 403;
      if (asUser.statusCode >= 500 || asUser.statusCode === 401)
        failures.push(`user ${asUser.statusCode} — ${path}`);
      if ((access === 'admin') !== refused) failures.push(`user ${asUser.statusCode} — ${path}`);
      // API tokens are for the REST paths only: /trpc is the app's, with its session.
      const withToken = await call(path, type, undefined, token);
      cells += 1;
      if (withToken.statusCode !== 401) failures.push(`token ${withToken.statusCode} — ${path}`);
      if (access !== 'admin') continue;
      const asAdmin = await call(path, type, adminCookie);
      cells += 1;
      if ([401, 403].includes(asAdmin.statusCode) || asAdmin.statusCode >= 500)
        failures.push(`admin ${asAdmin.statusCode} — ${path}`);
    }
    // One batch of every protected query, signed out: each answer in it is a 401 of its own.
    const queries = Object.entries(procedures)
      .filter(([path, p]) => p._def.type === 'query' && accessOf(path) !== 'public')
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

/**
 * The paths that change who owns or enters an account: its address, password, two-factor, sessions,
 * tokens, profile and picture, sign-in and recovery, and an admin's power over another account. A token
 * that leaks (a CI log, a script) must never turn into the account itself: none of these opts in.
 */
const accountPaths = [
  'PUT /api/user/profile',
  'PUT /api/user/password',
  'POST /api/upload/profile-picture',
  'PUT /api/user/preferences',
  'GET /api/user/sessions',
  'DELETE /api/user/sessions/:id',
  'POST /api/user/sessions/sign-out-others',
  'GET /api/user/two-factor',
  'POST /api/user/two-factor/begin',
  'POST /api/user/two-factor/confirm',
  'POST /api/user/two-factor/disable',
  'GET /api/user/tokens',
  'POST /api/user/tokens',
  'DELETE /api/user/tokens/:id',
  'POST /api/login',
  'POST /api/login/two-factor',
  'POST /api/register',
  'POST /api/logout',
  'POST /api/password-reset/request',
  'POST /api/password-reset/verify',
  'POST /api/password-reset/reset',
  'GET /api/email/verify-token',
  'POST /api/email/resend-verification',
  'POST /api/email/undo-change',
  'POST /api/admin/users',
  'PUT /api/admin/users/:id',
  'POST /api/admin/users/:id/reset-password',
];

describe('API tokens are opted into, never for the account itself', () => {
  const key = (route: AnyRestRoute) => `${route.method} ${route.path}`;

  it('no path that changes who owns or enters the account accepts a token', () => {
    const declared = new Set(restRoutes.map(key));
    expect(
      accountPaths.filter((path) => !declared.has(path)),
      'listed paths that do not exist',
    ).toEqual([]);
    expect(restRoutes.filter((r) => accountPaths.includes(key(r)) && r.tokens).map(key)).toEqual([]);
    // A path added tomorrow under the account's own prefixes is held to the same rule unless it only reads.
    const accountPrefix =
      /^\/api\/(user(\/(profile|password|sessions|two-factor|tokens|preferences|email)|$)|login|register|logout|password-reset|email\/(verify-token|resend|undo)|upload\/profile-picture|admin\/users(\/:id(\/reset-password)?)?$)/;
    // An admin token may still delete a user (not a way into any account); reads are listed above.
    const opened = restRoutes.filter(
      (r) =>
        accountPrefix.test(r.path) &&
        r.tokens &&
        r.method !== 'GET' &&
        !(r.method === 'DELETE' && r.path.startsWith('/api/admin/')),
    );
    expect(opened.map(key)).toEqual([]);
  });

  it('a read token only ever reads', () => {
    expect(restRoutes.filter((r) => r.tokens === 'read' && r.method !== 'GET').map(key)).toEqual([]);
  });
});

describe('the matrix covers the table', () => {
  it('every route with a path parameter says what it names, and only `:id` is used', () => {
    const named = restRoutes.filter((r) => r.path.includes(':'));
    expect(named.filter((r) => !r.object).map((r) => r.path)).toEqual([]);
    // Besides `:id`, only a code's version (its owner is the code's: `:id` decides who gets 404), a
    // webhook's delivery (the webhook, `:id`, decides), and in a workspace's paths a member or an invitation
    // of it (the workspace, `:id`, decides who gets 404).
    const allowed = (r: AnyRestRoute) =>
      r.object === 'workspace'
        ? /:(?!id\b|userId\b|invitationId\b)/
        : r.object === 'webhook'
          ? /:(?!id\b|deliveryId\b)/
          : /:(?!id\b|versionId\b)/;
    expect(named.filter((r) => allowed(r).test(r.path)).map((r) => r.path)).toEqual([]);
    expect(restRoutes.filter((r) => r.object && !r.path.includes(':id')).map((r) => r.path)).toEqual([]);
  });
});
