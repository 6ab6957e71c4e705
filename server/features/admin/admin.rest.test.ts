import { describe, expect, it } from 'vitest';
import type { AdminUser, AuditEntry } from '../../../src/admin/admin.schema.js';
import { adminMessages } from '../../../src/admin/admin.schema.js';
import { createToken } from '../tokens/tokens.service.js';
import { toUser } from '../users/users.mapper.js';
import { insertFolderRow, insertQrRow, insertScans, TEST_PASSWORD } from '../../test/fixtures.js';
import {
  call,
  callerFor,
  expectRestError,
  login,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';

const DAY = 86_400_000;

async function admin(t: TestApp) {
  return signedInUser(t, 'root', { isAdmin: true });
}

async function auditActions(t: TestApp): Promise<string[]> {
  const rows = await t.db.selectFrom('audit_log').select('action').orderBy('id').execute();
  return rows.map((r) => r.action);
}

/** Every admin path with a body that would succeed for an admin. */
const paths = (id: number) =>
  [
    ['GET', '/api/admin/users', undefined],
    ['POST', '/api/admin/users', { username: 'newbie', password: 'secret1' }],
    ['PUT', `/api/admin/users/${id}`, { name: 'Renamed' }],
    ['POST', `/api/admin/users/${id}/reset-password`, { newPassword: 'another1' }],
    ['DELETE', `/api/admin/users/${id}`, undefined],
    ['POST', `/api/admin/users/${id}/toggle-unlimited`, undefined],
    ['GET', '/api/admin/subscriptions', undefined],
    ['POST', `/api/admin/users/${id}/subscription/upgrade`, { tier: 'pro', duration: 30 }],
    ['POST', `/api/admin/users/${id}/subscription/cancel`, { immediate: true }],
    ['POST', `/api/admin/users/${id}/subscription/extend`, { days: 30 }],
    ['GET', `/api/admin/users/${id}/deletion-impact`, undefined],
    ['GET', '/api/admin/stats', undefined],
    ['GET', '/api/admin/notices', undefined],
    ['GET', '/api/admin/mails', undefined],
    ['GET', '/api/admin/settings', undefined],
    ['PUT', '/api/admin/settings', { freePlanLimit: 5 }],
    ['GET', '/api/admin/audit-log', undefined],
  ] as const;

describeEachDb('admin REST paths', (getDb) => {
  const t = useTestApp(getDb);

  describe('who may call', () => {
    it('answers 401 signed out and 403 to a user, for every admin path, and changes nothing', async () => {
      const { user, cookie } = await signedInUser(t(), 'ada');
      for (const [method, url, json] of paths(user.id)) {
        expectRestError(await call(t().app, method, url, { json }), 401, 'NOT_SIGNED_IN');
        const res = await call(t().app, method, url, { json, cookie });
        expect(expectRestError(res, 403, 'ADMIN_REQUIRED').message).toBe('Admin access required');
      }
      expect(await countRows(t().db, 'users')).toBe(1);
      expect(await auditActions(t())).toEqual([]);
    });

    it('answers 404 for an unknown user id on every path that takes one', async () => {
      const { cookie } = await admin(t());
      for (const [method, url, json] of paths(987654)) {
        if (!url.includes('987654')) continue;
        const res = await call(t().app, method, url, { json, cookie });
        expect(expectRestError(res, 404, 'NOT_FOUND').message).toBe(adminMessages.userNotFound);
      }
    });

    it('refuses an id that is not a number with a 400 naming it', async () => {
      const { cookie } = await admin(t());
      const res = await call(t().app, 'PUT', '/api/admin/users/abc', { json: { name: 'x' }, cookie });
      expect(expectRestError(res, 400).message).toMatch(/User id/);
    });
  });

  describe('GET /api/admin/users', () => {
    it('lists users with qrCodeCount and subscription fields, never a password hash', async () => {
      const { cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada', { subscriptionTier: 'pro' });
      await insertQrRow(t().db, { userId: user.id });
      await insertQrRow(t().db, { userId: user.id });
      const res = await call(t().app, 'GET', '/api/admin/users', { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('2');
      const rows = res.json<AdminUser[]>();
      const ada = rows.find((r) => r.username === 'ada')!;
      expect(ada).toMatchObject({
        qrCodeCount: 2,
        subscriptionTier: 'pro',
        isAdmin: false,
        twoFactorEnabled: false,
      });
      expect(rows.find((r) => r.username === 'root')).toMatchObject({ qrCodeCount: 0, isAdmin: true });
      expect(res.body).not.toMatch(/argon2|password/);
    });

    it('searches, sorts and pages on the server', async () => {
      const { cookie } = await admin(t());
      for (const name of ['carol', 'alice', 'bob', 'alina']) await signedInUser(t(), name);
      const search = await call(t().app, 'GET', '/api/admin/users?search=AL&sort=username&order=asc', {
        cookie,
      });
      expect(search.json<AdminUser[]>().map((u) => u.username)).toEqual(['alice', 'alina']);
      expect(search.headers['x-total-count']).toBe('2');
      const page2 = await call(t().app, 'GET', '/api/admin/users?sort=username&order=asc&page=2&pageSize=2', {
        cookie,
      });
      expect(page2.json<AdminUser[]>().map((u) => u.username)).toEqual(['bob', 'carol']);
      expect(page2.headers['x-total-count']).toBe('5');
      // A wildcard typed in the search is a letter.
      const literal = await call(t().app, 'GET', '/api/admin/users?search=%25', { cookie });
      expect(literal.json()).toEqual([]);
      const bad = await call(t().app, 'GET', '/api/admin/users?pageSize=501', { cookie });
      expect(expectRestError(bad, 400).message).toBe('pageSize: must be at most 500');
    });
  });

  describe('POST /api/admin/users', () => {
    it('creates a user who can sign in, and writes the audit log', async () => {
      const { cookie } = await admin(t());
      const res = await call(t().app, 'POST', '/api/admin/users', {
        cookie,
        json: {
          username: 'grace',
          password: 'hopper1',
          name: 'Grace Hopper',
          email: 'grace@example.com',
          isAdmin: false,
        },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json<AdminUser>()).toMatchObject({
        username: 'grace',
        name: 'Grace Hopper',
        qrCodeCount: 0,
      });
      expect((await login(t().app, 'grace', 'hopper1')).statusCode).toBe(200);
      expect(await auditActions(t())).toEqual(['user.create']);
    });

    it('requires username and password, and refuses a taken username with 409', async () => {
      const { cookie } = await admin(t());
      const noName = await call(t().app, 'POST', '/api/admin/users', {
        cookie,
        json: { password: 'secret1' },
      });
      expect(expectRestError(noName, 400).message).toBe('Username is required');
      const noPassword = await call(t().app, 'POST', '/api/admin/users', {
        cookie,
        json: { username: 'grace' },
      });
      expect(expectRestError(noPassword, 400).message).toBe('Password is required');
      const empty = await call(t().app, 'POST', '/api/admin/users', {
        cookie,
        json: { username: 'grace', password: '' },
      });
      expect(expectRestError(empty, 400).message).toBe('Password is required');
      const taken = await call(t().app, 'POST', '/api/admin/users', {
        cookie,
        json: { username: 'ROOT', password: 'secret1' },
      });
      expect(expectRestError(taken, 409).message).toBe(adminMessages.usernameTaken);
      expect(await countRows(t().db, 'users')).toBe(1);
    });
  });

  describe('PUT /api/admin/users/{id}', () => {
    it('edits username, name, email and isAdmin, and records before and after', async () => {
      const { cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada');
      const res = await call(t().app, 'PUT', `/api/admin/users/${user.id}`, {
        cookie,
        json: {
          username: 'ada2',
          name: 'Ada L',
          email: 'ada@example.com',
          isAdmin: true,
          subscriptionTier: 'premium',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<AdminUser>()).toMatchObject({
        username: 'ada2',
        name: 'Ada L',
        email: 'ada@example.com',
        isAdmin: true,
        subscriptionTier: 'free',
      });
      const audit = await call(t().app, 'GET', '/api/admin/audit-log', { cookie });
      const [entry] = audit.json<{ entries: AuditEntry[] }>().entries;
      expect(entry).toMatchObject({
        actorUsername: 'root',
        action: 'user.update',
        targetId: String(user.id),
        before: { username: 'ada', isAdmin: false },
        after: { username: 'ada2', isAdmin: true },
      });
    });

    it('refuses a taken username with 409 and an admin demoting themselves', async () => {
      const { user: root, cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada');
      await signedInUser(t(), 'bob');
      const taken = await call(t().app, 'PUT', `/api/admin/users/${user.id}`, {
        cookie,
        json: { username: 'Bob' },
      });
      expect(expectRestError(taken, 409).message).toBe(adminMessages.usernameTaken);
      const self = await call(t().app, 'PUT', `/api/admin/users/${root.id}`, {
        cookie,
        json: { isAdmin: false },
      });
      expect(expectRestError(self, 400).message).toBe(adminMessages.notDemoteYourself);
      const row = await t()
        .db.selectFrom('users')
        .select('is_admin')
        .where('id', '=', root.id)
        .executeTakeFirstOrThrow();
      expect(Boolean(row.is_admin)).toBe(true);
    });
  });

  describe('POST /api/admin/users/{id}/reset-password', () => {
    it("sets a new password and ends the user's sessions", async () => {
      const { cookie } = await admin(t());
      const { user, cookie: userCookie } = await signedInUser(t(), 'ada');
      const res = await call(t().app, 'POST', `/api/admin/users/${user.id}/reset-password`, {
        cookie,
        json: { newPassword: 'brand-new' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true });
      expect((await call(t().app, 'GET', '/api/user', { cookie: userCookie })).statusCode).toBe(401);
      expect((await login(t().app, 'ada', TEST_PASSWORD)).statusCode).toBe(401);
      expect((await login(t().app, 'ada', 'brand-new')).statusCode).toBe(200);
    });

    it('refuses an empty or short password', async () => {
      const { cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada');
      const empty = await call(t().app, 'POST', `/api/admin/users/${user.id}/reset-password`, {
        cookie,
        json: { newPassword: '' },
      });
      expect(expectRestError(empty, 400).message).toBe('New password is required');
      const short = await call(t().app, 'POST', `/api/admin/users/${user.id}/reset-password`, {
        cookie,
        json: { newPassword: '12345' },
      });
      expect(expectRestError(short, 400).message).toBe('Password must be at least 6 characters');
    });

    it('turns two-factor sign-in off only when the admin says so', async () => {
      const { cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada');
      await t()
        .db.updateTable('users')
        .set({ totp_secret: 'JBSWY3DPEHPK3PXP', totp_enabled: true })
        .where('id', '=', user.id)
        .execute();
      await call(t().app, 'POST', `/api/admin/users/${user.id}/reset-password`, {
        cookie,
        json: { newPassword: 'brand-new' },
      });
      let row = await t()
        .db.selectFrom('users')
        .select('totp_enabled')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Boolean(row.totp_enabled)).toBe(true);
      const res = await call(t().app, 'POST', `/api/admin/users/${user.id}/reset-password`, {
        cookie,
        json: { newPassword: 'brand-new2', clearTwoFactor: true },
      });
      expect(res.json<{ message: string }>().message).toMatch(/two-factor sign-in turned off/);
      row = await t()
        .db.selectFrom('users')
        .select('totp_enabled')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Boolean(row.totp_enabled)).toBe(false);
      const signIn = await login(t().app, 'ada', 'brand-new2');
      expect(signIn.json()).not.toHaveProperty('requiresTwoFactor');
    });
  });

  describe('DELETE /api/admin/users/{id}', () => {
    it('says what goes with a user, then deletes them with every row of theirs', async () => {
      const { cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada');
      const { user: bob } = await signedInUser(t(), 'bob');
      const folder = await insertFolderRow(t().db, user.id);
      const code = await insertQrRow(t().db, { userId: user.id, folderId: folder.id });
      await insertScans(t().db, code.id, 3);
      await createToken(t().deps, toUser(user), { name: 'ci', scope: 'read' });
      const kept = await insertQrRow(t().db, { userId: bob.id });
      await insertScans(t().db, kept.id, 2);
      const impact = await call(t().app, 'GET', `/api/admin/users/${user.id}/deletion-impact`, { cookie });
      expect(impact.json()).toEqual({
        qrCodes: 1,
        scans: 3,
        folders: 1,
        teamsKept: [],
        teamsDeleted: [],
        blockingTeams: [],
      });

      const res = await call(t().app, 'DELETE', `/api/admin/users/${user.id}`, { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, deleted: { qrCodes: 1, scans: 3, folders: 1 } });
      for (const table of [
        'qr_codes',
        'qr_scans',
        'scan_code_days',
        'scan_user_quarters',
        'scan_code_quarters',
      ] as const) {
        const owned = await t().db.selectFrom(table).selectAll().execute();
        expect(owned.length, table).toBeGreaterThan(0); // bob's rows stay
      }
      expect(await t().db.selectFrom('qr_codes').select('user_id').execute()).toEqual([{ user_id: bob.id }]);
      expect(await countRows(t().db, 'qr_scans')).toBe(2);
      expect(await countRows(t().db, 'folders')).toBe(0);
      const sessions = await t()
        .db.selectFrom('sessions')
        .select('user_id')
        .where('user_id', '=', user.id)
        .execute();
      expect(sessions).toEqual([]);
      expect(
        await t()
          .db.selectFrom('scan_user_quarters')
          .select('user_id')
          .where('user_id', '=', user.id)
          .execute(),
      ).toEqual([]);
      expect(await countRows(t().db, 'api_tokens')).toBe(0);
      expect(await auditActions(t())).toEqual(['token.created', 'user.delete']);
    });

    it('never deletes the caller (nor so the last admin)', async () => {
      const { user: root, cookie } = await admin(t());
      const res = await call(t().app, 'DELETE', `/api/admin/users/${root.id}`, { cookie });
      expect(expectRestError(res, 400).message).toBe(adminMessages.notYourself);
      expect(await countRows(t().db, 'users')).toBe(1);
    });
  });

  describe('POST /api/admin/users/{id}/toggle-unlimited', () => {
    it('grants, then removes, and the answer says which', async () => {
      const { cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada');
      const on = await call(t().app, 'POST', `/api/admin/users/${user.id}/toggle-unlimited`, { cookie });
      expect(on.json()).toMatchObject({
        message: 'Unlimited access granted to ada',
        user: { hasUnlimitedAccess: true },
      });
      const off = await call(t().app, 'POST', `/api/admin/users/${user.id}/toggle-unlimited`, { cookie });
      expect(off.json()).toMatchObject({
        message: 'Unlimited access removed from ada',
        user: { hasUnlimitedAccess: false },
      });
    });
  });

  describe('subscriptions', () => {
    it('upgrades for a duration (30 days by default), extends, and cancels at period end or now', async () => {
      const { cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada');
      const now = t().clock.now().getTime();
      const up = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/upgrade`, {
        cookie,
        json: { tier: 'premium' },
      });
      expect(up.statusCode).toBe(200);
      const upgraded = up.json<{ user: AdminUser }>().user;
      expect(upgraded).toMatchObject({ subscriptionTier: 'premium', subscriptionStatus: 'active' });
      expect(Date.parse(upgraded.subscriptionEndDate!)).toBe(now + 30 * DAY);

      const ext = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/extend`, {
        cookie,
        json: { days: 10 },
      });
      expect(Date.parse(ext.json<{ user: AdminUser }>().user.subscriptionEndDate!)).toBe(now + 40 * DAY);

      const later = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/cancel`, {
        cookie,
        json: { immediate: false },
      });
      expect(later.json<{ user: AdminUser }>().user).toMatchObject({
        subscriptionTier: 'premium',
        subscriptionStatus: 'canceled',
      });
      const nowCancel = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/cancel`, {
        cookie,
        json: { immediate: true },
      });
      expect(nowCancel.json<{ user: AdminUser }>().user).toMatchObject({
        subscriptionTier: 'free',
        subscriptionStatus: 'canceled',
      });
      expect(await auditActions(t())).toEqual([
        'subscription.upgrade',
        'subscription.extend',
        'subscription.cancel-at-period-end',
        'subscription.cancel-now',
      ]);
      const list = await call(t().app, 'GET', '/api/admin/subscriptions', { cookie });
      expect(list.json<AdminUser[]>().find((u) => u.id === user.id)).toMatchObject({
        subscriptionTier: 'free',
      });
    });

    it('refuses durations outside 1–365 days, an unknown tier, and cancelling or extending Free', async () => {
      const { cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada');
      for (const duration of [0, 366, 'soon', 1.5]) {
        const res = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/upgrade`, {
          cookie,
          json: { tier: 'pro', duration },
        });
        expect(expectRestError(res, 400).message).toMatch(/^Duration must be/);
      }
      const tier = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/upgrade`, {
        cookie,
        json: { tier: 'gold' },
      });
      expect(expectRestError(tier, 400).message).toBe('Tier must be pro or premium');
      const days = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/extend`, {
        cookie,
        json: { days: 400 },
      });
      expect(expectRestError(days, 400).message).toBe('Days must be between 1 and 365 days');
      const cancel = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/cancel`, {
        cookie,
        json: { immediate: true },
      });
      expect(expectRestError(cancel, 400).message).toBe(adminMessages.cancelFree);
      const extend = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/extend`, {
        cookie,
        json: {},
      });
      expect(expectRestError(extend, 400).message).toBe(adminMessages.extendFree);
      expect(await auditActions(t())).toEqual([]);
    });
  });

  describe('an expired plan', () => {
    it('falls back to the free limit for new codes while every existing code keeps redirecting and stays editable', async () => {
      const { cookie: adminCookie } = await admin(t());
      const { user, cookie } = await signedInUser(t(), 'ada');
      await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/upgrade`, {
        cookie: adminCookie,
        json: { tier: 'pro', duration: 1 },
      });
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await call(t().app, 'POST', '/api/qr-codes', {
          cookie,
          json: {
            name: `Code ${i}`,
            type: 'url',
            content: 'https://example.com',
            isDynamic: true,
            customization: {},
          },
        });
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json<{ id: number }>().id);
      }
      t().clock.advance(2 * DAY);
      const more = await call(t().app, 'POST', '/api/qr-codes', {
        cookie,
        json: {
          name: 'One more',
          type: 'url',
          content: 'https://example.com',
          isDynamic: true,
          customization: {},
        },
      });
      expect(expectRestError(more, 403).limitReached).toBe(true);
      for (const id of ids) {
        const row = await t()
          .db.selectFrom('qr_codes')
          .select('slug')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const scan = await call(t().app, 'GET', `/r/${row.slug}`);
        expect(scan.statusCode).toBe(302);
      }
      const edit = await call(t().app, 'PUT', `/api/qr-codes/${ids[0]}`, {
        cookie,
        json: { name: 'Renamed' },
      });
      expect(edit.statusCode, edit.body).toBe(200);
      const limit = await callerFor(t(), user).qr.limit();
      expect(limit).toEqual({ currentCount: 5, maxCount: 3 });
    });
  });

  describe('settings, stats, mails', () => {
    it('stores settings that close registration and change the free limit', async () => {
      const { cookie } = await admin(t());
      const res = await call(t().app, 'PUT', '/api/admin/settings', {
        cookie,
        json: { registrationOpen: false, freePlanLimit: 1 },
      });
      expect(res.json()).toEqual({
        registrationOpen: false,
        requireEmailVerification: false,
        freePlanLimit: 1,
      });
      const register = await call(t().app, 'POST', '/api/register', {
        json: { username: 'late', password: 'secret1', name: 'Late', email: 'late@example.com' },
      });
      expect(expectRestError(register, 403).message).toMatch(/Registration is closed/);
      const { user } = await signedInUser(t(), 'ada');
      expect(await callerFor(t(), user).qr.limit()).toEqual({ currentCount: 0, maxCount: 1 });
      const bad = await call(t().app, 'PUT', '/api/admin/settings', { cookie, json: { freePlanLimit: -1 } });
      expect(expectRestError(bad, 400).message).toBe('Free plan limit must be 0 or more');
      expect(await auditActions(t())).toEqual(['settings.update']);
    });

    it('counts users, codes and scans, and lists the mails sent', async () => {
      const { cookie } = await admin(t());
      const { user } = await signedInUser(t(), 'ada');
      const code = await insertQrRow(t().db, { userId: user.id });
      await insertScans(t().db, code.id, 4);
      const stats = await call(t().app, 'GET', '/api/admin/stats', { cookie });
      expect(stats.json()).toMatchObject({
        users: 2,
        admins: 1,
        qrCodes: 1,
        scans30Days: 4,
        topUsers: [{ username: 'ada', scans: 4 }],
      });
      expect(stats.json<{ scansPerDay: unknown[]; databaseBytes: number }>().scansPerDay).toHaveLength(30);
      expect(stats.json<{ databaseBytes: number }>().databaseBytes).toBeGreaterThan(0);

      await call(t().app, 'POST', '/api/forgot-password', { json: { email: 'nobody@example.com' } });
      await t().db.updateTable('users').set({ email: 'ada@example.com' }).where('id', '=', user.id).execute();
      await call(t().app, 'POST', '/api/email/test', {
        cookie,
        json: { to: 'ada@example.com', subject: 'Hello there', message: 'Testing' },
      });
      const mails = await call(t().app, 'GET', '/api/admin/mails', { cookie });
      expect(mails.json()).toMatchObject({
        transport: 'outbox',
        entries: [{ recipient: 'ada@example.com', subject: 'Hello there', status: 'outbox' }],
      });
      // Sending a test mail is an admin action too.
      expect(await auditActions(t())).toEqual(['mail.test']);
    });
  });
});
