import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { AdminWorkspaceListInput, AuditEntry } from '../../../src/admin/admin.schema.js';
import { adminMessages } from '../../../src/admin/admin.schema.js';
import type { AdminWorkspace } from '../../../src/workspaces/workspace.schema.js';
import { workspaceMessages } from '../../../src/workspaces/workspace.schema.js';
import type { UserRow } from '../../db/database.js';
import { insertQrRow } from '../../test/fixtures.js';
import {
  call,
  callerFor,
  expectRestError,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { createToken } from '../tokens/tokens.service.js';
import { toUser } from '../users/users.mapper.js';
import { insertMember } from '../workspaces/workspaces.repository.js';
import { listAdminWorkspaces } from './admin-workspaces.service.js';

const DAY = 86_400_000;

async function admin(t: TestApp) {
  return signedInUser(t, 'root', { isAdmin: true });
}

async function teamOf(t: TestApp, owner: UserRow, name: string): Promise<number> {
  return (await callerFor(t, owner).workspaces.create({ name })).id;
}

async function member(t: TestApp, teamId: number, user: UserRow, role: string) {
  await insertMember(t.db, teamId, user.id, role, new Date().toISOString());
}

async function codes(t: TestApp, accountId: number, n: number) {
  for (let i = 0; i < n; i++) await insertQrRow(t.db, { userId: accountId });
}

async function auditEntries(t: TestApp): Promise<AuditEntry[]> {
  const { cookie } = await signedInUser(t, `auditor${Date.now()}`, { isAdmin: true });
  return (await call(t.app, 'GET', '/api/admin/audit-log?pageSize=100', { cookie })).json<{
    entries: AuditEntry[];
  }>().entries;
}

/** Every admin path about one team workspace, with a body that would succeed. */
const workspacePaths = (id: number) =>
  [
    ['GET', `/api/admin/workspaces/${id}`, undefined],
    ['POST', `/api/admin/workspaces/${id}/subscription/upgrade`, { tier: 'pro', duration: 30 }],
    ['POST', `/api/admin/workspaces/${id}/subscription/extend`, { days: 30 }],
    ['POST', `/api/admin/workspaces/${id}/subscription/cancel`, { immediate: true }],
    ['POST', `/api/admin/workspaces/${id}/toggle-unlimited`, undefined],
  ] as const;

describeEachDb('admin workspace paths', (getDb) => {
  const t = useTestApp(getDb);

  describe('who may call', () => {
    it('answers 401 signed out and 403 to a user (even a team owner), and changes nothing', async () => {
      const { user, cookie } = await signedInUser(t(), 'ada');
      const team = await teamOf(t(), user, 'Marketing');
      for (const [method, url, json] of [
        ['GET', '/api/admin/workspaces', undefined],
        ...workspacePaths(team),
      ] as const) {
        expectRestError(await call(t().app, method, url, { json }), 401, 'NOT_SIGNED_IN');
        const res = await call(t().app, method, url, { json, cookie });
        expect(expectRestError(res, 403, 'ADMIN_REQUIRED').message).toBe('Admin access required');
      }
      const row = await t()
        .db.selectFrom('users')
        .selectAll()
        .where('id', '=', team)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ subscription_tier: 'free' });
      expect(Boolean(row.has_unlimited_access)).toBe(false);
    });

    it('answers 404 "Workspace not found" for a person\'s id and an unknown id on every path', async () => {
      const { user, cookie } = await admin(t());
      const { user: ada } = await signedInUser(t(), 'ada');
      for (const id of [ada.id, user.id, 987654]) {
        for (const [method, url, json] of workspacePaths(id)) {
          const res = await call(t().app, method, url, { json, cookie });
          expect(expectRestError(res, 404, 'NOT_FOUND').message, `${method} ${url}`).toBe(
            workspaceMessages.notFound,
          );
        }
      }
      // The person's own plan is not touched by a team path.
      const row = await t()
        .db.selectFrom('users')
        .selectAll()
        .where('id', '=', ada.id)
        .executeTakeFirstOrThrow();
      expect(row.subscription_tier).toBe('free');
    });

    it('refuses a workspace id that is not a number with a 400 naming it', async () => {
      const { cookie } = await admin(t());
      const res = await call(t().app, 'GET', '/api/admin/workspaces/abc', { cookie });
      expect(expectRestError(res, 400).message).toMatch(/Workspace id/);
    });
  });

  describe('GET /api/admin/workspaces', () => {
    it('lists team workspaces with plan, members, codes and owners; never a person', async () => {
      const { cookie } = await admin(t());
      const { user: ada } = await signedInUser(t(), 'ada');
      const { user: bob } = await signedInUser(t(), 'bob');
      const { user: cyd } = await signedInUser(t(), 'cyd');
      const marketing = await teamOf(t(), ada, 'Marketing');
      await member(t(), marketing, bob, 'owner');
      await member(t(), marketing, cyd, 'viewer');
      await codes(t(), marketing, 3);
      const kitchen = await teamOf(t(), cyd, 'Kitchen');
      // Personal codes count for nobody's team.
      await codes(t(), ada.id, 2);

      const res = await call(t().app, 'GET', '/api/admin/workspaces', { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('2');
      const rows = res.json<AdminWorkspace[]>();
      expect(rows.map((r) => r.id).sort()).toEqual([marketing, kitchen].sort());
      expect(rows.find((r) => r.id === marketing)).toEqual({
        id: marketing,
        name: 'Marketing',
        plan: { tier: 'free', status: null, endDate: null, hasUnlimitedAccess: false },
        memberCount: 3,
        qrCodeCount: 3,
        owners: ['ada', 'bob'],
        createdAt: t().clock.now().toISOString(),
      });
      expect(rows.find((r) => r.id === kitchen)).toMatchObject({
        memberCount: 1,
        qrCodeCount: 0,
        owners: ['cyd'],
      });
      expect(res.body).not.toMatch(/team~|password|!team/);
    });

    it("searches the name and the owners' usernames, sorts and pages on the server", async () => {
      const { cookie } = await admin(t());
      const { user: ada } = await signedInUser(t(), 'ada');
      const { user: bob } = await signedInUser(t(), 'bob');
      const { user: zed } = await signedInUser(t(), 'zed_100%');
      const alpha = await teamOf(t(), ada, 'Alpha');
      const beta = await teamOf(t(), bob, 'Beta');
      const gamma = await teamOf(t(), ada, 'Gamma');
      const delta = await teamOf(t(), zed, 'Delta');
      // Bob works in Gamma, but does not own it: a search for him finds only what he owns.
      await member(t(), gamma, bob, 'editor');
      await member(t(), alpha, bob, 'viewer');
      await member(t(), alpha, zed, 'viewer');
      await codes(t(), beta, 4);
      await codes(t(), gamma, 2);
      await codes(t(), delta, 2);

      const get = (query: string) => call(t().app, 'GET', `/api/admin/workspaces?${query}`, { cookie });
      const names = async (query: string) => (await get(query)).json<AdminWorkspace[]>().map((r) => r.name);

      expect(await names('search=ALP')).toEqual(['Alpha']);
      expect(await names('search=ada&sort=name&order=asc')).toEqual(['Alpha', 'Gamma']);
      expect(await names('search=bob')).toEqual(['Beta']);
      expect((await get('search=ada')).headers['x-total-count']).toBe('2');
      // A wildcard typed in the search is a letter.
      expect(await names('search=%25')).toEqual(['Delta']);
      expect(await names('search=_1')).toEqual(['Delta']);
      expect(await names('search=nobody')).toEqual([]);

      expect(await names('sort=name&order=desc')).toEqual(['Gamma', 'Delta', 'Beta', 'Alpha']);
      // Ties in the order asked for, by id.
      expect(await names('sort=qrCodeCount&order=desc')).toEqual(['Beta', 'Delta', 'Gamma', 'Alpha']);
      expect(await names('sort=qrCodeCount&order=asc')).toEqual(['Alpha', 'Gamma', 'Delta', 'Beta']);
      expect(await names('sort=memberCount&order=desc')).toEqual(['Alpha', 'Gamma', 'Delta', 'Beta']);
      expect(await names('sort=memberCount&order=asc')).toEqual(['Beta', 'Delta', 'Gamma', 'Alpha']);
      // Newest first by default.
      expect(await names('')).toEqual(['Delta', 'Gamma', 'Beta', 'Alpha']);
      const page2 = await get('sort=name&order=asc&page=2&pageSize=3');
      expect(page2.json<AdminWorkspace[]>().map((r) => r.name)).toEqual(['Gamma']);
      expect(page2.headers['x-total-count']).toBe('4');
      expect(await names('page=9')).toEqual([]);

      expect(expectRestError(await get('sort=username'), 400).message).toBe(
        'sort: must be one of name, createdAt, qrCodeCount, memberCount',
      );
      expect(expectRestError(await get('pageSize=501'), 400).message).toBe('pageSize: must be at most 500');
      expect(expectRestError(await get('order=up'), 400).message).toBe('order: must be one of asc, desc');
    });

    it('answers in a fixed number of statements whatever the page size (no query per row)', async () => {
      await admin(t());
      const owners = await Promise.all(['ada', 'bob', 'cyd'].map((n) => signedInUser(t(), n)));
      for (let i = 0; i < 12; i++) {
        const owner = owners[i % 3]!.user;
        const team = await teamOf(t(), owner, `Team ${String(i).padStart(2, '0')}`);
        await member(t(), team, owners[(i + 1) % 3]!.user, i % 2 === 0 ? 'owner' : 'editor');
        await codes(t(), team, i % 4);
      }
      let statements = 0;
      // Counted as results come back: one per statement run (a subquery is part of its statement).
      const counting: KyselyPlugin = {
        transformQuery: (args) => args.node,
        transformResult: (args) => {
          statements += 1;
          return Promise.resolve(args.result);
        },
      };
      const deps = { ...t().deps, db: t().db.withPlugin(counting) };
      const counted = async (input: AdminWorkspaceListInput) => {
        statements = 0;
        const page = await listAdminWorkspaces(deps, input);
        return { rows: page.rows.length, total: page.total, statements };
      };
      // The count, the page, its owners.
      expect(await counted({ pageSize: 2, sort: 'qrCodeCount' })).toEqual({
        rows: 2,
        total: 12,
        statements: 3,
      });
      expect(await counted({ pageSize: 50, sort: 'qrCodeCount' })).toEqual({
        rows: 12,
        total: 12,
        statements: 3,
      });
      // A search runs once: its total comes with the page.
      expect(await counted({ pageSize: 2, search: 'a', sort: 'memberCount' })).toEqual({
        rows: 2,
        total: 12,
        statements: 2,
      });
      expect(await counted({ pageSize: 50, search: 'team 1' })).toEqual({ rows: 2, total: 2, statements: 2 });
      // Past the end it is counted apart; an empty page has no owners to read.
      expect(await counted({ pageSize: 5, search: 'a', page: 9 })).toEqual({
        rows: 0,
        total: 12,
        statements: 2,
      });
      expect(await counted({ search: 'nobody' })).toEqual({ rows: 0, total: 0, statements: 1 });
    });

    it('answers the tRPC twin with the page, and takes an admin token', async () => {
      const { user: root } = await admin(t());
      const { user: ada } = await signedInUser(t(), 'ada');
      const team = await teamOf(t(), ada, 'Marketing');
      const page = await callerFor(t(), root).admin.workspaces({ pageSize: 10 });
      expect(page).toMatchObject({ total: 1, page: 1, pageSize: 10, rows: [{ id: team, owners: ['ada'] }] });
      const { token } = await createToken(t().deps, toUser(root), { name: 'ops', scope: 'admin' });
      const res = await call(t().app, 'GET', '/api/admin/workspaces', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<AdminWorkspace[]>().map((r) => r.id)).toEqual([team]);
    });
  });

  describe('GET /api/admin/workspaces/{id}', () => {
    it('answers one team workspace', async () => {
      const { cookie } = await admin(t());
      const { user: ada } = await signedInUser(t(), 'ada');
      const team = await teamOf(t(), ada, 'Marketing');
      await codes(t(), team, 2);
      const res = await call(t().app, 'GET', `/api/admin/workspaces/${team}`, { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json<AdminWorkspace>()).toMatchObject({
        id: team,
        name: 'Marketing',
        memberCount: 1,
        qrCodeCount: 2,
        owners: ['ada'],
      });
    });
  });

  describe("a team's plan", () => {
    it('upgrades, extends, cancels and toggles unlimited codes on the team, never on its owner', async () => {
      const { cookie } = await admin(t());
      const { user: ada } = await signedInUser(t(), 'ada');
      const team = await teamOf(t(), ada, 'Marketing');
      const before = t().clock.now().getTime();

      const up = await call(t().app, 'POST', `/api/admin/workspaces/${team}/subscription/upgrade`, {
        cookie,
        json: { tier: 'premium', duration: 10 },
      });
      expect(up.statusCode, up.body).toBe(200);
      const upgraded = up.json<{ success: boolean; message: string; workspace: AdminWorkspace }>();
      expect(upgraded).toMatchObject({
        success: true,
        message: 'Marketing is on Premium for 10 days',
        workspace: { id: team, plan: { tier: 'premium', status: 'active', hasUnlimitedAccess: false } },
      });
      const end = new Date(upgraded.workspace.plan.endDate!).getTime();
      expect(end).toBe(before + 10 * DAY);

      const extended = await call(t().app, 'POST', `/api/admin/workspaces/${team}/subscription/extend`, {
        cookie,
        json: { days: 5 },
      });
      expect(extended.json()).toMatchObject({
        message: 'Subscription of Marketing extended by 5 days',
        workspace: { plan: { tier: 'premium', endDate: new Date(end + 5 * DAY).toISOString() } },
      });

      // Without a body its defaults apply: canceled at the end of its period.
      const atEnd = await call(t().app, 'POST', `/api/admin/workspaces/${team}/subscription/cancel`, {
        cookie,
      });
      expect(atEnd.json()).toMatchObject({
        message: 'Subscription of Marketing canceled at the end of its period',
        workspace: { plan: { tier: 'premium', status: 'canceled' } },
      });
      const now = await call(t().app, 'POST', `/api/admin/workspaces/${team}/subscription/cancel`, {
        cookie,
        json: { immediate: true },
      });
      expect(now.json()).toMatchObject({
        message: 'Subscription of Marketing canceled: back on Free now',
        workspace: { plan: { tier: 'free', status: 'canceled' } },
      });
      const free = await call(t().app, 'POST', `/api/admin/workspaces/${team}/subscription/extend`, {
        cookie,
        json: { days: 5 },
      });
      expect(expectRestError(free, 400).message).toBe(adminMessages.extendFree);

      const granted = await call(t().app, 'POST', `/api/admin/workspaces/${team}/toggle-unlimited`, {
        cookie,
      });
      expect(granted.json()).toMatchObject({
        message: 'Unlimited access granted to Marketing',
        workspace: { plan: { hasUnlimitedAccess: true } },
      });
      const removed = await call(t().app, 'POST', `/api/admin/workspaces/${team}/toggle-unlimited`, {
        cookie,
      });
      expect(removed.json()).toMatchObject({
        message: 'Unlimited access removed from Marketing',
        workspace: { plan: { hasUnlimitedAccess: false } },
      });

      // The owner's own plan (their personal workspace) is as it was.
      const owner = await t()
        .db.selectFrom('users')
        .selectAll()
        .where('id', '=', ada.id)
        .executeTakeFirstOrThrow();
      expect(owner).toMatchObject({ subscription_tier: 'free', subscription_status: null });
      expect(Boolean(owner.has_unlimited_access)).toBe(false);
      // The workspace as its members see it carries the plan.
      const seen = await callerFor(t(), ada).workspaces.get({ workspaceId: team });
      expect(seen.plan).toMatchObject({ tier: 'free', status: 'canceled', hasUnlimitedAccess: false });

      const entries = (await auditEntries(t())).filter((e) => e.targetType === 'workspace').reverse();
      expect(entries.map((e) => [e.action, e.targetId, e.targetLabel])).toEqual([
        ['subscription.upgrade', String(team), 'Marketing'],
        ['subscription.extend', String(team), 'Marketing'],
        ['subscription.cancel-at-period-end', String(team), 'Marketing'],
        ['subscription.cancel-now', String(team), 'Marketing'],
        ['workspace.toggle-unlimited', String(team), 'Marketing'],
        ['workspace.toggle-unlimited', String(team), 'Marketing'],
      ]);
      expect(entries[0]).toMatchObject({
        actorUsername: 'root',
        before: { subscriptionTier: 'free' },
        after: { subscriptionTier: 'premium', subscriptionStatus: 'active' },
      });
    });

    it('refuses a bad body with a 400 naming the field, before anything changes', async () => {
      const { cookie } = await admin(t());
      const { user: ada } = await signedInUser(t(), 'ada');
      const team = await teamOf(t(), ada, 'Marketing');
      const tier = await call(t().app, 'POST', `/api/admin/workspaces/${team}/subscription/upgrade`, {
        cookie,
        json: { tier: 'gold' },
      });
      expect(expectRestError(tier, 400).message).toBe('Tier must be pro or premium');
      const days = await call(t().app, 'POST', `/api/admin/workspaces/${team}/subscription/upgrade`, {
        cookie,
        json: { tier: 'pro', duration: 400 },
      });
      expect(expectRestError(days, 400).message).toBe('Duration must be between 1 and 365 days');
      const row = await t()
        .db.selectFrom('users')
        .selectAll()
        .where('id', '=', team)
        .executeTakeFirstOrThrow();
      expect(row.subscription_tier).toBe('free');
    });

    it("leaves a person's plan paths acting on that person's personal workspace", async () => {
      const { user: root } = await admin(t());
      const { user: ada } = await signedInUser(t(), 'ada');
      const team = await teamOf(t(), ada, 'Marketing');
      const answer = await callerFor(t(), root).admin.upgrade({ id: ada.id, tier: 'pro', duration: 30 });
      expect(answer).toMatchObject({
        message: 'ada is on Pro for 30 days',
        user: { id: ada.id, subscriptionTier: 'pro' },
      });
      expect((await callerFor(t(), root).admin.workspace({ id: team })).plan.tier).toBe('free');
      await expect(
        callerFor(t(), root).admin.workspaceUpgrade({ id: ada.id, tier: 'pro' }),
      ).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: workspaceMessages.notFound,
      });
      const entries = await auditEntries(t());
      expect(entries.find((e) => e.action === 'subscription.upgrade')).toMatchObject({
        targetType: 'subscription',
        targetLabel: 'ada',
      });
    });
  });
});
