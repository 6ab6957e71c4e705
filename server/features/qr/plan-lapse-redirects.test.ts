import { expect, it } from 'vitest';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { call, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { createCode, postCode, urlBody } from './qr.test-helpers.js';

// The README's promise: an expired or downgraded plan never stops a printed code from redirecting.
// Only new codes beyond the free limit are refused.

const DAY = 86_400_000;

/** Every code still answers its short link with a 302 to its own destination, recorded as a scan. */
async function expectAllRedirect(t: TestApp, codes: QrCode[]) {
  for (const code of codes) {
    const res = await call(t.app, 'GET', `/r/${code.slug}`);
    expect(res.statusCode, `${code.slug}: ${res.body}`).toBe(302);
    expect(res.headers.location).toBe(code.content);
  }
  const scans = await t.db.selectFrom('qr_scans').select('qr_code_id').execute();
  for (const code of codes) expect(scans.map((s) => s.qr_code_id)).toContain(code.id);
}

/** A pro user with more dynamic codes than the free plan allows. */
async function proWithCodes(t: TestApp, username: string, endsInDays: number) {
  const owner = await signedInUser(t, username, {
    subscriptionTier: 'pro',
    subscriptionEndDate: new Date(t.clock.now().getTime() + endsInDays * DAY).toISOString(),
  });
  const codes: QrCode[] = [];
  for (let i = 0; i < t.config.freePlanLimit + 3; i++) {
    codes.push(
      await createCode(t, owner.cookie, { name: `Printed ${i}`, content: `https://example.com/p/${i}` }),
    );
  }
  return { ...owner, codes };
}

describeEachDb('GET /r/{slug} after the plan lapses', (getDb) => {
  const t = useTestApp(getDb);

  it('keeps redirecting every code when the subscription has expired', async () => {
    const { cookie, codes } = await proWithCodes(t(), 'lapsed', 5);
    t().clock.advance(6 * DAY);
    await expectAllRedirect(t(), codes);
    // The lapse shows only where it should: no new code beyond the free limit.
    expect((await postCode(t(), cookie, urlBody())).statusCode).toBe(403);
    // The owner still edits where a code leads, and the short link follows at once.
    const edited = await call(t().app, 'PUT', `/api/qr-codes/${codes[0]!.id}`, {
      cookie,
      json: { content: 'https://example.com/moved' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await call(t().app, 'GET', `/r/${codes[0]!.slug}`)).headers.location).toBe(
      'https://example.com/moved',
    );
    // And can still take the whole table elsewhere.
    const csv = await call(t().app, 'GET', '/api/qr-codes/redirects/export?format=csv', { cookie });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\r\n')).toHaveLength(codes.length + 1);
  });

  it('keeps redirecting every code when an admin downgrades the owner to Free', async () => {
    const { user, cookie, codes } = await proWithCodes(t(), 'downgraded', 30);
    const admin = await signedInUser(t(), 'root', { isAdmin: true });
    const cancel = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/cancel`, {
      cookie: admin.cookie,
      json: { immediate: true },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const me = await call(t().app, 'GET', '/api/user', { cookie });
    expect(me.json<{ subscriptionTier: string }>().subscriptionTier).toBe('free');
    expect(codes.length).toBeGreaterThan(t().config.freePlanLimit);
    await expectAllRedirect(t(), codes);
    expect((await postCode(t(), cookie, urlBody())).statusCode).toBe(403);
  });
});
