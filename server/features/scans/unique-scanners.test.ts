import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DailyCount, QrCodeAnalytics, UserSummary } from '../../../src/analytics/analytics.schema.js';
import { sqliteConnectionOf } from '../../db/create-db.js';
import type { Db } from '../../db/database.js';
import { insertQrRow } from '../../test/fixtures.js';
import {
  call,
  createTestApp,
  createTestClock,
  signedInUser,
  useTestApp,
  type TestApp,
  type TestClock,
} from '../../test/test-app.js';
import { describeEachDb, ownTableNames } from '../../test/test-db.js';
import { DESKTOP, GOOGLEBOT, IPHONE, scan } from '../redirect/redirect.test-helpers.js';
import { deleteScansBefore } from './scan-retention.js';
import { startScanService } from './scan.service.js';
import { VISITOR_DAY_GRACE_MS, visitorHash } from './unique-scanners.js';

/** Day 1 is 2026-11-03 (UTC), day 2 the 4th. */
const DAY1_NOON = new Date('2026-11-03T12:00:00.000Z');
const DAY1_LATE = new Date('2026-11-03T23:59:50.000Z');
const DAY2_START = new Date('2026-11-04T00:00:05.000Z');
const DAY2_NOON = new Date('2026-11-04T12:00:00.000Z');
const ADA = { ua: IPHONE, ip: '203.0.113.5' };
const BOB = { ua: DESKTOP, ip: '198.51.100.20' };

async function ownedCode(t: TestApp, username: string) {
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

/** One scan of the short link by a person (or bot) at an address, answered 302. */
async function scanAs(t: TestApp, slug: string, who: { ua: string; ip: string }) {
  const res = await scan(t, slug, { headers: { 'user-agent': who.ua }, remoteAddress: who.ip });
  expect(res.statusCode).toBe(302);
}

async function getJson<T>(t: TestApp, cookie: string, url: string): Promise<T> {
  const res = await call(t.app, 'GET', url, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

/** The figures a user sees: the details page, the code's and the user's daily series, the summary. */
async function figures(t: TestApp, cookie: string, codeId: number) {
  const details = await getJson<QrCodeAnalytics>(t, cookie, `/api/analytics/qr-codes/${codeId}`);
  const codeDaily = await getJson<DailyCount[]>(t, cookie, `/api/analytics/qr-codes/${codeId}/daily?days=2`);
  const daily = await getJson<DailyCount[]>(t, cookie, '/api/analytics/daily?days=2');
  const summary = await getJson<UserSummary>(t, cookie, '/api/analytics/user');
  return {
    details: [details.totalScans, details.uniqueScanners, details.uniqueScannersPartial],
    codeDaily: codeDaily.map((d) => [d.date, d.count, d.uniqueScanners]),
    daily: daily.map((d) => [d.date, d.count, d.uniqueScanners]),
    summary: [summary.totalScans, summary.uniqueScanners, summary.uniqueScannersPartial],
  };
}

async function storedVisitors(db: Db, codeId: number): Promise<{ at: number; visitor: number | null }[]> {
  const rows = await db
    .selectFrom('qr_scans')
    .select(['at', 'visitor'])
    .where('qr_code_id', '=', codeId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ at: Number(r.at), visitor: r.visitor === null ? null : Number(r.visitor) }));
}

async function salts(db: Db): Promise<{ day: number; salt: Buffer }[]> {
  return (await db.selectFrom('scan_salts').select(['day', 'salt']).orderBy('day').execute()).map((r) => ({
    day: Number(r.day),
    salt: Buffer.from(r.salt),
  }));
}

/**
 * Every table and column whose stored value holds `bytes` (as bytes, hex or base64 text): a salt
 * that is gone must be gone from everywhere, not only from scan_salts.
 */
async function tablesHolding(db: Db, bytes: Buffer): Promise<string[]> {
  const hex = bytes.toString('hex');
  const base64 = bytes.toString('base64');
  const found: string[] = [];
  for (const table of await ownTableNames(db)) {
    const rows = await db
      .selectFrom(table as 'qr_scans')
      .selectAll()
      .execute();
    for (const row of rows as Record<string, unknown>[]) {
      for (const [column, value] of Object.entries(row)) {
        const holds = Buffer.isBuffer(value)
          ? value.includes(bytes)
          : typeof value === 'string' && (value.includes(hex) || value.includes(base64));
        if (holds) found.push(`${table}.${column}`);
      }
    }
  }
  return found;
}

const at = (clock: TestClock, date: Date) => clock.set(date);

describeEachDb('unique scanners (daily salt, visitor hash, daily-unique counts)', (getDb) => {
  describe('through the short link', () => {
    const clock = createTestClock(DAY1_NOON);
    const t = useTestApp(getDb, { clock });

    it('the same person twice on a day is 1, two people are 2, a bot never counts', async () => {
      at(clock, DAY1_NOON);
      const { owner, row } = await ownedCode(t(), 'ada-owner');
      await scanAs(t(), row.slug, ADA);
      clock.advance(60_000);
      await scanAs(t(), row.slug, ADA);
      expect((await figures(t(), owner.cookie, row.id)).details).toEqual([2, 1, false]);

      await scanAs(t(), row.slug, BOB);
      await scanAs(t(), row.slug, { ua: GOOGLEBOT, ip: '66.249.66.1' });
      await scanAs(t(), row.slug, { ua: 'WhatsApp/2.24.24.76 A', ip: ADA.ip });
      expect(await figures(t(), owner.cookie, row.id)).toEqual({
        // 5 scans (2 of them bots), 2 people.
        details: [5, 2, false],
        codeDaily: [
          ['2026-11-02', 0, 0],
          ['2026-11-03', 5, 2],
        ],
        daily: [
          ['2026-11-02', 0, 0],
          ['2026-11-03', 5, 2],
        ],
        summary: [5, 2, false],
      });
      // Bots store no hash; each person's scans share theirs.
      const stored = await storedVisitors(t().db, row.id);
      expect(stored.slice(3).map((s) => s.visitor)).toEqual([null, null]);
      expect(stored[0]!.visitor).not.toBeNull();
      expect(stored[1]!.visitor).toBe(stored[0]!.visitor);
      expect(stored[2]!.visitor).not.toBe(stored[0]!.visitor);
      // The hash is 48 bits: a 6-byte signed integer.
      for (const s of stored.slice(0, 3)) expect(Math.abs(s.visitor!)).toBeLessThan(2 ** 47);
    });

    it('the same person on two days counts twice, and nothing stored links their two days', async () => {
      at(clock, DAY1_NOON);
      const { owner, row } = await ownedCode(t(), 'two-days');
      await scanAs(t(), row.slug, ADA);
      await scanAs(t(), row.slug, ADA);
      const [day1Salt] = await salts(t().db);
      expect(day1Salt!.salt).toHaveLength(32);

      // Across UTC midnight: the first scan of day 2 makes its salt and deletes day 1's.
      at(clock, DAY2_NOON);
      await scanAs(t(), row.slug, ADA);
      await scanAs(t(), row.slug, ADA);
      expect(await figures(t(), owner.cookie, row.id)).toEqual({
        details: [4, 2, false],
        codeDaily: [
          ['2026-11-03', 2, 1],
          ['2026-11-04', 2, 1],
        ],
        daily: [
          ['2026-11-03', 2, 1],
          ['2026-11-04', 2, 1],
        ],
        // Daily-unique, summed: the same person on two days is 2.
        summary: [4, 2, false],
      });

      const now = await salts(t().db);
      expect(now.map((s) => s.day)).toEqual([day1Salt!.day + 1]);
      // Day 1's salt exists nowhere in the database any more: its hashes can never be made again.
      expect(await tablesHolding(t().db, day1Salt!.salt)).toEqual([]);
      // Not even in a page's free space (SQLite: the database's bytes, every page).
      const connection = sqliteConnectionOf(t().db);
      if (connection) expect(connection.serialize().includes(day1Salt!.salt)).toBe(false);
      // Day 1's stored hash is not the one the same person makes on day 2 (with day 2's salt).
      const stored = await storedVisitors(t().db, row.id);
      const day1 = new Set(stored.filter((s) => s.at < DAY2_START.getTime()).map((s) => s.visitor));
      const day2 = new Set(stored.filter((s) => s.at >= DAY2_START.getTime()).map((s) => s.visitor));
      expect(day1.size).toBe(1);
      expect(day2.size).toBe(1);
      expect([...day1].some((v) => day2.has(v))).toBe(false);
      expect(day1.has(visitorHash(now[0]!.salt, row.id, ADA.ip, ADA.ua))).toBe(false);
    });

    it("the sweep deletes finished days' visitor sets once their counts are final, and forgets old salts", async () => {
      at(clock, DAY1_NOON);
      const { owner, row } = await ownedCode(t(), 'sweeper');
      await scanAs(t(), row.slug, ADA);
      await scanAs(t(), row.slug, BOB);
      const visitorDays = async () =>
        (await t().db.selectFrom('scan_code_day_visitors').select('day').execute()).map((r) => Number(r.day));
      expect(await visitorDays()).toHaveLength(2);

      // A few minutes into day 2 a scan of day 1 may still be on its way: the set stays.
      at(clock, new Date(DAY2_START.getTime() + VISITOR_DAY_GRACE_MS - 60_000));
      expect(await t().deps.scans.sweepVisitorDays()).toEqual({ salts: 1, visitors: 0 });
      expect(await salts(t().db)).toEqual([]);
      expect(await visitorDays()).toHaveLength(2);

      at(clock, new Date(DAY2_START.getTime() + VISITOR_DAY_GRACE_MS));
      expect(await t().deps.scans.sweepVisitorDays()).toEqual({ salts: 0, visitors: 2 });
      expect(await visitorDays()).toEqual([]);
      // The counts stay; day 2 starts afresh with a new salt.
      await scanAs(t(), row.slug, ADA);
      expect((await figures(t(), owner.cookie, row.id)).codeDaily).toEqual([
        ['2026-11-03', 2, 2],
        ['2026-11-04', 1, 1],
      ]);
      expect(await visitorDays()).toHaveLength(1);
    });

    it("throttled scans don't count, even a person's first of a new day", async () => {
      at(clock, DAY1_LATE);
      const limited = await createTestApp(getDb(), { clock, config: { scansPerClientMinute: 2 } });
      try {
        const { owner, row } = await ownedCode(limited, 'looper');
        await scanAs(limited, row.slug, ADA);
        await scanAs(limited, row.slug, ADA);
        // Within the same minute, past midnight: the third is beyond 2 a minute, so only counted apart.
        at(clock, DAY2_START);
        await scanAs(limited, row.slug, ADA);
        const seen = await figures(limited, owner.cookie, row.id);
        expect(seen.codeDaily).toEqual([
          ['2026-11-03', 2, 1],
          ['2026-11-04', 0, 0],
        ]);
        const details = await getJson<QrCodeAnalytics>(
          limited,
          owner.cookie,
          `/api/analytics/qr-codes/${row.id}`,
        );
        expect(details.throttledScans).toBe(1);
        expect(await limited.db.selectFrom('scan_code_day_visitors').selectAll().execute()).toHaveLength(1);
      } finally {
        await limited.close();
      }
    });

    it('deleting raw scans (retention) keeps the unique counts; deleting a code takes its own out', async () => {
      at(clock, DAY1_NOON);
      const { owner, row } = await ownedCode(t(), 'keeper');
      const other = await insertQrRow(t().db, {
        userId: owner.user.id,
        type: 'url',
        content: 'https://example.com/other',
        name: 'Other',
        isDynamic: true,
      });
      await scanAs(t(), row.slug, ADA);
      await scanAs(t(), row.slug, BOB);
      // The same phone on another of the owner's codes counts there too (the code is in the hash).
      await scanAs(t(), other.slug!, ADA);
      const before = await figures(t(), owner.cookie, row.id);
      expect(before.summary).toEqual([3, 3, false]);

      at(clock, DAY2_NOON);
      expect(await deleteScansBefore(t().db, DAY2_START, 0)).toBe(3);
      expect(await figures(t(), owner.cookie, row.id)).toEqual({
        ...before,
        codeDaily: [
          ['2026-11-03', 2, 2],
          ['2026-11-04', 0, 0],
        ],
        daily: [
          ['2026-11-03', 3, 3],
          ['2026-11-04', 0, 0],
        ],
      });

      const deleted = await call(t().app, 'DELETE', `/api/qr-codes/${other.id}`, { cookie: owner.cookie });
      expect(deleted.statusCode, deleted.body).toBeLessThan(300);
      const summary = await getJson<UserSummary>(t(), owner.cookie, '/api/analytics/user?days=2');
      expect([summary.totalScans, summary.uniqueScanners]).toEqual([2, 2]);
      const daily = await getJson<DailyCount[]>(t(), owner.cookie, '/api/analytics/daily?days=2');
      expect(daily.map((d) => d.uniqueScanners)).toEqual([2, 0]);
    });
  });

  describe('with ANONYMIZE_IPS', () => {
    const clock = createTestClock(DAY1_NOON);
    const t = useTestApp(getDb, { clock, config: { anonymizeIps: true } });

    it('hashes the address as stored: the hash and the day’s salt never give the zeroed octet back', async () => {
      at(clock, DAY1_NOON);
      const { owner, row } = await ownedCode(t(), 'anon');
      await scanAs(t(), row.slug, { ua: IPHONE, ip: '203.0.113.5' });
      await scanAs(t(), row.slug, { ua: IPHONE, ip: '203.0.113.6' });
      await scanAs(t(), row.slug, { ua: DESKTOP, ip: '203.0.113.6' });
      // The same browser in one /24 is one person that day; another browser is another.
      expect((await figures(t(), owner.cookie, row.id)).details).toEqual([3, 2, false]);
      const addresses = await t().db.selectFrom('qr_scans').select('ip_address').execute();
      expect(addresses.map((a) => a.ip_address)).toEqual(['203.0.113.0', '203.0.113.0', '203.0.113.0']);
      // Trying the 256 full addresses with today's salt finds only the stored, shortened one.
      const [today] = await salts(t().db);
      const [first] = await storedVisitors(t().db, row.id);
      const matches = Array.from({ length: 256 }, (_, i) => `203.0.113.${i}`).filter(
        (ip) => visitorHash(today!.salt, row.id, ip, IPHONE) === first!.visitor,
      );
      expect(matches).toEqual(['203.0.113.0']);
      expect(await tablesHolding(t().db, Buffer.from('203.0.113.6'))).toEqual([]);
    });
  });

  describe('two instances on one database', () => {
    const clock = createTestClock(DAY1_NOON);
    const t = useTestApp(getDb, { clock });

    it('agree on the day’s salt: the same person through either is one', async () => {
      at(clock, DAY1_NOON);
      const { owner, row } = await ownedCode(t(), 'twins');
      const first = await startScanService(t().deps);
      const second = await startScanService(t().deps);
      try {
        const client = { ip: ADA.ip, userAgent: ADA.ua, referrer: null };
        const code = { qrCodeId: row.id, ownerId: owner.user.id };
        // Both make the day's salt at once: one wins, both use it.
        await Promise.all([first.record(code, client), second.record(code, client)]);
        await second.record(code, client);
      } finally {
        await first.close();
        await second.close();
      }
      expect(await salts(t().db)).toHaveLength(1);
      expect((await figures(t(), owner.cookie, row.id)).details).toEqual([3, 1, false]);
    });
  });
});

describe('visitorHash', () => {
  /** The hash as first written: a streamed SHA-256 of the salt, then the key. Stored hashes depend on it. */
  const streamed = (salt: Buffer, codeId: number, address: string, ua: string | null | undefined) =>
    createHash('sha256')
      .update(salt)
      .update(`${codeId}\u0000${address}\u0000${ua ?? ''}`)
      .digest()
      .readIntBE(0, 6);

  it('is the same 48-bit SHA-256 prefix for every key, short, non-ASCII or longer than its buffer', () => {
    const salt = randomBytes(32);
    const agents = [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X)',
      null,
      undefined,
      'Ünïcødé 📱 ブラウザ',
      'x'.repeat(1400),
      '語'.repeat(1400),
      'y'.repeat(9000),
    ];
    for (const ua of agents)
      for (const address of ['203.0.113.7', '2001:db8::1', ''])
        expect(visitorHash(salt, 42, address, ua)).toBe(streamed(salt, 42, address, ua));
    // Another salt, another hash.
    expect(visitorHash(randomBytes(32), 42, '203.0.113.7', null)).not.toBe(
      visitorHash(salt, 42, '203.0.113.7', null),
    );
  });
});
