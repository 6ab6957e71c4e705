import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import type { ZodObject } from 'zod';
import {
  INVITATION_DAYS,
  roleAtLeast,
  workspaceMessages,
  workspaceRoles,
  type WorkspaceRole,
} from '../../src/workspaces/workspace.schema.js';
import type { UserRow } from '../db/database.js';
import { saveForwarding } from '../features/forwarding/forwarding.repository.js';
import { recordCreatedVersions } from '../features/qr/history.recorder.js';
import { listVersionsOfCode } from '../features/qr/history.repository.js';
import { DAY_MS } from '../features/scans/rollup-model.js';
import { createToken } from '../features/tokens/tokens.service.js';
import { insertUpload } from '../features/uploads/uploads.repository.js';
import { toUser } from '../features/users/users.mapper.js';
import { insertInvitation, insertMember } from '../features/workspaces/workspaces.repository.js';
import {
  insertAnalyticsShareRow,
  insertFolderRow,
  insertLinkImportRow,
  insertQrRow,
  insertWebhookRow,
} from '../test/fixtures.js';
import { makePng } from '../test/upload-fixtures.js';
import { callerFor, signedInUser, useTestApp, type TestApp } from '../test/test-app.js';
import { describeEachDb } from '../test/test-db.js';
import { appRouter } from '../trpc/app-router.js';
import type { ProcedureMeta } from '../trpc/init.js';
import type { AnyRestRoute, PathObject } from './rest-kit.js';
import { restRoutes } from './rest-plugin.js';

/**
 * Who may call what inside a team workspace: every REST route and every tRPC procedure that declares a
 * `role` × {non-member, viewer, editor, admin, owner}, with an API token made in the team besides. The
 * expected answer of each cell follows from the declared role alone (below it: 403 naming it; not a
 * member: 404 "Workspace not found"; at or above it: anything but 401/403/404), so a route or procedure
 * declared tomorrow with a role is checked the moment it exists. Signed-out callers, token scopes and
 * admin paths are the other matrix's (authorization-matrix.test.ts).
 */

type Member = 'non-member' | WorkspaceRole;
const members: Member[] = ['non-member', ...workspaceRoles];

/** What a cell must answer: an exact status and message, or a set it must stay out of. */
type Expected = { status: number; message: string } | { not: number[] };

function expected(needed: WorkspaceRole, member: Member): Expected {
  if (member === 'non-member') return { status: 404, message: workspaceMessages.notFound };
  if (!roleAtLeast(member, needed)) return { status: 403, message: workspaceMessages.roleRequired(needed) };
  // A 2xx, or a 4xx about the input only (the one body every cell sends may not suit a route: 400, 409, 415).
  return { not: [401, 403, 404] };
}

const allowed = (want: Expected) => 'not' in want;

/** The verdict of one cell: undefined when it answered as expected. */
function verdict(want: Expected, status: number, message: string | undefined): string | undefined {
  if (status >= 500) return '5xx';
  if ('status' in want) {
    if (status !== want.status) return `expected ${want.status}`;
    if (message !== want.message) return `expected "${want.message}"`;
    return undefined;
  }
  return want.not.includes(status) ? `expected none of ${want.not.join('/')}` : undefined;
}

interface Person {
  row: UserRow;
  cookie: string;
}

/** The people of every team: one per role, a member no cell acts as (the one named by paths), and outsiders. */
interface People {
  byRole: Record<WorkspaceRole, Person>;
  stranger: Person;
  /** A viewer of every team: the member that member paths name (changed, removed, handed ownership). */
  target: UserRow;
  /** Not a member: the username the invitation cells invite. */
  invitee: UserRow;
}

/** A team workspace with one of everything a path or procedure names. */
interface Team {
  id: number;
  codeId: number;
  versionId: number;
  folderId: number;
  uploadId: string;
  importId: string;
  webhookId: number;
  deliveryId: number;
  shareId: number;
  tokenId: number;
  invitationId: number;
  /** Write tokens made in the team by its owner and by its viewer. */
  ownerToken: string;
  viewerToken: string;
}

async function people(t: TestApp): Promise<People> {
  const person = async (username: string) => {
    const { user, cookie } = await signedInUser(t, username);
    return { row: user, cookie };
  };
  return {
    byRole: {
      owner: await person('olivia'),
      admin: await person('adam'),
      editor: await person('edith'),
      viewer: await person('victor'),
    },
    stranger: await person('stranger'),
    target: (await signedInUser(t, 'tara')).user,
    invitee: (await signedInUser(t, 'ivan')).user,
  };
}

let serial = 0;

/** A fresh team: shared by the cells that cannot change it, made anew for each cell that may. */
async function team(t: TestApp, p: People): Promise<Team> {
  serial += 1;
  const owner = p.byRole.owner.row;
  const { id } = await callerFor(t, owner).workspaces.create({ name: `Matrix team ${serial}` });
  const now = new Date().toISOString();
  for (const role of ['admin', 'editor', 'viewer'] as const)
    await insertMember(t.db, id, p.byRole[role].row.id, role, now);
  await insertMember(t.db, id, p.target.id, 'viewer', now);
  // A dynamic code with the first version of its history (a restore names it).
  const inserted = await insertQrRow(t.db, { userId: id, isDynamic: true });
  // Checked already: the app's background scan check has nothing to render while the cells run.
  const code = await t.db
    .updateTable('qr_codes')
    .set({ scan_verdict: 'scannable', scan_reason: '' })
    .where('id', '=', inserted.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordCreatedVersions(t.db, owner.id, [code], now);
  const [version] = await listVersionsOfCode(t.db, code.id);
  const folder = await insertFolderRow(t.db, id);
  const uploadId = randomUUID();
  await insertUpload(t.db, {
    id: uploadId,
    userId: id,
    kind: 'logo',
    mime: 'image/png',
    data: makePng(),
    createdAt: now,
  });
  const ownerToken = await createToken(t.deps, toUser(owner), { name: 'owner', scope: 'write' }, id);
  const viewerToken = await createToken(
    t.deps,
    toUser(p.byRole.viewer.row),
    { name: 'viewer', scope: 'write' },
    id,
  );
  const invitationId = await insertInvitation(t.db, {
    workspaceId: id,
    email: `pending${serial}@example.com`,
    inviteeId: null,
    role: 'viewer',
    tokenHash: null,
    invitedBy: { id: owner.id, username: owner.username },
    now,
    expiresAt: new Date(Date.now() + INVITATION_DAYS * DAY_MS).toISOString(),
  });
  const importId = await insertLinkImportRow(t.db, id, `team-import-${serial}-${randomUUID()}`);
  const { webhookId, deliveryId } = await insertWebhookRow(t.db, id);
  // Forwarding to an address the outbound policy refuses: removable, and a test event that sends nothing.
  await saveForwarding(
    t.db,
    id,
    {
      provider: 'plausible',
      settings: JSON.stringify({ url: 'http://127.0.0.1:9', domain: 'matrix.example' }),
      secret: null,
      enabled: true,
      address: 'none',
    },
    'matrix-salt',
    now,
  );
  const share = await insertAnalyticsShareRow(t.db, id, code.id);
  return {
    id,
    shareId: share.id,
    importId,
    webhookId,
    deliveryId,
    codeId: code.id,
    versionId: version!.id,
    folderId: folder.id,
    uploadId,
    tokenId: ownerToken.apiToken.id,
    invitationId,
    ownerToken: ownerToken.token,
    viewerToken: viewerToken.token,
  };
}

/**
 * Fresh teams, each made while the cell before it runs (on PostgreSQL the two overlap): `take` hands
 * over the next, `count` says how many were taken, `close` waits for the one made ahead.
 */
function teamSupply(t: TestApp, p: People) {
  let next = team(t, p);
  let count = 0;
  return {
    take: async () => {
      const w = await next;
      next = team(t, p);
      count += 1;
      return w;
    },
    count: () => count,
    close: () => next,
  };
}

/**
 * One body for every call that takes one: each field a route or procedure may need, naming the team's
 * things (zod drops the fields a schema does not declare). Valid enough that a workspace's own paths get
 * past their input to the service, which checks the role again.
 */
function bodyFor(w: Team, p: People, id: number | string = w.codeId) {
  return {
    id,
    workspaceId: w.id,
    versionId: w.versionId,
    userId: p.target.id,
    invitationId: w.invitationId,
    name: 'Matrix renamed',
    role: 'viewer',
    username: p.invitee.username,
    scope: 'read',
  };
}

// ---------------------------------------------------------------------------------------------------
// REST

const roleRoutes = restRoutes.filter((r) => r.role);
const tokenRoutes = roleRoutes.filter((r) => r.tokens);
/** A workspace's own paths: `:id` names the workspace, and the service checks the role there again. */
const workspaceRoutes = roleRoutes.filter((r) => r.object === 'workspace');

/** A call that may change its team gets a fresh one; GETs (a recorded scan at most) share theirs. */
const mayChange = (route: AnyRestRoute, want: Expected) => route.method !== 'GET' && allowed(want);

function urlOf(route: AnyRestRoute, w: Team, p: People): string {
  const ids: Partial<Record<PathObject, string | number>> = {
    qrCode: w.codeId,
    folder: w.folderId,
    upload: w.uploadId,
    apiToken: w.tokenId,
    workspace: w.id,
    linkImport: w.importId,
    webhook: w.webhookId,
    analyticsShare: w.shareId,
  };
  const params: Record<string, string | number | undefined> = {
    deliveryId: w.deliveryId,
    id: route.object ? ids[route.object] : undefined,
    versionId: w.versionId,
    userId: p.target.id,
    invitationId: w.invitationId,
  };
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.method} ${route.path}: no team fixture for :${name}`);
    return String(value);
  });
}

/** Who calls (a member's session or a team's token) and the X-Workspace header, if any. */
interface RestCell {
  cookie?: string;
  bearer?: string;
  workspace?: number;
}

function restCall(t: TestApp, route: AnyRestRoute, w: Team, p: People, cell: RestCell) {
  const withBody = route.method !== 'GET' && route.method !== 'DELETE';
  return t.app.inject({
    method: route.method,
    url: urlOf(route, w, p),
    headers: {
      ...(cell.cookie ? { cookie: `qr_session=${cell.cookie}` } : {}),
      ...(cell.bearer ? { authorization: `Bearer ${cell.bearer}` } : {}),
      ...(cell.workspace !== undefined ? { 'x-workspace': String(cell.workspace) } : {}),
      ...(withBody ? { 'content-type': 'application/json' } : {}),
    },
    ...(withBody ? { payload: JSON.stringify(bodyFor(w, p)) } : {}),
  });
}

const messageOf = (body: string): string | undefined => {
  try {
    return (JSON.parse(body) as { message?: string }).message;
  } catch {
    return undefined;
  }
};

// ---------------------------------------------------------------------------------------------------
// tRPC

type ProcedureDef = { _def: { type: string; meta?: ProcedureMeta; inputs: unknown[] } };
const procedures = (appRouter._def as unknown as { procedures: Record<string, ProcedureDef> }).procedures;
const roleProcedures = Object.entries(procedures).filter(([, p]) => p._def.meta?.role);

/** The procedures whose input names a workspace (its settings, a code's new home): the service checks it. */
const namesWorkspace = ([, p]: [string, ProcedureDef]) =>
  p._def.inputs.some((input) => 'workspaceId' in ((input as Partial<ZodObject>).shape ?? {}));

/**
 * What a procedure's `id` names, by router: a code unless listed. A router added tomorrow whose `id` is
 * something else shows up as a 404 of an allowed cell until it is added here.
 */
function idFor(path: string, w: Team): number {
  const byRouter: Record<string, number> = { folders: w.folderId, tokens: w.tokenId };
  return byRouter[path.split('.')[0]!] ?? w.codeId;
}

/** The caller's procedure at a dotted path (`qr.list`), however deep its routers nest. */
function procedureAt(caller: object, path: string): (input: unknown) => Promise<unknown> {
  return path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], caller) as (
    input: unknown,
  ) => Promise<unknown>;
}

async function trpcCall(
  t: TestApp,
  path: string,
  user: UserRow,
  input: unknown,
  workspaceId?: number,
): Promise<{ status: number; message?: string }> {
  const caller = callerFor(t, user, workspaceId === undefined ? {} : { workspaceId });
  try {
    await procedureAt(caller, path)(input);
    return { status: 200 };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return { status: getHTTPStatusCodeFromError(error), message: error.message };
  }
}

// ---------------------------------------------------------------------------------------------------

describeEachDb('the authorization matrix of workspace roles', (getDb) => {
  const t = useTestApp(getDb);

  it(
    'every REST route with a role × {non-member, viewer, editor, admin, owner}, by session and by token',
    { timeout: 120_000 },
    async () => {
      const p = await people(t());
      const shared = await team(t(), p);
      const failures: string[] = [];
      let cells = 0;
      const fresh = teamSupply(t(), p);
      const check = async (route: AnyRestRoute, who: string, want: Expected, cell: (w: Team) => RestCell) => {
        const w = mayChange(route, want) ? await fresh.take() : shared;
        const res = await restCall(t(), route, w, p, cell(w));
        cells += 1;
        const wrong = verdict(want, res.statusCode, messageOf(res.body));
        if (wrong)
          failures.push(
            `${wrong} — ${route.method} ${route.path} as ${who}: ${res.statusCode} ${res.body.slice(0, 160)}`,
          );
      };
      const cookieOf = (member: Member) =>
        member === 'non-member' ? p.stranger.cookie : p.byRole[member].cookie;

      for (const route of roleRoutes) {
        const needed = route.role!;
        for (const member of members) {
          // The team asked for by X-Workspace: the adapter checks the role before anything else.
          await check(route, `${member} (X-Workspace)`, expected(needed, member), (w) => ({
            cookie: cookieOf(member),
            workspace: w.id,
          }));
        }
      }
      for (const route of workspaceRoutes) {
        const needed = route.role!;
        for (const member of members) {
          // No X-Workspace: the request acts on the caller's own workspace, where everyone is owner; the
          // team the path names must still be refused by the service below the role.
          await check(route, `${member} (no X-Workspace)`, expected(needed, member), () => ({
            cookie: cookieOf(member),
          }));
        }
      }
      for (const route of tokenRoutes) {
        const needed = route.role!;
        // A token acts on the team it was made in, without any header, with its maker's role there.
        await check(route, "the owner's team token", expected(needed, 'owner'), (w) => ({
          bearer: w.ownerToken,
        }));
        await check(route, "the viewer's team token", expected(needed, 'viewer'), (w) => ({
          bearer: w.viewerToken,
        }));
        // And on no other, not even its maker's own workspace.
        await check(
          route,
          "the owner's team token asking for the owner's own workspace",
          { status: 403, message: workspaceMessages.tokenWorkspace },
          (w) => ({ bearer: w.ownerToken, workspace: p.byRole.owner.row.id }),
        );
      }

      // The token's team is the one it answers, and naming that same team is no refusal.
      const current = tokenRoutes.find((r) => r.method === 'GET' && r.path === '/api/workspaces/current');
      expect(current, 'GET /api/workspaces/current takes a token').toBeDefined();
      for (const workspace of [undefined, shared.id]) {
        const res = await restCall(t(), current!, shared, p, { bearer: shared.ownerToken, workspace });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<{ id: number; role: string }>()).toMatchObject({ id: shared.id, role: 'owner' });
      }

      console.log(
        `workspace roles: ${cells} REST cells (${roleRoutes.length} routes × ${members.length} members, ` +
          `${workspaceRoutes.length} workspace paths without X-Workspace, ${tokenRoutes.length} × 3 token cells; ` +
          `${fresh.count()} fresh teams)`,
      );
      await fresh.close();
      expect(failures).toEqual([]);
    },
  );

  it(
    'every tRPC procedure with a role × {non-member, viewer, editor, admin, owner}',
    { timeout: 120_000 },
    async () => {
      expect(roleProcedures.length).toBeGreaterThan(0);
      const p = await people(t());
      const shared = await team(t(), p);
      const userOf = (member: Member) => (member === 'non-member' ? p.stranger.row : p.byRole[member].row);
      const failures: string[] = [];
      let cells = 0;
      const fresh = teamSupply(t(), p);

      for (const [path, procedure] of roleProcedures) {
        const needed = procedure._def.meta!.role!;
        for (const member of members) {
          const want = expected(needed, member);
          // A mutation that goes through may change its team: it gets a fresh one.
          const changes = procedure._def.type === 'mutation' && allowed(want);
          const w = changes ? await fresh.take() : shared;
          const out = await trpcCall(t(), path, userOf(member), bodyFor(w, p, idFor(path, w)), w.id);
          cells += 1;
          const wrong = verdict(want, out.status, out.message);
          if (wrong) failures.push(`${wrong} — ${path} as ${member}: ${out.status} ${out.message ?? ''}`);
        }
      }
      // The procedures whose input names the team, called from the caller's own workspace (where they are
      // owner): the team named is what is checked, by the service.
      for (const [path, procedure] of roleProcedures.filter(namesWorkspace)) {
        const needed = procedure._def.meta!.role!;
        for (const member of members) {
          const want = expected(needed, member);
          if (allowed(want)) continue;
          const out = await trpcCall(t(), path, userOf(member), bodyFor(shared, p, idFor(path, shared)));
          cells += 1;
          const wrong = verdict(want, out.status, out.message);
          if (wrong)
            failures.push(
              `${wrong} — ${path} as ${member} from their own workspace: ${out.status} ${out.message}`,
            );
        }
      }
      console.log(
        `workspace roles: ${cells} tRPC cells (${roleProcedures.length} procedures × ${members.length} members, ` +
          `${roleProcedures.filter(namesWorkspace).length} named by their input from the caller's own workspace; ` +
          `${fresh.count()} fresh teams)`,
      );
      await fresh.close();
      expect(failures).toEqual([]);
    },
  );
});

/**
 * What a workspace holds is reached only by declaring a role: the matrix above then checks it. The person's
 * own things (their account, sign-in, sessions, their list of workspaces and invitations) and the admin
 * area are the exceptions, by router.
 */
describe('the workspace roles cover the table', () => {
  it('every route whose `:id` names a thing of a workspace declares a role', () => {
    const workspaceThings: PathObject[] = [
      'qrCode',
      'folder',
      'upload',
      'apiToken',
      'workspace',
      'linkImport',
      'webhook',
      'analyticsShare',
    ];
    const undeclared = restRoutes.filter((r) => r.object && workspaceThings.includes(r.object) && !r.role);
    expect(undeclared.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    // A role only means something to a signed-in caller with a workspace.
    expect(roleRoutes.filter((r) => r.access !== 'user').map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('every signed-in procedure outside the account, sign-in and admin routers declares a role', () => {
    const personRouters = ['auth', 'account', 'twoFactor', 'admin'];
    // The person's own side of workspaces: which they are in, which they switch to, the teams they
    // start, the invitations they answer.
    const personProcedures = [
      'workspaces.list',
      'workspaces.switch',
      'workspaces.create',
      'workspaces.myInvitations',
      'workspaces.invitationByToken',
      'workspaces.accept',
      'workspaces.decline',
    ];
    const undeclared = Object.entries(procedures)
      .filter(([, p]) => p._def.meta?.access === 'user' && !p._def.meta.role)
      .map(([path]) => path)
      .filter((path) => !personRouters.includes(path.split('.')[0]!) && !personProcedures.includes(path));
    expect(undeclared).toEqual([]);
  });
});
