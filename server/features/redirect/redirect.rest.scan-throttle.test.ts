import { describe, expect, it } from 'vitest';
import { signedInUser, call, type TestApp } from '../../test/test-app.js';
import { insertQrRow } from '../../test/fixtures.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { DESKTOP, IPHONE, scan, scansOf, withConfig } from './redirect.test-helpers.js';

async function ownedDynamicCode(t: TestApp, username: string) {
  const owner = await signedInUser(t, username);
  const row = await insertQrRow(t.db, {
    userId: owner.user.id,
    type: 'url',
    content: 'https://example.com/menu',
    name: 'Menu',
    isDynamic: true,
  });
  return { owner, row: row as typeof row & { slug: string } };
}

async function detailsOf(t: TestApp, cookie: string, id: number) {
  const res = await call(t.app, 'GET', `/api/analytics/qr-codes/${id}`, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ totalScans: number; throttledScans: number; scans: unknown[] }>();
}

async function throttledRows(t: TestApp) {
  return t.db.selectFrom('throttled_scans').select(['qr_code_id', 'scans']).execute();
}

describeEachDb('GET /r/<slug> from a client that loops', (getDb) => {
  describe('with the default limit (30 scans a minute per client and code)', () => {
    const t = withConfig(getDb, {});

    it('answers all 300 parallel requests but counts 30 as scans and the rest apart, on the details page too', async () => {
      const { owner, row } = await ownedDynamicCode(t(), 'looped');
      const answers = await Promise.all(
        Array.from({ length: 300 }, () =>
          scan(t(), row.slug, { headers: { 'user-agent': IPHONE }, remoteAddress: '203.0.113.9' }),
        ),
      );
      expect(answers.map((r) => r.statusCode)).toEqual(Array(300).fill(302));
      expect(answers.every((r) => r.headers.location === 'https://example.com/menu')).toBe(true);

      expect(await scansOf(t(), row.id)).toHaveLength(30);
      expect(await throttledRows(t())).toEqual([{ qr_code_id: row.id, scans: 270 }]);
      const details = await detailsOf(t(), owner.cookie, row.id);
      expect(details.totalScans).toBe(30);
      expect(details.throttledScans).toBe(270);
    });

    it('counts another device, or the same device at another address, as scans of its own', async () => {
      const { owner, row } = await ownedDynamicCode(t(), 'shared');
      const from = (ua: string, address: string) =>
        scan(t(), row.slug, { headers: { 'user-agent': ua }, remoteAddress: address });
      for (let i = 0; i < 31; i++) await from(IPHONE, '198.51.100.1');
      for (let i = 0; i < 5; i++) await from(DESKTOP, '198.51.100.1');
      for (let i = 0; i < 5; i++) await from(IPHONE, '198.51.100.2');
      const details = await detailsOf(t(), owner.cookie, row.id);
      expect(details.totalScans).toBe(40);
      expect(details.throttledScans).toBe(1);
    });

    it('counts the client again a minute after its first scan', async () => {
      const { owner, row } = await ownedDynamicCode(t(), 'patient');
      const once = () =>
        scan(t(), row.slug, { headers: { 'user-agent': IPHONE }, remoteAddress: '192.0.2.7' });
      for (let i = 0; i < 35; i++) await once();
      t().clock.advance(59_000);
      await once();
      t().clock.advance(1_000);
      for (let i = 0; i < 3; i++) await once();
      const details = await detailsOf(t(), owner.cookie, row.id);
      expect(details.totalScans).toBe(33);
      expect(details.throttledScans).toBe(6);
    });

    it('a new code starts with nothing throttled, and deleting a code deletes its throttled count', async () => {
      const { owner, row } = await ownedDynamicCode(t(), 'deleter');
      expect((await detailsOf(t(), owner.cookie, row.id)).throttledScans).toBe(0);
      for (let i = 0; i < 32; i++)
        await scan(t(), row.slug, { headers: { 'user-agent': DESKTOP }, remoteAddress: '192.0.2.8' });
      expect(await countRows(t().db, 'throttled_scans')).toBe(1);
      const res = await call(t().app, 'DELETE', `/api/qr-codes/${row.id}`, {
        cookie: owner.cookie,
        headers: { origin: t().config.publicUrl },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      expect(await countRows(t().db, 'throttled_scans')).toBe(0);
    });
  });

  describe('with SCANS_PER_CLIENT_MINUTE=0', () => {
    const t = withConfig(getDb, { scansPerClientMinute: 0 });

    it('stores every scan', async () => {
      const { row } = await ownedDynamicCode(t(), 'unlimited');
      await Promise.all(
        Array.from({ length: 60 }, () =>
          scan(t(), row.slug, { headers: { 'user-agent': IPHONE }, remoteAddress: '203.0.113.10' }),
        ),
      );
      expect(await scansOf(t(), row.id)).toHaveLength(60);
      expect(await throttledRows(t())).toEqual([]);
    });
  });
});
