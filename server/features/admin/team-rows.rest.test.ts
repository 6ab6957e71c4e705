import { expect, it } from 'vitest';
import type { AdminUser, SystemStats } from '../../../src/admin/admin.schema.js';
import { adminMessages } from '../../../src/admin/admin.schema.js';
import type { UserRow } from '../../db/database.js';
import { TEST_PASSWORD, insertQrRow, insertTestUser } from '../../test/fixtures.js';
import {
  call,
  callerFor,
  expectRestError,
  login,
  sessionFor,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { hashPassword } from '../auth/passwords.js';
import { listRecipients } from '../notifications/notifications.repository.js';
import { countUsers, findUserByEmail, findUserByUsername } from '../users/users.repository.js';

// A team workspace is a row of `users` (kind 'team'); it is never a person: never listed, counted,
// signed in, mailed, or acted on as a user.

async function teamOf(t: TestApp, owner: UserRow, name: string): Promise<UserRow> {
  const workspace = await callerFor(t, owner).workspaces.create({ name });
  return t.db.selectFrom('users').selectAll().where('id', '=', workspace.id).executeTakeFirstOrThrow();
}

/** Every admin path about one user, with a body that would succeed for a person. */
const userPaths = (id: number) =>
  [
    ['PUT', `/api/admin/users/${id}`, { name: 'Renamed' }],
    ['POST', `/api/admin/users/${id}/reset-password`, { newPassword: 'another1' }],
    ['DELETE', `/api/admin/users/${id}`, undefined],
    ['GET', `/api/admin/users/${id}/deletion-impact`, undefined],
    ['POST', `/api/admin/users/${id}/toggle-unlimited`, undefined],
    ['POST', `/api/admin/users/${id}/subscription/upgrade`, { tier: 'pro', duration: 30 }],
    ['POST', `/api/admin/users/${id}/subscription/cancel`, { immediate: true }],
    ['POST', `/api/admin/users/${id}/subscription/extend`, { days: 30 }],
  ] as const;

describeEachDb('a team row never acts as a person', (getDb) => {
  const t = useTestApp(getDb);

  it('is not in the admin users list, the subscriptions list, their totals or the stats', async () => {
    const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
    const { user: ada } = await signedInUser(t(), 'ada');
    const team = await teamOf(t(), ada, 'Marketing');
    await insertQrRow(t().db, { userId: team.id });
    // Even on a paid plan (the subscriptions page's filter) it is no user.
    await t().db.updateTable('users').set({ subscription_tier: 'pro' }).where('id', '=', team.id).execute();

    const users = await call(t().app, 'GET', '/api/admin/users', { cookie });
    expect(users.headers['x-total-count']).toBe('2');
    expect(
      users
        .json<AdminUser[]>()
        .map((u) => u.username)
        .sort(),
    ).toEqual(['ada', 'root']);
    const searched = await call(
      t().app,
      'GET',
      `/api/admin/users?search=${encodeURIComponent(team.username)}`,
      {
        cookie,
      },
    );
    expect(searched.json()).toEqual([]);
    expect(searched.headers['x-total-count']).toBe('0');
    const paid = await call(t().app, 'GET', '/api/admin/subscriptions?filter=paid', { cookie });
    expect(paid.json()).toEqual([]);
    expect(paid.headers['x-total-count']).toBe('0');

    const stats = (await call(t().app, 'GET', '/api/admin/stats', { cookie })).json<SystemStats>();
    expect(stats).toMatchObject({ users: 2, admins: 1, qrCodes: 1 });
    // A team's creation is no sign-up.
    expect(stats.signupsPerDay.reduce((n, d) => n + d.count, 0)).toBe(2);
    expect(await countUsers(t().db)).toEqual({ users: 2, admins: 1 });
  });

  it('answers 404 "User not found" on every admin path about a user, and changes nothing', async () => {
    const { user: root, cookie } = await signedInUser(t(), 'root', { isAdmin: true });
    const { user: ada } = await signedInUser(t(), 'ada');
    const team = await teamOf(t(), ada, 'Marketing');
    const code = await insertQrRow(t().db, { userId: team.id });
    for (const [method, url, json] of userPaths(team.id)) {
      const res = await call(t().app, method, url, { json, cookie });
      expect(expectRestError(res, 404, 'NOT_FOUND').message, `${method} ${url}`).toBe(
        adminMessages.userNotFound,
      );
    }
    await expect(callerFor(t(), root).admin.user({ id: team.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: adminMessages.userNotFound,
    });
    const after = await t()
      .db.selectFrom('users')
      .selectAll()
      .where('id', '=', team.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(team);
    expect(await t().db.selectFrom('qr_codes').select('id').execute()).toEqual([{ id: code.id }]);
    expect(await t().db.selectFrom('audit_log').select('action').execute()).toEqual([]);
  });

  it('never signs in with its handle, even with a password that would verify, nor by a session', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const team = await teamOf(t(), ada, 'Marketing');
    expectRestError(await login(t().app, team.username, '!team'), 401, 'INVALID_CREDENTIALS');
    // A row whose password hash verifies is still no person.
    await t()
      .db.updateTable('users')
      .set({ password: await hashPassword(TEST_PASSWORD) })
      .where('id', '=', team.id)
      .execute();
    const res = await login(t().app, team.username, TEST_PASSWORD);
    expect(expectRestError(res, 401, 'INVALID_CREDENTIALS').message).toBe('Invalid username or password');
    expect(res.headers['set-cookie']).toBeUndefined();
    const cookie = await sessionFor(t(), team.id);
    expectRestError(await call(t().app, 'GET', '/api/user', { cookie }), 401, 'NOT_SIGNED_IN');
    expect(await findUserByUsername(t().db, team.username)).toBeUndefined();
  });

  it('keeps its handle: registering it is refused as a taken name', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const team = await teamOf(t(), ada, 'Marketing');
    const res = await call(t().app, 'POST', '/api/register', {
      json: { username: team.username, password: 'secret12', name: 'Eve', email: 'eve@example.com' },
    });
    expectRestError(res, 409, 'CONFLICT');
    expect(await countUsers(t().db)).toEqual({ users: 1, admins: 0 });
  });

  it('is no address holder and gets no scan mail, even with an address and the mails turned on', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const team = await teamOf(t(), ada, 'Marketing');
    await t()
      .db.updateTable('users')
      .set({ email: 'team@example.com', notify_scan_digest: true, notify_scan_thresholds: true })
      .where('id', '=', team.id)
      .execute();
    await insertTestUser(t().db, { username: 'bea', email: 'bea@example.com' });
    await t()
      .db.updateTable('users')
      .set({ notify_scan_digest: true })
      .where('username', '=', 'bea')
      .execute();
    expect(await findUserByEmail(t().db, 'team@example.com')).toBeUndefined();
    expect((await listRecipients(t().db, 'notify_scan_digest')).map((r) => r.username)).toEqual(['bea']);
    expect(await listRecipients(t().db, 'notify_scan_thresholds')).toEqual([]);
  });
});
