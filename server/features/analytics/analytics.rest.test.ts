import { beforeEach, expect, it } from 'vitest';
import type {
  DailyCount,
  DeviceCount,
  HourlyCount,
  LocationCount,
  PerformanceRow,
  ScanHistoryRow,
  UserSummary,
} from '../../../src/analytics/analytics.schema.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import type { QrCodeRow, UserRow } from '../../db/database.js';
import { call, expectRestError, insertQrRow, signedInUser } from '../../test/qr-fixtures.js';
import { createTestClock, useTestApp, type Response } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { writeScansWithRollups, type ScanToStore } from '../scans/scan-rollups.js';
import type { QrCodeAnalytics } from './analytics.service.js';

/**
 * The eight analytics paths against one hand-computed fixture. Every expected answer below was worked
 * out by hand from the scan table (`SCANS`) and the local times noted beside each scan; none is
 * computed by the code under test.
 *
 * The app's clock stands at NOW = Tuesday 2026-11-03 12:00 UTC. Local "today" is 2026-11-03 in every
 * zone used here: New York 07:00 EST, Kolkata 17:30 IST, Kathmandu 17:45 NPT.
 * America/New_York left summer time on Sunday 2026-11-01 at 06:00 UTC (02:00 EDT → 01:00 EST), so
 * that local day is 25 hours long: 2026-11-01T04:00Z to 2026-11-02T05:00Z.
 */
const NOW = new Date('2026-11-03T12:00:00.000Z');

const NY = 'America/New_York';
const KOLKATA = 'Asia/Kolkata'; // +05:30
const KATHMANDU = 'Asia/Kathmandu'; // +05:45

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;

type CodeKey = 'A' | 'B' | 'D';

interface FixtureScan {
  label: string;
  code: CodeKey;
  at: string;
  device: string | null;
  location: string | null;
  ip: string | null;
  ua: string | null;
}

/**
 * Alice owns A ("Menu", 12 scans), B ("Flyer", 6 scans) and C ("Never scanned"); Bob owns D (4 scans),
 * scanned at the same moments and places as some of Alice's so that a leak would show.
 * Local times: NY / Kolkata / Kathmandu.
 */
// prettier-ignore
const SCANS: FixtureScan[] = [
  // 2025-06-15 04:00 EDT / 13:30 / 13:45 — more than 365 days ago
  { label: 's1', code: 'A', at: '2025-06-15T08:00:00.000Z', device: 'Desktop', location: 'Paris, France', ip: '198.51.100.1', ua: UA.windows },
  // 2026-10-01 06:00 EDT / 15:30 / 15:45 — 33 days ago
  { label: 's2', code: 'A', at: '2026-10-01T10:00:00.000Z', device: 'Mobile', location: 'Berlin, Germany', ip: '198.51.100.2', ua: UA.iphone },
  // 11-01 00:30 EDT (first hour of the 25-hour day) / 10:00 / 10:15
  { label: 'd1', code: 'B', at: '2026-11-01T04:30:00.000Z', device: 'Desktop', location: 'Delhi, India', ip: '198.51.100.10', ua: UA.windows },
  // 11-01 01:30 EDT / 11:00 / 11:15
  { label: 'd2', code: 'A', at: '2026-11-01T05:30:00.000Z', device: 'Mobile', location: 'Unknown', ip: '10.0.0.1', ua: UA.iphone },
  // 11-01 01:30 EST (the repeated hour) / 12:00 / 12:15
  { label: 'd3', code: 'A', at: '2026-11-01T06:30:00.000Z', device: 'Tablet', location: 'Unknown', ip: '10.0.0.2', ua: UA.ipad },
  // 11-01 02:30 EST / 13:00 / 13:15
  { label: 'd4', code: 'B', at: '2026-11-01T07:30:00.000Z', device: 'Mobile', location: 'Delhi, India', ip: '198.51.100.11', ua: UA.iphone },
  // 11-01 13:00 EST / 11-01 23:30 IST / 11-01 23:45 NPT
  { label: 'r1', code: 'B', at: '2026-11-01T18:00:00.000Z', device: 'Mobile', location: 'Lisbon, Portugal', ip: '198.51.100.12', ua: UA.iphone },
  // 11-01 15:00 EST / 11-02 01:30 IST / 11-02 01:45 NPT
  { label: 'r2', code: 'A', at: '2026-11-01T20:00:00.000Z', device: 'Desktop', location: 'Madrid, Spain', ip: '2001:db8::8', ua: UA.windows },
  // 11-01 23:50 EST / 11-02 10:20 / 11-02 10:35
  { label: 'n1', code: 'A', at: '2026-11-02T04:50:00.000Z', device: 'Mobile', location: 'New York, United States', ip: '198.51.100.3', ua: UA.iphone },
  // 11-02 00:10 EST / 10:40 / 10:55
  { label: 'n2', code: 'A', at: '2026-11-02T05:10:00.000Z', device: 'Desktop', location: 'Boston, United States', ip: '198.51.100.0', ua: UA.windows },
  // 11-02 07:00 EST / 17:30 / 17:45
  { label: 'b2', code: 'B', at: '2026-11-02T12:00:00.000Z', device: 'Bot', location: 'Unknown', ip: null, ua: UA.googlebot },
  // 11-02 13:05 EST / 11-02 23:35 IST / 11-02 23:50 NPT
  { label: 'k1', code: 'A', at: '2026-11-02T18:05:00.000Z', device: 'Mobile', location: 'Kathmandu, Nepal', ip: '198.51.100.5', ua: UA.iphone },
  // 11-02 13:20 EST / 11-02 23:50 IST / 11-03 00:05 NPT
  { label: 'i1', code: 'B', at: '2026-11-02T18:20:00.000Z', device: 'Mobile', location: 'Mumbai, India', ip: '198.51.100.13', ua: UA.iphone },
  // 11-02 13:25 EST / 11-02 23:55 IST / 11-03 00:10 NPT
  { label: 'k2', code: 'A', at: '2026-11-02T18:25:00.000Z', device: 'Mobile', location: 'Pokhara, Nepal', ip: '198.51.100.6', ua: UA.iphone },
  // 11-02 13:40 EST / 11-03 00:10 IST / 11-03 00:25 NPT
  { label: 'i2', code: 'B', at: '2026-11-02T18:40:00.000Z', device: 'Tablet', location: 'Chennai, India', ip: '198.51.100.14', ua: UA.ipad },
  // 11-02 23:55 EST / 11-03 10:25 / 10:40 — a legacy row: no device, no location
  { label: 't1', code: 'A', at: '2026-11-03T04:55:00.000Z', device: null, location: null, ip: '10.0.0.1', ua: null },
  // 11-03 00:05 EST / 10:35 / 10:50
  { label: 't2', code: 'A', at: '2026-11-03T05:05:00.000Z', device: 'Mobile', location: 'Berlin, Germany', ip: '198.51.100.7', ua: UA.iphone },
  // 11-03 04:00 EST / 14:30 / 14:45
  { label: 'b1', code: 'A', at: '2026-11-03T09:00:00.000Z', device: 'Bot', location: 'Mountain View, United States', ip: '66.249.66.1', ua: UA.googlebot },
  // Bob's
  { label: 'x1', code: 'D', at: '2026-11-02T12:00:00.000Z', device: 'Mobile', location: 'Tokyo, Japan', ip: '198.51.100.20', ua: UA.iphone },
  { label: 'x2', code: 'D', at: '2026-11-03T06:00:00.000Z', device: 'Bot', location: 'Tokyo, Japan', ip: '198.51.100.21', ua: UA.googlebot },
  { label: 'x3', code: 'D', at: '2026-11-01T05:30:00.000Z', device: 'Desktop', location: 'Berlin, Germany', ip: '198.51.100.22', ua: UA.windows },
  { label: 'x4', code: 'D', at: '2025-06-15T08:00:00.000Z', device: 'Desktop', location: 'Paris, France', ip: '198.51.100.23', ua: UA.windows },
];

const scanByLabel = new Map(SCANS.map((s) => [s.label, s]));

/** 24 hourly entries, zero except the hours given. */
function hours(counts: Record<number, number>): HourlyCount[] {
  return Array.from({ length: 24 }, (_, hour) => ({ hour, count: counts[hour] ?? 0 }));
}

/** Ranked answers: counts never increase down the list; ties may come in any order. */
function expectRanked<T extends { count: number }>(
  actual: T[],
  expected: T[],
  key: (row: T) => string | number,
) {
  for (let i = 1; i < actual.length; i++)
    expect(actual[i - 1]!.count).toBeGreaterThanOrEqual(actual[i]!.count);
  const byKey = (rows: T[]) => [...rows].sort((a, b) => String(key(a)).localeCompare(String(key(b))));
  expect(byKey(actual)).toEqual(byKey(expected));
}

describeEachDb('analytics REST paths', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(NOW) });

  let alice: UserRow;
  let aliceCookie: string;
  let bobCookie: string;
  let codes: Record<CodeKey | 'C', QrCodeRow>;
  /** The stored id of each fixture scan. */
  let scanId: Map<string, number>;

  beforeEach(async () => {
    t().clock.set(NOW);
    const { db } = t();
    ({ user: alice, cookie: aliceCookie } = await signedInUser(t(), 'alice'));
    const { user: bob, cookie: bobSession } = await signedInUser(t(), 'bob');
    bobCookie = bobSession;
    const created = '2025-01-01T00:00:00.000Z';
    codes = {
      A: await insertQrRow(db, { userId: alice.id, name: 'Menu', isDynamic: true, created }),
      B: await insertQrRow(db, { userId: alice.id, name: 'Flyer', isDynamic: true, created }),
      C: await insertQrRow(db, { userId: alice.id, name: 'Never scanned', isDynamic: true, created }),
      D: await insertQrRow(db, { userId: bob.id, name: "Bob's poster", isDynamic: true, created }),
    };
    const rows: ScanToStore[] = SCANS.map((s) => ({
      owner_id: s.code === 'D' ? bob.id : alice.id,
      qr_code_id: codes[s.code].id,
      timestamp: s.at,
      user_agent: s.ua,
      ip_address: s.ip,
      referrer: null,
      location: s.location,
      device: s.device,
    }));
    // Two transactions, as two recorder batches would write them.
    await db.transaction().execute((trx) => writeScansWithRollups(trx, rows.slice(0, 9)));
    await db.transaction().execute((trx) => writeScansWithRollups(trx, rows.slice(9)));
    const stored = await db.selectFrom('qr_scans').select(['id', 'qr_code_id', 'timestamp']).execute();
    scanId = new Map();
    for (const s of SCANS) {
      const row = stored.find(
        (r) => r.qr_code_id === codes[s.code].id && new Date(r.timestamp).toISOString() === s.at,
      );
      if (!row) throw new Error(`scan ${s.label} was not stored`);
      scanId.set(s.label, row.id);
    }
  });

  async function get<T>(url: string, cookie = aliceCookie): Promise<T> {
    const res = await call(t().app, 'GET', url, { cookie });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json<T>();
  }

  const perf = (a: number, b: number, c = 0): PerformanceRow[] =>
    [
      { qrCodeId: codes.A.id, name: 'Menu', type: 'url' as const, count: a },
      { qrCodeId: codes.B.id, name: 'Flyer', type: 'url' as const, count: b },
      { qrCodeId: codes.C.id, name: 'Never scanned', type: 'url' as const, count: c },
    ].sort((x, y) => y.count - x.count);

  // ---- GET /api/analytics/user ---------------------------------------------------------------------

  it('user summary: every code with its scans, most scanned first, and the time of the last scan', async () => {
    const summary = await get<UserSummary>('/api/analytics/user');
    expect(Object.keys(summary).sort()).toEqual(['lastScanAt', 'qrCodeScans', 'totalQRCodes', 'totalScans']);
    expect(summary).toEqual({
      totalQRCodes: 3,
      totalScans: 18,
      qrCodeScans: [
        { id: codes.A.id, name: 'Menu', type: 'url', scans: 12 },
        { id: codes.B.id, name: 'Flyer', type: 'url', scans: 6 },
        { id: codes.C.id, name: 'Never scanned', type: 'url', scans: 0 },
      ],
      lastScanAt: '2026-11-03T09:00:00.000Z',
    });
  });

  it('user summary without bots: bot scans leave the totals and the last scan time', async () => {
    expect(await get<UserSummary>('/api/analytics/user?excludeBots=true')).toEqual({
      totalQRCodes: 3,
      totalScans: 16,
      qrCodeScans: [
        { id: codes.A.id, name: 'Menu', type: 'url', scans: 11 },
        { id: codes.B.id, name: 'Flyer', type: 'url', scans: 5 },
        { id: codes.C.id, name: 'Never scanned', type: 'url', scans: 0 },
      ],
      // b1 (09:00) is a bot: the last human scan is t2.
      lastScanAt: '2026-11-03T05:05:00.000Z',
    });
  });

  it('user summary over a period counts only its scans; all time without days', async () => {
    // UTC, 7 days: 2026-10-28 00:00Z on — s1 and s2 are older.
    const week = await get<UserSummary>('/api/analytics/user?days=7');
    expect(week.totalScans).toBe(16);
    expect(week.qrCodeScans.map((c) => c.scans)).toEqual([10, 6, 0]);
    // 365 days: 2025-11-04 on — only s1 (2025-06-15) is older.
    expect((await get<UserSummary>('/api/analytics/user?days=365')).totalScans).toBe(17);
    // New York, 1 day: from 2026-11-03 00:00 EST = 05:00Z — t2 and b1.
    const today = await get<UserSummary>(`/api/analytics/user?days=1&tz=${NY}`);
    expect(today.totalScans).toBe(2);
    expect(today.qrCodeScans).toEqual([
      { id: codes.A.id, name: 'Menu', type: 'url', scans: 2 },
      { id: codes.B.id, name: 'Flyer', type: 'url', scans: 0 },
      { id: codes.C.id, name: 'Never scanned', type: 'url', scans: 0 },
    ]);
  });

  it('user summary of a user without scans', async () => {
    const { cookie } = await signedInUser(t(), 'carol');
    expect(await get<UserSummary>('/api/analytics/user', cookie)).toEqual({
      totalQRCodes: 0,
      totalScans: 0,
      qrCodeScans: [],
      lastScanAt: null,
    });
  });

  // ---- GET /api/analytics/daily --------------------------------------------------------------------

  it('daily: one entry per UTC day of the last 7 by default, zero days included', async () => {
    const expected: DailyCount[] = [
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 6 }, // d1 d2 d3 d4 r1 r2
      { date: '2026-11-02', count: 7 }, // n1 n2 b2 k1 i1 k2 i2
      { date: '2026-11-03', count: 3 }, // t1 t2 b1
    ];
    expect(await get<DailyCount[]>('/api/analytics/daily')).toEqual(expected);
    expect(await get<DailyCount[]>('/api/analytics/daily?days=7&tz=UTC')).toEqual(expected);
  });

  it('daily in New York: the 25-hour 2026-11-01 holds 00:30 EDT to 23:50 EST; 23:55 is the day before 00:05', async () => {
    expect(await get<DailyCount[]>(`/api/analytics/daily?days=7&tz=${NY}`)).toEqual([
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 7 }, // d1 (00:30 EDT) d2 d3 d4 r1 r2 n1 (23:50 EST)
      { date: '2026-11-02', count: 7 }, // n2 (00:10) b2 k1 i1 k2 i2 t1 (23:55)
      { date: '2026-11-03', count: 2 }, // t2 (00:05) b1
    ]);
    // The period starts at local midnight before the change: 2026-11-01 00:00 EDT = 04:00Z.
    expect(await get<DailyCount[]>(`/api/analytics/daily?days=3&tz=${NY}`)).toEqual([
      { date: '2026-11-01', count: 7 },
      { date: '2026-11-02', count: 7 },
      { date: '2026-11-03', count: 2 },
    ]);
  });

  it('daily in Kolkata (+5:30): 23:50 and 23:55 IST stay on 11-02, 00:10 IST is 11-03', async () => {
    expect(await get<DailyCount[]>(`/api/analytics/daily?days=3&tz=${KOLKATA}`)).toEqual([
      { date: '2026-11-01', count: 5 }, // d1 d2 d3 d4 r1 (23:30)
      { date: '2026-11-02', count: 7 }, // r2 (01:30) n1 n2 b2 k1 i1 (23:50) k2 (23:55)
      { date: '2026-11-03', count: 4 }, // i2 (00:10) t1 t2 b1
    ]);
  });

  it('daily in Kathmandu (+5:45): 23:50 NPT stays on 11-02, 00:05/00:10/00:25 NPT are 11-03', async () => {
    expect(await get<DailyCount[]>(`/api/analytics/daily?days=3&tz=${KATHMANDU}`)).toEqual([
      { date: '2026-11-01', count: 5 }, // d1 d2 d3 d4 r1 (23:45)
      { date: '2026-11-02', count: 5 }, // r2 (01:45) n1 n2 b2 k1 (23:50)
      { date: '2026-11-03', count: 6 }, // i1 (00:05) k2 (00:10) i2 (00:25) t1 t2 b1
    ]);
  });

  it('daily: days=1 is local today only; days=365 is a year of entries ending today', async () => {
    expect(await get<DailyCount[]>('/api/analytics/daily?days=1')).toEqual([
      { date: '2026-11-03', count: 3 },
    ]);
    expect(await get<DailyCount[]>(`/api/analytics/daily?days=1&tz=${NY}`)).toEqual([
      { date: '2026-11-03', count: 2 },
    ]);
    const year = await get<DailyCount[]>('/api/analytics/daily?days=365');
    expect(year).toHaveLength(365);
    expect(year[0]).toEqual({ date: '2025-11-04', count: 0 });
    expect(year[364]).toEqual({ date: '2026-11-03', count: 3 });
    // Consecutive dates, no gaps or repeats.
    for (let i = 1; i < year.length; i++)
      expect(Date.parse(year[i]!.date) - Date.parse(year[i - 1]!.date)).toBe(86_400_000);
    expect(year.filter((d) => d.count > 0)).toEqual([
      { date: '2026-10-01', count: 1 },
      { date: '2026-11-01', count: 6 },
      { date: '2026-11-02', count: 7 },
      { date: '2026-11-03', count: 3 },
    ]);
  });

  it('daily without bots', async () => {
    expect(await get<DailyCount[]>(`/api/analytics/daily?days=3&tz=${NY}&excludeBots=true`)).toEqual([
      { date: '2026-11-01', count: 7 },
      { date: '2026-11-02', count: 6 }, // b2
      { date: '2026-11-03', count: 1 }, // b1
    ]);
  });

  // ---- GET /api/analytics/hourly -------------------------------------------------------------------

  it('hourly: 24 local hours of all scans, in UTC and in each zone', async () => {
    const utc = await get<HourlyCount[]>('/api/analytics/hourly');
    expect(utc).toEqual(hours({ 4: 3, 5: 3, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 12: 1, 18: 5, 20: 1 }));
    // New York: d2 (01:30 EDT) and d3 (01:30 EST) share hour 1 of the day summer time ended.
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${NY}`)).toEqual(
      hours({ 0: 3, 1: 2, 2: 1, 4: 2, 6: 1, 7: 1, 13: 5, 15: 1, 23: 2 }),
    );
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${KOLKATA}`)).toEqual(
      hours({ 0: 1, 1: 1, 10: 5, 11: 1, 12: 1, 13: 2, 14: 1, 15: 1, 17: 1, 23: 4 }),
    );
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${KATHMANDU}`)).toEqual(
      hours({ 0: 3, 1: 1, 10: 5, 11: 1, 12: 1, 13: 2, 14: 1, 15: 1, 17: 1, 23: 2 }),
    );
  });

  it('hourly over a period and without bots', async () => {
    // New York, 2 days: from 2026-11-02 00:00 EST = 05:00Z.
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?days=2&tz=${NY}`)).toEqual(
      hours({ 0: 2, 4: 1, 7: 1, 13: 4, 23: 1 }),
    );
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?days=2&tz=${NY}&excludeBots=true`)).toEqual(
      hours({ 0: 2, 13: 4, 23: 1 }),
    );
    // Kathmandu, 1 day: from 2026-11-03 00:00 NPT = 2026-11-02T18:15Z.
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?days=1&tz=${KATHMANDU}`)).toEqual(
      hours({ 0: 3, 10: 2, 14: 1 }),
    );
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${NY}&excludeBots=true`)).toEqual(
      hours({ 0: 3, 1: 2, 2: 1, 4: 1, 6: 1, 13: 5, 15: 1, 23: 2 }),
    );
  });

  // ---- GET /api/analytics/devices ------------------------------------------------------------------

  it('devices: bots are their own category unless excluded; periods count only their scans', async () => {
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices'),
      [
        { device: 'Mobile', count: 9 },
        { device: 'Desktop', count: 4 },
        { device: 'Tablet', count: 2 },
        { device: 'Bot', count: 2 },
        { device: 'Unknown', count: 1 }, // t1: no device recorded
      ],
      (d) => d.device,
    );
    expect(await get<DeviceCount[]>('/api/analytics/devices?excludeBots=true')).toEqual([
      { device: 'Mobile', count: 9 },
      { device: 'Desktop', count: 4 },
      { device: 'Tablet', count: 2 },
      { device: 'Unknown', count: 1 },
    ]);
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices?days=7'),
      [
        { device: 'Mobile', count: 8 },
        { device: 'Desktop', count: 3 },
        { device: 'Tablet', count: 2 },
        { device: 'Bot', count: 2 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices?days=365'),
      [
        { device: 'Mobile', count: 9 },
        { device: 'Desktop', count: 3 },
        { device: 'Tablet', count: 2 },
        { device: 'Bot', count: 2 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices?days=1'),
      [
        { device: 'Mobile', count: 1 },
        { device: 'Bot', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
  });

  // ---- GET /api/analytics/locations ----------------------------------------------------------------

  const allLocations: LocationCount[] = [
    { location: 'Unknown', count: 4 }, // d2 d3 b2 t1 (no location recorded)
    { location: 'Berlin, Germany', count: 2 }, // s2 t2 — not Bob's x3
    { location: 'Delhi, India', count: 2 },
    { location: 'Paris, France', count: 1 },
    { location: 'Lisbon, Portugal', count: 1 },
    { location: 'Madrid, Spain', count: 1 },
    { location: 'New York, United States', count: 1 },
    { location: 'Boston, United States', count: 1 },
    { location: 'Kathmandu, Nepal', count: 1 },
    { location: 'Mumbai, India', count: 1 },
    { location: 'Pokhara, Nepal', count: 1 },
    { location: 'Chennai, India', count: 1 },
    { location: 'Mountain View, United States', count: 1 },
  ];

  it('locations: all time, with and without bots', async () => {
    expectRanked(await get<LocationCount[]>('/api/analytics/locations'), allLocations, (l) => l.location);
    expectRanked(
      await get<LocationCount[]>('/api/analytics/locations?excludeBots=true'),
      [
        { location: 'Unknown', count: 3 },
        ...allLocations.filter(
          (l) => l.location !== 'Unknown' && l.location !== 'Mountain View, United States',
        ),
      ],
      (l) => l.location,
    );
  });

  it('locations, devices and performance of periods that start mid-UTC-day are exact at the edge', async () => {
    // New York, 2 days: from 2026-11-02T05:00Z. n1 (04:50Z) is out, n2 (05:10Z) is in.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=2&tz=${NY}`),
      [
        { location: 'Unknown', count: 2 }, // b2 t1
        { location: 'Boston, United States', count: 1 },
        { location: 'Kathmandu, Nepal', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    // Without bots: b2 (a bot at 12:00Z) sits in the ragged first UTC day, b1 in the whole day after.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=2&tz=${NY}&excludeBots=true`),
      [
        { location: 'Unknown', count: 1 }, // t1
        { location: 'Boston, United States', count: 1 },
        { location: 'Kathmandu, Nepal', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<DeviceCount[]>(`/api/analytics/devices?days=2&tz=${NY}`),
      [
        { device: 'Mobile', count: 4 }, // k1 i1 k2 t2
        { device: 'Bot', count: 2 },
        { device: 'Desktop', count: 1 },
        { device: 'Tablet', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<PerformanceRow[]>(`/api/analytics/performance?days=2&tz=${NY}`),
      perf(6, 3),
      (p) => p.qrCodeId,
    );
    expectRanked(
      await get<PerformanceRow[]>(`/api/analytics/performance?days=2&tz=${NY}&excludeBots=true`),
      perf(5, 2),
      (p) => p.qrCodeId,
    );

    // New York, 1 day: from 2026-11-03T05:00Z. t1 (04:55Z) is out.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=1&tz=${NY}`),
      [
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=1&tz=${NY}`)).toEqual(perf(2, 0));

    // Kolkata, 1 day: from 2026-11-02T18:30Z. i1 (18:20Z) and k2 (18:25Z) are out, i2 (18:40Z) is in.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=1&tz=${KOLKATA}`),
      [
        { location: 'Chennai, India', count: 1 },
        { location: 'Unknown', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<DeviceCount[]>(`/api/analytics/devices?days=1&tz=${KOLKATA}`),
      [
        { device: 'Mobile', count: 1 },
        { device: 'Tablet', count: 1 },
        { device: 'Bot', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=1&tz=${KOLKATA}`)).toEqual(
      perf(3, 1),
    );

    // Kathmandu, 1 day: from 2026-11-02T18:15Z. k1 (18:05Z) is out, i1 (18:20Z) and k2 (18:25Z) are in.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=1&tz=${KATHMANDU}`),
      [
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Unknown', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<DeviceCount[]>(`/api/analytics/devices?days=1&tz=${KATHMANDU}`),
      [
        { device: 'Mobile', count: 3 },
        { device: 'Tablet', count: 1 },
        { device: 'Bot', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=1&tz=${KATHMANDU}`)).toEqual(
      perf(4, 2),
    );

    // Kolkata, 2 days: from 2026-11-01T18:30Z — a ragged evening (r1 at 18:00Z out, r2 at 20:00Z in)
    // followed by two whole UTC days.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=2&tz=${KOLKATA}`),
      [
        { location: 'Unknown', count: 2 }, // b2 t1
        { location: 'Madrid, Spain', count: 1 },
        { location: 'New York, United States', count: 1 },
        { location: 'Boston, United States', count: 1 },
        { location: 'Kathmandu, Nepal', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=2&tz=${KOLKATA}&excludeBots=true`),
      [
        { location: 'Unknown', count: 1 },
        { location: 'Madrid, Spain', count: 1 },
        { location: 'New York, United States', count: 1 },
        { location: 'Boston, United States', count: 1 },
        { location: 'Kathmandu, Nepal', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<DeviceCount[]>(`/api/analytics/devices?days=2&tz=${KOLKATA}`),
      [
        { device: 'Mobile', count: 5 }, // n1 k1 i1 k2 t2
        { device: 'Desktop', count: 2 }, // r2 n2
        { device: 'Bot', count: 2 },
        { device: 'Tablet', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=2&tz=${KOLKATA}`)).toEqual(
      perf(8, 3),
    );
    expect(
      await get<PerformanceRow[]>(`/api/analytics/performance?days=2&tz=${KOLKATA}&excludeBots=true`),
    ).toEqual(perf(7, 2));

    // New York, 3 days: from 2026-11-01 00:00 EDT = 04:00Z (not 05:00Z): d1 at 04:30Z is in.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=3&tz=${NY}`),
      [
        { location: 'Unknown', count: 4 },
        { location: 'Delhi, India', count: 2 },
        ...allLocations.filter((l) => l.count === 1 && l.location !== 'Paris, France'),
        { location: 'Berlin, Germany', count: 1 }, // t2; s2 is older
      ],
      (l) => l.location,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=3&tz=${NY}`)).toEqual(perf(10, 6));
  });

  // ---- GET /api/analytics/performance --------------------------------------------------------------

  it('performance: every code of the caller, the never-scanned one with 0, most scanned first', async () => {
    const all = await get<PerformanceRow[]>('/api/analytics/performance');
    expect(all).toEqual(perf(12, 6));
    for (const row of all) expect(Object.keys(row).sort()).toEqual(['count', 'name', 'qrCodeId', 'type']);
    expect(await get<PerformanceRow[]>('/api/analytics/performance?excludeBots=true')).toEqual(perf(11, 5));
    // 90 days (from 2026-08-06): s2 (2026-10-01) in, s1 out; 30 days (from 2026-10-05): both out.
    expect(await get<PerformanceRow[]>('/api/analytics/performance?days=90')).toEqual(perf(11, 6));
    expect(await get<PerformanceRow[]>('/api/analytics/performance?days=30')).toEqual(perf(10, 6));
  });

  // ---- GET /api/analytics/qr-codes/{id} ------------------------------------------------------------

  function historyRow(label: string) {
    const s = scanByLabel.get(label)!;
    const device = s.device ?? 'Unknown';
    return {
      id: scanId.get(label)!,
      timestamp: s.at,
      userAgent: s.ua,
      location: s.location,
      ipAddress: s.ip,
      device,
    };
  }

  function withoutDeviceName(rows: ScanHistoryRow[]) {
    return rows.map(({ deviceName, ...rest }) => {
      expect(deviceName === null || typeof deviceName === 'string').toBe(true);
      if (rest.userAgent === null) expect(deviceName).toBeNull();
      return rest;
    });
  }

  it('per-code: the code, a page of 10 newest scans, page 2, totals, unique devices and places', async () => {
    const code = await get<QrCode>(`/api/qr-codes/${codes.A.id}`);
    const page1 = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}`);
    expect(page1.qrCode).toEqual(code);
    expect(Object.keys(page1.scans[0]!).sort()).toEqual(
      ['device', 'deviceName', 'id', 'ipAddress', 'location', 'timestamp', 'userAgent'].sort(),
    );
    expect(withoutDeviceName(page1.scans)).toEqual(
      ['b1', 't2', 't1', 'k2', 'k1', 'n2', 'n1', 'r2', 'd3', 'd2'].map(historyRow),
    );
    const { qrCode: _code, scans: _scans, devices: _devices, ...totals } = page1;
    expect(totals).toEqual({
      page: 1,
      pageSize: 10,
      totalPages: 2,
      totalScans: 12,
      // Desktop, Mobile, Tablet, Unknown (t1) and Bot (b1).
      uniqueDevices: 5,
      // Paris, Berlin (s2 t2), ip 10.0.0.1 (d2 'Unknown', t1 no location), ip 10.0.0.2 (d3), Madrid,
      // New York, Boston, Kathmandu, Pokhara, Mountain View.
      uniqueLocations: 10,
    });
    expectRanked(
      page1.devices,
      [
        { device: 'Mobile', count: 6 },
        { device: 'Desktop', count: 3 },
        { device: 'Tablet', count: 1 },
        { device: 'Bot', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );

    const page2 = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}?page=2`);
    expect(withoutDeviceName(page2.scans)).toEqual(['s2', 's1'].map(historyRow));
    expect(page2.page).toBe(2);
    expect(page2.totalPages).toBe(2);
    expect((await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}?page=3`)).scans).toEqual([]);
  });

  it('per-code: IP addresses as stored, and unique places of a code with an unknown address', async () => {
    const a = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}`);
    const byLabel = (label: string) => a.scans.find((s) => s.id === scanId.get(label));
    expect(byLabel('r2')?.ipAddress).toBe('2001:db8::8');
    expect(byLabel('n2')?.ipAddress).toBe('198.51.100.0');
    expect(byLabel('t1')).toMatchObject({
      ipAddress: '10.0.0.1',
      location: null,
      userAgent: null,
      device: 'Unknown',
    });

    const b = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.B.id}`);
    expect(withoutDeviceName(b.scans)).toEqual(['i2', 'i1', 'b2', 'r1', 'd4', 'd1'].map(historyRow));
    expect(b.scans.find((s) => s.id === scanId.get('b2'))?.ipAddress).toBeNull();
    // Delhi (d1 d4), Lisbon, Mumbai, Chennai, and b2 with neither location nor address.
    expect(b.uniqueLocations).toBe(5);
    expect(b.uniqueDevices).toBe(4);
    expect(b.totalPages).toBe(1);

    const c = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.C.id}`);
    expect(c.qrCode.id).toBe(codes.C.id);
    const { qrCode: _c, ...neverScanned } = c;
    expect(neverScanned).toEqual({
      scans: [],
      page: 1,
      pageSize: 10,
      totalPages: 1,
      totalScans: 0,
      uniqueLocations: 0,
      uniqueDevices: 0,
      devices: [],
    });
  });

  it('per-code without bots: the bot scan leaves the history, totals, devices and places', async () => {
    const page1 = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}?excludeBots=true`);
    expect(withoutDeviceName(page1.scans)).toEqual(
      ['t2', 't1', 'k2', 'k1', 'n2', 'n1', 'r2', 'd3', 'd2', 's2'].map(historyRow),
    );
    expect(page1.totalScans).toBe(11);
    expect(page1.totalPages).toBe(2);
    expect(page1.uniqueDevices).toBe(4);
    expect(page1.devices.find((d) => d.device === 'Bot')).toBeUndefined();
    // Mountain View was only ever a bot's place.
    expect(page1.uniqueLocations).toBe(9);
    const page2 = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}?excludeBots=true&page=2`);
    expect(withoutDeviceName(page2.scans)).toEqual([historyRow('s1')]);
  });

  // ---- GET /api/analytics/qr-codes/{id}/daily ------------------------------------------------------

  it("per-code daily: the code's own scans per local day, zero days included", async () => {
    expect(await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily?days=7&tz=${NY}`)).toEqual([
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 4 }, // d2 d3 r2 n1
      { date: '2026-11-02', count: 4 }, // n2 k1 k2 t1
      { date: '2026-11-03', count: 2 }, // t2 b1
    ]);
    // Default: 7 UTC days.
    expect(await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily`)).toEqual([
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 3 }, // d2 d3 r2
      { date: '2026-11-02', count: 4 }, // n1 n2 k1 k2
      { date: '2026-11-03', count: 3 }, // t1 t2 b1
    ]);
    expect(
      await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily?days=3&tz=${KATHMANDU}`),
    ).toEqual([
      { date: '2026-11-01', count: 2 }, // d2 d3
      { date: '2026-11-02', count: 4 }, // r2 (01:45) n1 n2 k1 (23:50)
      { date: '2026-11-03', count: 4 }, // k2 (00:10) t1 t2 b1
    ]);
    expect(
      await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.B.id}/daily?days=3&tz=${KOLKATA}`),
    ).toEqual([
      { date: '2026-11-01', count: 3 }, // d1 d4 r1 (23:30)
      { date: '2026-11-02', count: 2 }, // b2 i1 (23:50)
      { date: '2026-11-03', count: 1 }, // i2 (00:10)
    ]);
    expect(
      await get<DailyCount[]>(
        `/api/analytics/qr-codes/${codes.B.id}/daily?days=3&tz=${KOLKATA}&excludeBots=true`,
      ),
    ).toEqual([
      { date: '2026-11-01', count: 3 },
      { date: '2026-11-02', count: 1 },
      { date: '2026-11-03', count: 1 },
    ]);
    expect(await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.C.id}/daily?days=2`)).toEqual([
      { date: '2026-11-02', count: 0 },
      { date: '2026-11-03', count: 0 },
    ]);
    const year = await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily?days=365`);
    expect(year).toHaveLength(365);
    expect(year.filter((d) => d.count > 0)).toEqual([
      { date: '2026-10-01', count: 1 },
      { date: '2026-11-01', count: 3 },
      { date: '2026-11-02', count: 4 },
      { date: '2026-11-03', count: 3 },
    ]);
  });

  // ---- Input validation -----------------------------------------------------------------------------

  const periodPaths = () => [
    '/api/analytics/user',
    `/api/analytics/qr-codes/${codes.A.id}/daily`,
    '/api/analytics/daily',
    '/api/analytics/devices',
    '/api/analytics/hourly',
    '/api/analytics/locations',
    '/api/analytics/performance',
  ];

  it('days outside 1–365 or not a whole number → 400 naming days; 1 and 365 are accepted', async () => {
    for (const path of periodPaths()) {
      for (const days of ['0', '366', 'abc', '-1', '1.5']) {
        const res = await call(t().app, 'GET', `${path}?days=${days}`, { cookie: aliceCookie });
        const body = expectRestError(res, 400, 'BAD_REQUEST');
        expect(body.message, `${path}?days=${days}`).toMatch(/days/);
        expect(body.issues?.map((i) => i.path)).toEqual(['days']);
      }
      for (const days of ['1', '365']) {
        const res = await call(t().app, 'GET', `${path}?days=${days}`, { cookie: aliceCookie });
        expect(res.statusCode, `${path}?days=${days}: ${res.body}`).toBe(200);
      }
    }
  });

  it('a time zone that is not an IANA zone → 400 naming tz, on every path', async () => {
    const paths = [...periodPaths(), `/api/analytics/qr-codes/${codes.A.id}`];
    for (const path of paths) {
      for (const tz of ['Mars/Olympus_Mons', 'not a zone', 'UTC+25']) {
        const res = await call(t().app, 'GET', `${path}?tz=${encodeURIComponent(tz)}`, {
          cookie: aliceCookie,
        });
        const body = expectRestError(res, 400, 'BAD_REQUEST');
        expect(body.message, `${path}?tz=${tz}`).toMatch(/\btz\b/);
        expect(body.issues?.map((i) => i.path)).toEqual(['tz']);
      }
    }
    const res = await call(t().app, 'GET', '/api/analytics/devices?excludeBots=maybe', {
      cookie: aliceCookie,
    });
    expect(expectRestError(res, 400, 'BAD_REQUEST').message).toMatch(/excludeBots/);
  });

  // ---- Ownership and sign-in ------------------------------------------------------------------------

  it("another user's code is 404 on both per-code paths, as is a missing one", async () => {
    for (const path of [
      `/api/analytics/qr-codes/${codes.D.id}`,
      `/api/analytics/qr-codes/${codes.D.id}/daily`,
    ]) {
      expectRestError(await call(t().app, 'GET', path, { cookie: aliceCookie }), 404, 'NOT_FOUND');
    }
    for (const path of ['/api/analytics/qr-codes/987654', '/api/analytics/qr-codes/987654/daily?days=7']) {
      expectRestError(await call(t().app, 'GET', path, { cookie: aliceCookie }), 404, 'NOT_FOUND');
    }
    expectRestError(await call(t().app, 'GET', '/api/analytics/qr-codes/abc', { cookie: aliceCookie }), 400);
    // Bob sees his own code, and only his scans.
    const bobs = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.D.id}`, bobCookie);
    expect(bobs.totalScans).toBe(4);
    expect(bobs.scans.map((s) => s.id).sort()).toEqual(
      ['x1', 'x2', 'x3', 'x4'].map((l) => scanId.get(l)).sort(),
    );
    expectRestError(
      await call(t().app, 'GET', `/api/analytics/qr-codes/${codes.A.id}`, { cookie: bobCookie }),
      404,
    );
  });

  it("Bob's analytics count only Bob's scans", async () => {
    expect(await get<UserSummary>('/api/analytics/user', bobCookie)).toEqual({
      totalQRCodes: 1,
      totalScans: 4,
      qrCodeScans: [{ id: codes.D.id, name: "Bob's poster", type: 'url', scans: 4 }],
      lastScanAt: '2026-11-03T06:00:00.000Z',
    });
    expect(await get<DailyCount[]>('/api/analytics/daily?days=3', bobCookie)).toEqual([
      { date: '2026-11-01', count: 1 },
      { date: '2026-11-02', count: 1 },
      { date: '2026-11-03', count: 1 },
    ]);
    expect(await get<HourlyCount[]>('/api/analytics/hourly', bobCookie)).toEqual(
      hours({ 5: 1, 6: 1, 8: 1, 12: 1 }),
    );
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices', bobCookie),
      [
        { device: 'Desktop', count: 2 },
        { device: 'Mobile', count: 1 },
        { device: 'Bot', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<LocationCount[]>('/api/analytics/locations', bobCookie),
      [
        { location: 'Tokyo, Japan', count: 2 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Paris, France', count: 1 },
      ],
      (l) => l.location,
    );
    expect(await get<PerformanceRow[]>('/api/analytics/performance', bobCookie)).toEqual([
      { qrCodeId: codes.D.id, name: "Bob's poster", type: 'url', count: 4 },
    ]);
  });

  it('signed out: 401 on all eight paths', async () => {
    for (const path of [
      '/api/analytics/user',
      `/api/analytics/qr-codes/${codes.A.id}`,
      `/api/analytics/qr-codes/${codes.A.id}/daily?days=7`,
      '/api/analytics/daily?days=7',
      '/api/analytics/devices',
      '/api/analytics/hourly',
      '/api/analytics/locations',
      '/api/analytics/performance',
    ]) {
      expectRestError(await call(t().app, 'GET', path), 401, 'UNAUTHORIZED');
      expectRestError(await call(t().app, 'GET', path, { cookie: 'not-a-session' }), 401, 'UNAUTHORIZED');
    }
  });

  // ---- The tRPC twins ---------------------------------------------------------------------------------

  async function trpc(procedure: string, input: unknown, cookie = aliceCookie): Promise<Response> {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return call(t().app, 'GET', `/trpc/analytics.${procedure}${query}`, { cookie });
  }
  async function trpcData<T>(procedure: string, input: unknown): Promise<T> {
    const res = await trpc(procedure, input);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ result: { data: T } }>().result.data;
  }

  it('the tRPC procedures answer exactly what their REST twins answer', async () => {
    const pairs: [string, unknown, string][] = [
      ['user', undefined, '/api/analytics/user'],
      ['user', { days: 7, excludeBots: true }, '/api/analytics/user?days=7&excludeBots=true'],
      ['daily', { days: 7, tz: NY }, `/api/analytics/daily?days=7&tz=${NY}`],
      ['daily', undefined, '/api/analytics/daily'],
      ['qrCode', { id: codes.A.id, page: 2 }, `/api/analytics/qr-codes/${codes.A.id}?page=2`],
      [
        'qrCodeDaily',
        { id: codes.A.id, days: 3, tz: KATHMANDU },
        `/api/analytics/qr-codes/${codes.A.id}/daily?days=3&tz=${KATHMANDU}`,
      ],
      ['devices', { days: 2, tz: KOLKATA }, `/api/analytics/devices?days=2&tz=${KOLKATA}`],
      ['hourly', { tz: NY, excludeBots: true }, `/api/analytics/hourly?tz=${NY}&excludeBots=true`],
      ['locations', { days: 1, tz: KATHMANDU }, `/api/analytics/locations?days=1&tz=${KATHMANDU}`],
      ['performance', { days: 2, tz: NY }, `/api/analytics/performance?days=2&tz=${NY}`],
    ];
    for (const [procedure, input, url] of pairs) {
      expect(await trpcData(procedure, input), `${procedure} ${JSON.stringify(input)}`).toEqual(
        await get(url),
      );
    }
    // And they refuse the same things.
    const bad = await trpc('daily', { days: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { data: { code: string } } }>().error.data.code).toBe('BAD_REQUEST');
    const theirs = await trpc('qrCode', { id: codes.D.id });
    expect(theirs.statusCode).toBe(404);
    expect((await trpc('devices', undefined, '')).statusCode).toBe(401);
  });

  // ---- Deleting a code ------------------------------------------------------------------------------

  it("deleting a code takes its scans out of the owner's daily, hourly, devices and every other answer", async () => {
    const res = await call(t().app, 'DELETE', `/api/qr-codes/${codes.A.id}`, { cookie: aliceCookie });
    expect(res.statusCode, res.body).toBe(200);
    // Only B's scans remain: d1 d4 r1 b2 i1 i2.
    expect(await get<DailyCount[]>('/api/analytics/daily')).toEqual([
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 3 },
      { date: '2026-11-02', count: 3 },
      { date: '2026-11-03', count: 0 },
    ]);
    expect(await get<HourlyCount[]>('/api/analytics/hourly')).toEqual(hours({ 4: 1, 7: 1, 12: 1, 18: 3 }));
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${NY}`)).toEqual(
      hours({ 0: 1, 2: 1, 7: 1, 13: 3 }),
    );
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices'),
      [
        { device: 'Mobile', count: 3 },
        { device: 'Desktop', count: 1 },
        { device: 'Tablet', count: 1 },
        { device: 'Bot', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<LocationCount[]>('/api/analytics/locations'),
      [
        { location: 'Delhi, India', count: 2 },
        { location: 'Lisbon, Portugal', count: 1 },
        { location: 'Unknown', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Chennai, India', count: 1 },
      ],
      (l) => l.location,
    );
    expect(await get<PerformanceRow[]>('/api/analytics/performance')).toEqual([
      { qrCodeId: codes.B.id, name: 'Flyer', type: 'url', count: 6 },
      { qrCodeId: codes.C.id, name: 'Never scanned', type: 'url', count: 0 },
    ]);
    expect(await get<UserSummary>('/api/analytics/user')).toEqual({
      totalQRCodes: 2,
      totalScans: 6,
      qrCodeScans: [
        { id: codes.B.id, name: 'Flyer', type: 'url', scans: 6 },
        { id: codes.C.id, name: 'Never scanned', type: 'url', scans: 0 },
      ],
      lastScanAt: '2026-11-02T18:40:00.000Z',
    });
    expectRestError(
      await call(t().app, 'GET', `/api/analytics/qr-codes/${codes.A.id}`, { cookie: aliceCookie }),
      404,
    );
    // Bob's answers are untouched.
    expect((await get<UserSummary>('/api/analytics/user', bobCookie)).totalScans).toBe(4);
  });
});
