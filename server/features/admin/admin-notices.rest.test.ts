import { describe, expect, it } from 'vitest';
import {
  call,
  expectRestError,
  readOutbox,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

/** Test users come with username@example.com; null takes it away. */
async function withEmail(t: TestApp, username: string, email: string | null) {
  await t.db.updateTable('users').set({ email }).where('username', '=', username).execute();
}

const requestUpgrade = (t: TestApp, cookie: string, tier: 'pro' | 'premium') =>
  call(t.app, 'POST', '/api/billing/upgrade-request', { cookie, json: { tier } });

/** The outbox's mails once `count` are written (they go out in the background). */
async function outboxOf(t: TestApp, count: number): Promise<string[]> {
  let mails: string[] = [];
  for (let i = 0; i < 500 && mails.length < count; i++) {
    await new Promise((r) => setTimeout(r, 20));
    mails = await readOutbox(t.outbox);
  }
  return mails;
}

describeEachDb('admins hear about upgrade requests', (getDb) => {
  const t = useTestApp(getDb);

  describe('GET /api/admin/notices', () => {
    it('is for admins only: 401 signed out, 403 for a user', async () => {
      const { cookie } = await signedInUser(t(), 'ada');
      expectRestError(await call(t().app, 'GET', '/api/admin/notices'), 401, 'NOT_SIGNED_IN');
      expectRestError(await call(t().app, 'GET', '/api/admin/notices', { cookie }), 403, 'ADMIN_REQUIRED');
    });

    it('counts the pending upgrade requests, and no longer a decided one', async () => {
      const { cookie: root } = await signedInUser(t(), 'root', { isAdmin: true });
      await withEmail(t(), 'root', null);
      const notices = async () =>
        (await call(t().app, 'GET', '/api/admin/notices', { cookie: root })).json<{
          pendingUpgradeRequests: number;
          adminsWithEmail: number;
        }>();
      expect(await notices()).toEqual({ pendingUpgradeRequests: 0, adminsWithEmail: 0 });

      const ada = await signedInUser(t(), 'ada');
      const bob = await signedInUser(t(), 'bob', { subscriptionTier: 'pro' });
      const first = await requestUpgrade(t(), ada.cookie, 'pro');
      expect(first.statusCode, first.body).toBe(201);
      expect((await requestUpgrade(t(), bob.cookie, 'premium')).statusCode).toBe(201);
      expect((await notices()).pendingUpgradeRequests).toBe(2);

      const id = first.json<{ request: { id: number } }>().request.id;
      const decided = await call(t().app, 'POST', `/api/admin/upgrade-requests/${id}`, {
        cookie: root,
        json: { approve: false },
      });
      expect(decided.statusCode, decided.body).toBe(200);
      expect((await notices()).pendingUpgradeRequests).toBe(1);

      await withEmail(t(), 'root', 'root@example.com');
      expect(await notices()).toEqual({ pendingUpgradeRequests: 1, adminsWithEmail: 1 });
    });
  });

  describe('POST /api/billing/upgrade-request', () => {
    it('mails every admin with an address, and nobody else, with a link to the requests', async () => {
      await signedInUser(t(), 'root', { isAdmin: true });
      await signedInUser(t(), 'second', { isAdmin: true });
      await signedInUser(t(), 'silent', { isAdmin: true });
      await withEmail(t(), 'silent', null);
      await withEmail(t(), 'root', 'root@example.com');
      await withEmail(t(), 'second', 'second@example.com');
      const ada = await signedInUser(t(), 'ada');
      await withEmail(t(), 'ada', 'ada@example.com');
      await signedInUser(t(), 'bystander');
      await withEmail(t(), 'bystander', 'bystander@example.com');

      const res = await requestUpgrade(t(), ada.cookie, 'pro');
      expect(res.statusCode, res.body).toBe(201);

      const mails = await outboxOf(t(), 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(await readOutbox(t().outbox)).toHaveLength(2);
      const to = mails.map((m) => /^To: (.*)$/m.exec(m)?.[1]?.trim()).sort();
      expect(to).toEqual(['root@example.com', 'second@example.com']);
      for (const mail of mails) {
        expect(mail).toMatch(/^Subject: Upgrade request from Inserted User \(ada\): Pro$/m);
        expect(mail).toContain(`${t().config.publicUrl}/admin/subscriptions?show=requests`);
      }
      // The log row of a sent mail is written just after it is sent: wait for it (up to 10 s: on a loaded
      // machine the default second was once too short). Only this request's mails are counted (the
      // previous test's last log row may land in the emptied database late).
      await expect
        .poll(
          async () =>
            (
              await t()
                .db.selectFrom('mail_log')
                .select('recipient')
                .where('subject', 'like', 'Upgrade request from%')
                .execute()
            )
              .map((l) => l.recipient)
              .sort(),
          { timeout: 10_000 },
        )
        .toEqual(['root@example.com', 'second@example.com']);
    });

    it('mails nobody when no admin has an address, and the request still counts', async () => {
      const { cookie: root } = await signedInUser(t(), 'root', { isAdmin: true });
      await withEmail(t(), 'root', null);
      const ada = await signedInUser(t(), 'ada');
      await withEmail(t(), 'ada', 'ada@example.com');
      expect((await requestUpgrade(t(), ada.cookie, 'premium')).statusCode).toBe(201);
      await new Promise((r) => setTimeout(r, 150));
      expect(await readOutbox(t().outbox)).toEqual([]);
      const notices = await call(t().app, 'GET', '/api/admin/notices', { cookie: root });
      expect(notices.json()).toEqual({ pendingUpgradeRequests: 1, adminsWithEmail: 0 });
    });
  });
});
