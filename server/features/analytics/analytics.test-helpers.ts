import { beforeEach, expect } from 'vitest';
import type { DailyCount, HourlyCount, PerformanceRow } from '../../../src/analytics/analytics.schema.js';
import type { QrCodeRow, UserRow } from '../../db/database.js';
import { insertQrRow } from '../../test/fixtures.js';
import { call, createTestClock, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import type { TestDb } from '../../test/test-db.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import type { ScanToStore } from '../scans/rollup-model.js';

/**
 * The fixture shared by the analytics.rest.*.test.ts files: the eight analytics paths against one
 * hand-computed fixture. Every expected answer below was worked
 * out by hand from the scan table (`SCANS`) and the local times noted beside each scan; none is
 * computed by the code under test.
 *
 * The app's clock stands at NOW = Tuesday 2026-11-03 12:00 UTC. Local "today" is 2026-11-03 in every
 * zone used here: New York 07:00 EST, Kolkata 17:30 IST, Kathmandu 17:45 NPT.
 * America/New_York left summer time on Sunday 2026-11-01 at 06:00 UTC (02:00 EDT → 01:00 EST), so
 * that local day is 25 hours long: 2026-11-01T04:00Z to 2026-11-02T05:00Z.
 */
export const NOW = new Date('2026-11-03T12:00:00.000Z');

export const NY = 'America/New_York';
export const KOLKATA = 'Asia/Kolkata'; // +05:30
export const KATHMANDU = 'Asia/Kathmandu'; // +05:45

export const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;

export type CodeKey = 'A' | 'B' | 'D';

export interface FixtureScan {
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
export const SCANS: FixtureScan[] = [
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

export const scanByLabel = new Map(SCANS.map((s) => [s.label, s]));

/** 24 hourly entries, zero except the hours given. */
export function hours(counts: Record<number, number>): HourlyCount[] {
  return Array.from({ length: 24 }, (_, hour) => ({ hour, count: counts[hour] ?? 0 }));
}

/**
 * A daily series' dates and scans: the fixture's scans carry no visitor hash (as scans stored before
 * unique scanners were counted), so their unique scanners are unknown; unique-scanners.test.ts
 * covers those.
 */
export function scansPerDay(rows: DailyCount[]): { date: string; count: number }[] {
  return rows.map(({ date, count }) => ({ date, count }));
}

/** Ranked answers: counts never increase down the list; ties may come in any order. */
export function expectRanked<T extends { count: number }>(
  actual: T[],
  expected: T[],
  key: (row: T) => string | number,
) {
  for (let i = 1; i < actual.length; i++)
    expect(actual[i - 1]!.count).toBeGreaterThanOrEqual(actual[i]!.count);
  const byKey = (rows: T[]) => [...rows].sort((a, b) => String(key(a)).localeCompare(String(key(b))));
  expect(byKey(actual)).toEqual(byKey(expected));
}

export interface AnalyticsFixture {
  t: () => TestApp;
  /** Alice and the two session cookies, set again before each test. */
  signedIn: { alice: UserRow; aliceCookie: string; bobCookie: string };
  /** Alice's A, B and C and Bob's D; the same object, refilled before each test. */
  codes: Record<CodeKey | 'C', QrCodeRow>;
  /** The stored id of each fixture scan; the same map, refilled before each test. */
  scanId: Map<string, number>;
  /** GET of a path that must answer 200 JSON, by default as Alice. */
  get: <T>(url: string, cookie?: string) => Promise<T>;
  /** The expected performance rows of Alice's three codes, most scanned first. */
  perf: (a: number, b: number, c?: number) => PerformanceRow[];
}

/**
 * The app at NOW with Alice, Bob, their codes and every scan of SCANS stored (in two recorder
 * batches) before each test; call it inside a describeEachDb block.
 */
export function useAnalyticsFixture(getDb: () => TestDb): AnalyticsFixture {
  const t = useTestApp(getDb, { clock: createTestClock(NOW) });
  const signedIn = {} as AnalyticsFixture['signedIn'];
  const codes = {} as AnalyticsFixture['codes'];
  const scanId = new Map<string, number>();

  beforeEach(async () => {
    t().clock.set(NOW);
    const { db } = t();
    const alice = await signedInUser(t(), 'alice');
    const { user: bob, cookie: bobCookie } = await signedInUser(t(), 'bob');
    Object.assign(signedIn, { alice: alice.user, aliceCookie: alice.cookie, bobCookie });
    const created = '2025-01-01T00:00:00.000Z';
    Object.assign(codes, {
      A: await insertQrRow(db, { userId: alice.user.id, name: 'Menu', isDynamic: true, created }),
      B: await insertQrRow(db, { userId: alice.user.id, name: 'Flyer', isDynamic: true, created }),
      C: await insertQrRow(db, { userId: alice.user.id, name: 'Never scanned', isDynamic: true, created }),
      D: await insertQrRow(db, { userId: bob.id, name: "Bob's poster", isDynamic: true, created }),
    });
    const rows: ScanToStore[] = SCANS.map((s) => ({
      owner_id: s.code === 'D' ? bob.id : alice.user.id,
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
    const stored = await db.selectFrom('qr_scans').select(['id', 'qr_code_id', 'at']).execute();
    scanId.clear();
    for (const s of SCANS) {
      const row = stored.find(
        (r) => r.qr_code_id === codes[s.code].id && new Date(Number(r.at)).toISOString() === s.at,
      );
      if (!row) throw new Error(`scan ${s.label} was not stored`);
      scanId.set(s.label, row.id);
    }
  });

  async function get<T>(url: string, cookie = signedIn.aliceCookie): Promise<T> {
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

  return { t, signedIn, codes, scanId, get, perf };
}
