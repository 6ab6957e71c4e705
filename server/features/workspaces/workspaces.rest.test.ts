import { describe, expect, it, vi } from 'vitest';
import type { UserSummary } from '../../../src/analytics/analytics.schema.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import type { Workspace, WorkspaceInvitation } from '../../../src/workspaces/workspace.schema.js';
import { workspaceMessages } from '../../../src/workspaces/workspace.schema.js';
import { insertQrRow } from '../../test/fixtures.js';
import {
  call,
  expectRestError,
  readOutbox,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import type { ScanToStore } from '../scans/rollup-model.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';

const url = { type: 'url', content: 'https://example.com/menu', isDynamic: true, customization: {} };

async function storeScans(t: TestApp, ownerId: number, codeId: number, n: number) {
  const rows: ScanToStore[] = Array.from({ length: n }, (_, i) => ({
    qr_code_id: codeId,
    owner_id: ownerId,
    timestamp: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
    user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/15E148',
    ip_address: '203.0.113.9',
    referrer: null,
    location: 'Berlin, Germany',
    device: 'Mobile',
  }));
  await t.db.transaction().execute((trx) => writeScansWithRollups(trx, rows));
}

/** A team made by Ada, with Eve as editor and Vic as viewer, joined through invitations by username. */
async function team(t: TestApp) {
  const ada = await signedInUser(t, 'ada');
  const eve = await signedInUser(t, 'eve');
  const vic = await signedInUser(t, 'vic');
  const created = await call(t.app, 'POST', '/api/workspaces', {
    cookie: ada.cookie,
    json: { name: 'Marketing' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const ws = created.json<Workspace>();
  for (const [who, role] of [
    [eve, 'editor'],
    [vic, 'viewer'],
  ] as const) {
    const invited = await call(t.app, 'POST', `/api/workspaces/${ws.id}/invitations`, {
      cookie: ada.cookie,
      json: { username: who.user.username, role },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const pending = await call(t.app, 'GET', '/api/invitations', { cookie: who.cookie });
    const [invitation] = pending.json<WorkspaceInvitation[]>();
    expect(invitation).toMatchObject({ workspaceName: 'Marketing', role, invitedBy: 'ada' });
    const accepted = await call(t.app, 'POST', '/api/invitations/accept', {
      cookie: who.cookie,
      json: { invitationId: invitation!.id },
    });
    expect(accepted.json<Workspace>()).toMatchObject({ id: ws.id, kind: 'team', role });
  }
  return { ada, eve, vic, ws, inTeam: { 'x-workspace': String(ws.id) } };
}

describeEachDb('workspaces through the REST paths', (getDb) => {
  const t = useTestApp(getDb);

  it('a new team: the creator owns it, Personal stays first, and the current workspace follows X-Workspace', async () => {
    const { ada, ws, inTeam } = await team(t());
    expect(ws).toMatchObject({
      name: 'Marketing',
      kind: 'team',
      role: 'owner',
      memberCount: 1,
      qrCodeCount: 0,
    });
    const list = (await call(t().app, 'GET', '/api/workspaces', { cookie: ada.cookie })).json<Workspace[]>();
    expect(list.map((w) => [w.name, w.kind, w.role, w.memberCount])).toEqual([
      ['Personal', 'personal', 'owner', 1],
      ['Marketing', 'team', 'owner', 3],
    ]);
    const current = await call(t().app, 'GET', '/api/workspaces/current', { cookie: ada.cookie });
    expect(current.json<Workspace>()).toMatchObject({ id: ada.user.id, kind: 'personal' });
    const inside = await call(t().app, 'GET', '/api/workspaces/current', {
      cookie: ada.cookie,
      headers: inTeam,
    });
    expect(inside.json<Workspace>()).toMatchObject({ id: ws.id, kind: 'team' });
  });

  it('each role sees exactly what it may: the viewer reads and downloads, the editor changes codes, only admins invite', async () => {
    const { ada, eve, vic, ws, inTeam } = await team(t());
    // The editor creates a code in the team: it is the team's, not Eve's.
    const made = await call(t().app, 'POST', '/api/qr-codes', {
      cookie: eve.cookie,
      headers: inTeam,
      json: { name: 'Menu', ...url },
    });
    expect(made.statusCode, made.body).toBe(201);
    const code = made.json<QrCode>();
    expect((await call(t().app, 'GET', '/api/qr-codes', { cookie: eve.cookie })).json<QrCode[]>()).toEqual(
      [],
    );

    // The viewer sees it, its image and analytics, and cannot change anything.
    const seen = await call(t().app, 'GET', '/api/qr-codes', { cookie: vic.cookie, headers: inTeam });
    expect(seen.json<QrCode[]>().map((c) => c.name)).toEqual(['Menu']);
    expect(
      (
        await call(t().app, 'GET', `/api/qr-codes/${code.id}/image?format=png`, {
          cookie: vic.cookie,
          headers: inTeam,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}`, {
          cookie: vic.cookie,
          headers: inTeam,
        })
      ).statusCode,
    ).toBe(200);
    const edit = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
      cookie: vic.cookie,
      headers: inTeam,
      json: { name: 'Mine now' },
    });
    expect(expectRestError(edit, 403).message).toBe(workspaceMessages.roleRequired('editor'));
    expectRestError(
      await call(t().app, 'DELETE', `/api/qr-codes/${code.id}`, { cookie: vic.cookie, headers: inTeam }),
      403,
    );
    expectRestError(
      await call(t().app, 'POST', '/api/folders', {
        cookie: vic.cookie,
        headers: inTeam,
        json: { name: 'X' },
      }),
      403,
    );

    // Only admins and owners invite; the editor's try is refused and nothing is stored.
    const invite = await call(t().app, 'POST', `/api/workspaces/${ws.id}/invitations`, {
      cookie: eve.cookie,
      json: { email: 'zed@example.com', role: 'viewer' },
    });
    expect(expectRestError(invite, 403).message).toBe(workspaceMessages.roleRequired('admin'));
    const pending = await call(t().app, 'GET', `/api/workspaces/${ws.id}/invitations`, {
      cookie: ada.cookie,
    });
    expect(pending.json<WorkspaceInvitation[]>()).toEqual([]);

    // The editor's edit is in the code's history and the team's activity, with who did it.
    await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
      cookie: eve.cookie,
      headers: inTeam,
      json: { content: 'https://example.com/menu2' },
    });
    const feed = await call(t().app, 'GET', `/api/workspaces/${ws.id}/activity`, { cookie: vic.cookie });
    const actions = feed.json<{ items: { action: string; actor: { username: string } }[] }>().items;
    expect(actions.slice(0, 2).map((a) => [a.action, a.actor.username])).toEqual([
      ['code.changed', 'eve'],
      ['code.created', 'eve'],
    ]);
  });

  it("a workspace's own paths check the role in the workspace they name, whichever is current", async () => {
    const { vic, inTeam } = await team(t());
    // Vic is a viewer in Marketing, and owns a team of her own.
    const mine = await call(t().app, 'POST', '/api/workspaces', {
      cookie: vic.cookie,
      json: { name: 'Vic & co' },
    });
    const own = mine.json<Workspace>();
    const renamed = await call(t().app, 'PATCH', `/api/workspaces/${own.id}`, {
      cookie: vic.cookie,
      headers: inTeam,
      json: { name: 'Vic and partners' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<Workspace>()).toMatchObject({ name: 'Vic and partners', role: 'owner' });
  });

  it("a team's plan is the team's: its owner asks the admins for an upgrade, a viewer cannot", async () => {
    const { ada, vic, inTeam } = await team(t());
    await signedInUser(t(), 'root', { isAdmin: true });
    const status = await call(t().app, 'GET', '/api/billing/status', { cookie: vic.cookie, headers: inTeam });
    expect(status.json()).toMatchObject({ tier: 'free', currentCount: 0 });
    const refused = await call(t().app, 'POST', '/api/billing/upgrade-request', {
      cookie: vic.cookie,
      headers: inTeam,
      json: { tier: 'pro' },
    });
    expect(expectRestError(refused, 403).message).toBe(workspaceMessages.roleRequired('owner'));
    const asked = await call(t().app, 'POST', '/api/billing/upgrade-request', {
      cookie: ada.cookie,
      headers: inTeam,
      json: { tier: 'pro' },
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({ success: true, request: null });
    await vi.waitFor(async () => {
      const mails = await readOutbox(t().outbox);
      expect(mails.join('\n')).toContain('ada asks to move the team workspace "Marketing" to the Pro plan.');
    });
    // Ada's own plan is untouched, and nothing waits in the users' request list.
    expect(await t().db.selectFrom('upgrade_requests').selectAll().execute()).toEqual([]);
  });

  it('a stranger asking for the team gets 404, and the team is not in their list', async () => {
    const { ws } = await team(t());
    const mallory = await signedInUser(t(), 'mallory');
    const res = await call(t().app, 'GET', '/api/qr-codes', {
      cookie: mallory.cookie,
      headers: { 'x-workspace': String(ws.id) },
    });
    expect(expectRestError(res, 404).message).toBe(workspaceMessages.notFound);
    expectRestError(
      await call(t().app, 'GET', `/api/workspaces/${ws.id}/members`, { cookie: mallory.cookie }),
      404,
    );
    const bad = await call(t().app, 'GET', '/api/qr-codes', {
      cookie: mallory.cookie,
      headers: { 'x-workspace': 'abc' },
    });
    expect(expectRestError(bad, 400).message).toMatch(/Workspace id must be a number/);
  });

  it("a team's API token acts on the team without a header, and never on another workspace", async () => {
    const { ada, ws, inTeam } = await team(t());
    await insertQrRow(t().db, { userId: ws.id, name: 'Team poster', isDynamic: true });
    await insertQrRow(t().db, { userId: ada.user.id, name: 'My own', isDynamic: true });
    const made = await call(t().app, 'POST', '/api/user/tokens', {
      cookie: ada.cookie,
      headers: inTeam,
      json: { name: 'CI', scope: 'read' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const bearer = { authorization: `Bearer ${made.json<{ token: string }>().token}` };
    const listed = await call(t().app, 'GET', '/api/qr-codes', { headers: bearer });
    expect(listed.json<QrCode[]>().map((c) => c.name)).toEqual(['Team poster']);
    const elsewhere = await call(t().app, 'GET', '/api/qr-codes', {
      headers: { ...bearer, 'x-workspace': String(ada.user.id) },
    });
    expect(expectRestError(elsewhere, 403).message).toBe(workspaceMessages.tokenWorkspace);
    // The team's tokens are listed in the team, not in Ada's own workspace.
    const own = await call(t().app, 'GET', '/api/user/tokens', { cookie: ada.cookie });
    expect(own.json<unknown[]>()).toEqual([]);
  });

  it('moving a code into the team keeps its short link, history and scans', async () => {
    const { eve, ws, inTeam } = await team(t());
    const mine = await call(t().app, 'POST', '/api/qr-codes', {
      cookie: eve.cookie,
      json: { name: 'Flyer', ...url },
    });
    const code = mine.json<QrCode>();
    await storeScans(t(), eve.user.id, code.id, 3);

    const moved = await call(t().app, 'POST', `/api/qr-codes/${code.id}/move-to-workspace`, {
      cookie: eve.cookie,
      json: { workspaceId: ws.id },
    });
    expect(moved.json()).toEqual({ success: true, message: workspaceMessages.moved });
    expect((await call(t().app, 'GET', '/api/qr-codes', { cookie: eve.cookie })).json<QrCode[]>()).toEqual(
      [],
    );
    const there = await call(t().app, 'GET', `/api/qr-codes/${code.id}`, {
      cookie: eve.cookie,
      headers: inTeam,
    });
    expect(there.json<QrCode>().shortUrl).toBe(code.shortUrl);
    const teamStats = await call(t().app, 'GET', '/api/analytics/user', {
      cookie: eve.cookie,
      headers: inTeam,
    });
    expect(teamStats.json<UserSummary>()).toMatchObject({ totalQRCodes: 1, totalScans: 3 });
    const ownStats = await call(t().app, 'GET', '/api/analytics/user', { cookie: eve.cookie });
    expect(ownStats.json<UserSummary>()).toMatchObject({ totalQRCodes: 0, totalScans: 0 });
    // The printed code still works.
    const redirect = await call(t().app, 'GET', new URL(code.shortUrl!).pathname);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('https://example.com/menu');

    const history = await call(t().app, 'GET', `/api/qr-codes/${code.id}/history`, {
      cookie: eve.cookie,
      headers: inTeam,
    });
    expect(history.json<{ kind: string }[]>().map((v) => v.kind)).toEqual(['moved', 'created']);
  });

  it('a viewer cannot move codes into the team, and a code moves only from where it is', async () => {
    const { vic, eve, ws } = await team(t());
    const own = await call(t().app, 'POST', '/api/qr-codes', {
      cookie: vic.cookie,
      json: { name: 'Vic', ...url },
    });
    const res = await call(t().app, 'POST', `/api/qr-codes/${own.json<QrCode>().id}/move-to-workspace`, {
      cookie: vic.cookie,
      json: { workspaceId: ws.id },
    });
    expect(expectRestError(res, 403).message).toBe(workspaceMessages.roleRequired('editor'));
    const notEves = await call(t().app, 'POST', `/api/qr-codes/${own.json<QrCode>().id}/move-to-workspace`, {
      cookie: eve.cookie,
      json: { workspaceId: ws.id },
    });
    expectRestError(notEves, 404);
  });
});

describe('the workspace paths in the API reference', () => {
  it('are documented', async () => {
    const { restRoutes } = await import('../../rest/rest-plugin.js');
    const paths = restRoutes
      .filter((r) => r.path.startsWith('/api/workspaces'))
      .map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('POST /api/workspaces/:id/invitations');
    expect(paths).toContain('GET /api/workspaces/current');
  });
});
