import { describe, expect, it } from 'vitest';
import type { DeletionImpact } from '../../../src/admin/admin.schema.js';
import type { UserRow } from '../../db/database.js';
import { insertFolderRow, insertQrRow, insertScans } from '../../test/fixtures.js';
import {
  call,
  callerFor,
  expectRestError,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { createToken } from '../tokens/tokens.service.js';
import { toUser } from '../users/users.mapper.js';
import { insertMember } from '../workspaces/workspaces.repository.js';

// Deleting a person never deletes a team's codes: a team another member owns keeps everything, a team
// they alone own with no code goes with them, and one they alone own with codes refuses the deletion.

async function teamOf(t: TestApp, owner: UserRow, name: string): Promise<number> {
  return (await callerFor(t, owner).workspaces.create({ name })).id;
}

async function member(t: TestApp, teamId: number, user: UserRow, role: string) {
  await insertMember(t.db, teamId, user.id, role, new Date().toISOString());
}

const count = async (t: TestApp, table: 'users' | 'qr_codes' | 'workspace_members' | 'folders') =>
  countRows(t.db, table);

describeEachDb('deleting a person who works in teams', (getDb) => {
  const t = useTestApp(getDb);

  describe('GET /api/admin/users/{id}/deletion-impact', () => {
    it('says which teams are kept, which go with them and which block the deletion', async () => {
      const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
      const { user: ada } = await signedInUser(t(), 'ada');
      const { user: bob } = await signedInUser(t(), 'bob');
      const shared = await teamOf(t(), ada, 'Shared');
      await member(t(), shared, bob, 'owner');
      await insertQrRow(t().db, { userId: shared });
      const joined = await teamOf(t(), bob, 'Joined');
      await member(t(), joined, ada, 'editor');
      await insertQrRow(t().db, { userId: joined });
      await insertQrRow(t().db, { userId: joined });
      const empty = await teamOf(t(), ada, 'Empty');
      await member(t(), empty, bob, 'admin');
      const menus = await teamOf(t(), ada, 'Menus');
      await insertQrRow(t().db, { userId: menus });
      await insertQrRow(t().db, { userId: menus });
      await insertQrRow(t().db, { userId: menus });
      await insertQrRow(t().db, { userId: ada.id });

      const res = await call(t().app, 'GET', `/api/admin/users/${ada.id}/deletion-impact`, { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json<DeletionImpact>()).toEqual({
        qrCodes: 1,
        scans: 0,
        folders: 0,
        teamsKept: [
          { id: joined, name: 'Joined', qrCodeCount: 2 },
          { id: shared, name: 'Shared', qrCodeCount: 1 },
        ],
        teamsDeleted: [{ id: empty, name: 'Empty' }],
        blockingTeams: [{ id: menus, name: 'Menus', qrCodeCount: 3 }],
      });
    });
  });

  describe('DELETE /api/admin/users/{id}', () => {
    it('is refused while they alone own a team with codes, naming the team, and changes nothing', async () => {
      const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
      const { user: ada } = await signedInUser(t(), 'ada');
      const { user: bob } = await signedInUser(t(), 'bob');
      const menus = await teamOf(t(), ada, 'Menus');
      await member(t(), menus, bob, 'editor');
      await insertQrRow(t().db, { userId: menus });
      await insertQrRow(t().db, { userId: menus });
      const single = await teamOf(t(), ada, 'Posters');
      await insertQrRow(t().db, { userId: single });
      await teamOf(t(), ada, 'Empty');
      const before = {
        users: await count(t(), 'users'),
        codes: await count(t(), 'qr_codes'),
        members: await count(t(), 'workspace_members'),
      };

      const res = await call(t().app, 'DELETE', `/api/admin/users/${ada.id}`, { cookie });
      expect(expectRestError(res, 409, 'LAST_OWNER').message).toBe(
        'Menus has 2 QR codes and no other owner, Posters has 1 QR code and no other owner: make another member owner first',
      );
      expect({
        users: await count(t(), 'users'),
        codes: await count(t(), 'qr_codes'),
        members: await count(t(), 'workspace_members'),
      }).toEqual(before);
      expect(await t().db.selectFrom('audit_log').select('action').execute()).toEqual([]);
    });

    it('once another member owns the team, deletes them and the team codes keep redirecting', async () => {
      const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
      const { user: ada } = await signedInUser(t(), 'ada');
      const { user: bob } = await signedInUser(t(), 'bob');
      const menus = await teamOf(t(), ada, 'Menus');
      await member(t(), menus, bob, 'editor');
      // A code of the team (it belongs to the team's account, whoever made it).
      const teamCode = await insertQrRow(t().db, {
        userId: menus,
        isDynamic: true,
        content: 'https://example.com/dinner',
      });
      await insertScans(t().db, teamCode.id, 2);
      const personal = await insertQrRow(t().db, { userId: ada.id, isDynamic: true });
      await createToken(t().deps, toUser(ada), { name: 'ci', scope: 'read' });

      expectRestError(
        await call(t().app, 'DELETE', `/api/admin/users/${ada.id}`, { cookie }),
        409,
        'LAST_OWNER',
      );
      await callerFor(t(), ada).workspaces.changeRole({ workspaceId: menus, userId: bob.id, role: 'owner' });

      const res = await call(t().app, 'DELETE', `/api/admin/users/${ada.id}`, { cookie });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'User ada deleted',
        deleted: { teamsKept: [{ id: menus, name: 'Menus' }], teamsDeleted: [], blockingTeams: [] },
      });

      const redirect = await call(t().app, 'GET', `/r/${teamCode.slug}`);
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toBe('https://example.com/dinner');
      // Her personal code went with her.
      expect((await call(t().app, 'GET', `/r/${personal.slug}`)).statusCode).toBe(404);
      expect(await t().db.selectFrom('scan_code_days').select('qr_code_id').distinct().execute()).toEqual([
        { qr_code_id: teamCode.id },
      ]);
      // Bob still works in the team, as its owner; Ada's membership, sessions and tokens are gone.
      expect(
        await t().db.selectFrom('workspace_members').select(['workspace_id', 'user_id', 'role']).execute(),
      ).toEqual([{ workspace_id: menus, user_id: bob.id, role: 'owner' }]);
      expect(await t().db.selectFrom('api_tokens').select('id').execute()).toEqual([]);
      const team = await callerFor(t(), bob).workspaces.get({ workspaceId: menus });
      expect(team).toMatchObject({ name: 'Menus', role: 'owner', memberCount: 1 });
      // Her part in the team's history keeps her name.
      const activity = await callerFor(t(), bob).workspaces.activity({ workspaceId: menus });
      expect(activity.items.some((i) => i.actor.username === 'ada' && i.actor.id === null)).toBe(true);
    });

    it('deletes the teams they alone own that hold no code, members and all; other teams lose only them', async () => {
      const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
      const { user: ada } = await signedInUser(t(), 'ada');
      const { user: bob } = await signedInUser(t(), 'bob');
      const empty = await teamOf(t(), ada, 'Empty');
      await member(t(), empty, bob, 'editor');
      await insertFolderRow(t().db, empty);
      // Bob had it open in the switcher: he falls back to his own.
      await t()
        .db.updateTable('users')
        .set({ current_workspace_id: empty })
        .where('id', '=', bob.id)
        .execute();
      const kept = await teamOf(t(), bob, 'Kept');
      await member(t(), kept, ada, 'admin');

      const res = await call(t().app, 'DELETE', `/api/admin/users/${ada.id}`, { cookie });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ deleted: DeletionImpact }>().deleted).toMatchObject({
        teamsDeleted: [{ id: empty, name: 'Empty' }],
        teamsKept: [{ id: kept, name: 'Kept', qrCodeCount: 0 }],
      });
      const users = await t()
        .db.selectFrom('users')
        .select(['id', 'current_workspace_id'])
        .orderBy('id')
        .execute();
      expect(users.map((u) => u.id)).not.toContain(empty);
      expect(users.map((u) => u.id)).not.toContain(ada.id);
      expect(users.find((u) => u.id === bob.id)?.current_workspace_id).toBeNull();
      expect(await countRows(t().db, 'folders')).toBe(0);
      expect(
        await t().db.selectFrom('workspace_members').select(['workspace_id', 'user_id']).execute(),
      ).toEqual([{ workspace_id: kept, user_id: bob.id }]);
      const entry = await t()
        .db.selectFrom('audit_log')
        .select(['action', 'target_label', 'before'])
        .where('action', '=', 'user.delete')
        .executeTakeFirstOrThrow();
      expect(entry.target_label).toBe('ada');
      expect(JSON.stringify(entry.before)).toContain('Empty');
    });
  });
});
