import fc from 'fast-check';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import * as rollupMigration from '../../../migrations/2026-11-22T0800-scan-rollups.js';
import * as leanMigration from '../../../migrations/2026-11-25T2000-lean-scans.js';
import { migrations } from '../../../migrations/index.js';
import { deviceCategories, type DeviceCategory } from '../../../src/analytics/analytics.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { Db } from '../../db/database.js';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { storedScans } from '../../test/stored-scans.js';
import { createTestApp, createTestClock, type TestApp, type TestClock } from '../../test/test-app.js';
import { describeEachDb, type TestDb } from '../../test/test-db.js';
import {
  getCodePerformance as codePerformance,
  getDailyScans as daily,
  getDeviceCounts as devices,
  getHourlyScans as hourly,
  getLocationCounts as locations,
  getQrCodeAnalytics as qrCodeAnalytics,
  getQrCodeDaily as qrCodeDaily,
  getUserSummary as userSummary,
} from '../analytics/analytics.service.js';
import { deleteQrCodeWithScans } from '../qr/qr.repository.js';
import { toUser } from '../users/users.mapper.js';
import { createScanRecorder } from './scan-recorder.js';
import { dictionaryTables } from './scan-columns.js';
import { writeScansWithRollups } from './scan-rollups.js';
import type { ScanToStore } from './rollup-model.js';

/**
 * The rollup tables against the raw scans they summarise, and the analytics answers against a plain
 * computation over the raw scans. The oracle below is written independently of the code under test:
 * its own constants, GROUP BYs in JavaScript over the rows read back from qr_scans, and local dates and
 * hours from Intl — not from time-zone.ts.
 */

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
const DAY = 24 * 60 * MINUTE;
/** Scans fall on the 100 days from here. */
const BASE = Date.UTC(2026, 7, 1); // 2026-08-01, before Chatham's (Sep) and New York's (Nov) changes
const SPAN_DAYS = 100;
const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham'] as const;
const CATEGORIES = ['Mobile', 'Tablet', 'Desktop', 'Bot', 'Unknown'] as const;
const COLUMN: Record<string, 'mobile' | 'tablet' | 'desktop' | 'bot' | 'unknown'> = {
  Mobile: 'mobile',
  Tablet: 'tablet',
  Desktop: 'desktop',
  Bot: 'bot',
  Unknown: 'unknown',
};

// ---- Arbitraries -----------------------------------------------------------------------------------

/**
 * An instant in the span, often exactly on (or 1 ms before) a quarter hour or a UTC midnight, and
 * often in the last four days, where short periods start (and their ragged first UTC day lies).
 */
const instant = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 0, max: SPAN_DAYS - 1 }),
      fc.integer({ min: SPAN_DAYS - 4, max: SPAN_DAYS - 1 }),
    ),
    fc.oneof(
      fc.constant(0),
      fc.constant(DAY - 1),
      fc.integer({ min: 0, max: 95 }).map((q) => q * QUARTER),
      fc.integer({ min: 1, max: 95 }).map((q) => q * QUARTER - 1),
      fc.integer({ min: 0, max: DAY - 1 }),
    ),
  )
  .map(([day, within]) => BASE + day * DAY + within);

/** The UTC offsets (minutes) each zone has in the span: where its local midnights fall. */
const OFFSETS: Record<(typeof ZONES)[number], number[]> = {
  UTC: [0],
  'America/New_York': [-240, -300],
  'Asia/Kolkata': [330],
  'Asia/Kathmandu': [345],
  'Pacific/Chatham': [765, 825],
};

/** A local midnight of the zone in the last days of the span (where periods start), or 1 ms before. */
function localMidnight(tz: (typeof ZONES)[number]): fc.Arbitrary<number> {
  return fc
    .tuple(
      fc.integer({ min: SPAN_DAYS - 5, max: SPAN_DAYS }),
      fc.constantFrom(...OFFSETS[tz]),
      fc.constantFrom(0, -1),
    )
    .map(([day, offset, nudge]) => BASE + day * DAY - offset * MINUTE + nudge)
    .filter((ms) => ms < BASE + SPAN_DAYS * DAY);
}

interface GenScan {
  code: number; // 0, 1: the first user's codes; 2, 3: the second user's
  at: number;
  device: string | null;
  location: string | null;
  ip: string | null;
  /** Its visitor hash; null as a scan stored before unique scanners were counted. */
  visitor: number | null;
}

/** A scan; its time now and then on a local midnight of the zone the property looks from. */
const genScan = (tz: (typeof ZONES)[number]): fc.Arbitrary<GenScan> =>
  fc.record({
    code: fc.integer({ min: 0, max: 3 }),
    at: fc.oneof({ arbitrary: instant, weight: 4 }, { arbitrary: localMidnight(tz), weight: 1 }),
    device: fc.constantFrom(null, 'Mobile', 'Tablet', 'Desktop', 'Bot', 'Unknown'),
    location: fc.constantFrom(null, 'Unknown', 'Berlin, Germany', 'Paris, France', 'Tokyo, Japan'),
    ip: fc.constantFrom(null, '10.0.0.1', '10.0.0.2', '2001:db8::1'),
    // A few visitors (the 48-bit extremes among them), and now and then a scan without a hash.
    visitor: fc.oneof(
      { arbitrary: fc.constant(null), weight: 1 },
      { arbitrary: fc.constantFrom(1, 2, 3, -(2 ** 47), 2 ** 47 - 1), weight: 6 },
    ),
  });

/** How a burst reaches the database. */
type Burst =
  | { via: 'direct'; scans: GenScan[] }
  | { via: 'recorder'; scans: GenScan[]; yields: boolean[]; overlapNext: boolean };

const genBurst = (tz: (typeof ZONES)[number]): fc.Arbitrary<Burst> =>
  fc.oneof(
    fc.record({
      via: fc.constant('direct' as const),
      scans: fc.array(genScan(tz), { minLength: 1, maxLength: 25 }),
    }),
    fc.array(fc.tuple(genScan(tz), fc.boolean()), { minLength: 1, maxLength: 25 }).chain((pairs) =>
      fc.record({
        via: fc.constant('recorder' as const),
        scans: fc.constant(pairs.map((p) => p[0])),
        // Yield to the event loop before this scan: the recorder then splits the burst into batches.
        yields: fc.constant(pairs.map((p) => p[1])),
        // Start the next burst without waiting for this one's answers.
        overlapNext: fc.boolean(),
      }),
    ),
  );

interface View {
  tz: (typeof ZONES)[number];
  days: number | undefined;
  dailyDays: number;
  excludeBots: boolean;
  /** The clock: within the day after the last possible scan. */
  now: number;
}

const genView: fc.Arbitrary<View> = fc.record({
  tz: fc.constantFrom(...ZONES),
  days: fc.option(
    fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constantFrom(7, 30, 90), fc.integer({ min: 1, max: 365 })),
    { nil: undefined },
  ),
  dailyDays: fc.oneof(fc.constantFrom(1, 2, 7, 30, 90), fc.integer({ min: 1, max: 120 })),
  excludeBots: fc.boolean(),
  now: fc.integer({ min: 0, max: DAY - 1 }).map((ms) => BASE + SPAN_DAYS * DAY + ms),
});

// ---- The oracle ------------------------------------------------------------------------------------

interface RawScan {
  id: number;
  codeId: number;
  userId: number;
  ms: number;
  device: string | null;
  location: string | null;
  ip: string | null;
  visitor: number | null;
}

async function rawScans(db: Db): Promise<RawScan[]> {
  const owners = new Map(
    (await db.selectFrom('qr_codes').select(['id', 'user_id']).execute()).map((c) => [c.id, c.user_id]),
  );
  const visitors = new Map(
    (await db.selectFrom('qr_scans').select(['id', 'visitor']).execute()).map((r) => [
      r.id,
      r.visitor === null ? null : Number(r.visitor),
    ]),
  );
  return (await storedScans(db)).map((r) => ({
    visitor: visitors.get(r.id) ?? null,
    id: r.id,
    codeId: r.qr_code_id,
    userId: owners.get(r.qr_code_id)!,
    ms: r.ms,
    device: r.device,
    location: r.location,
    ip: r.ip_address,
  }));
}

const category = (device: string | null): DeviceCategory =>
  (CATEGORIES as readonly string[]).includes(device ?? '') ? (device as DeviceCategory) : 'Unknown';
const isBot = (s: RawScan) => s.device === 'Bot';
const locationOf = (s: RawScan) => s.location ?? 'Unknown';
/** A code's place: its location, or when unknown its address (stored as 'ip:…'), or 'Unknown'. */
const placeOf = (s: RawScan) =>
  s.location !== null && s.location !== 'Unknown' ? s.location : s.ip !== null ? `ip:${s.ip}` : 'Unknown';

type Counts = Record<'mobile' | 'tablet' | 'desktop' | 'bot' | 'unknown', number>;
const zero = (): Counts => ({ mobile: 0, tablet: 0, desktop: 0, bot: 0, unknown: 0 });

function groupCounts<K extends Record<string, number | string>>(
  scans: RawScan[],
  keyOf: (s: RawScan) => K,
): (K & Counts)[] {
  const groups = new Map<string, K & Counts>();
  for (const s of scans) {
    const key = keyOf(s);
    const k = JSON.stringify(key);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { ...key, ...zero() }));
    g[COLUMN[category(s.device)]!] += 1;
  }
  return [...groups.values()];
}

type Row = Record<string, number | string>;

/** Sums `scans` and `bots` per key. */
function groupLocations<K extends Row>(scans: RawScan[], keyOf: (s: RawScan) => K) {
  const groups = new Map<string, K & { scans: number; bots: number }>();
  for (const s of scans) {
    const key = keyOf(s);
    const k = JSON.stringify(key);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { ...key, scans: 0, bots: 0 }));
    g.scans += 1;
    if (isBot(s)) g.bots += 1;
  }
  return [...groups.values()];
}

const quarterOf = (s: RawScan) => Math.floor(s.ms / QUARTER);
const utcDayOf = (s: RawScan) => Math.floor(s.ms / DAY);
/** A person's scan without a visitor hash: its rows' unique scanners are unknown. */
const unknownVisitor = (s: RawScan) => !isBot(s) && s.visitor === null;

/**
 * The scans that are a visitor's first sighting on their code and UTC day: the first stored (lowest
 * id) of a person's scans with the same code, day and hash.
 */
function firstSightings(scans: RawScan[]): Set<RawScan> {
  const first = new Map<string, RawScan>();
  for (const s of [...scans].sort((a, b) => a.id - b.id)) {
    if (isBot(s) || s.visitor === null) continue;
    const key = `${s.codeId}:${utcDayOf(s)}:${s.visitor}`;
    if (!first.has(key)) first.set(key, s);
  }
  return new Set(first.values());
}

/**
 * `unique_scanners` of each group: its first sightings, or null when a scan counted in it had no
 * hash — `gone` holds the scans of a deleted code, whose unknown counts stay in its owner's rows.
 */
function withUniques<K extends Row>(
  rows: (K & Counts)[],
  scans: RawScan[],
  keyOf: (s: RawScan) => K,
  gone: RawScan[] = [],
): Row[] {
  const first = firstSightings(scans);
  const k = (s: RawScan) => JSON.stringify(keyOf(s));
  return rows.map((row) => {
    const key = JSON.stringify(Object.fromEntries(Object.keys(keyOf(scans[0]!)).map((c) => [c, row[c]])));
    const unknown = [...scans, ...gone].some((s) => k(s) === key && unknownVisitor(s));
    return {
      ...row,
      unique_scanners: unknown ? null : scans.filter((s) => k(s) === key && first.has(s)).length,
    };
  });
}

/**
 * What each rollup table must hold: GROUP BYs over the raw scans (`gone`: the scans of a code deleted
 * since; `uniques: false` leaves the unique scanners out, as stored before they were counted).
 */
function expectedRollups(scans: RawScan[], gone: RawScan[] = [], uniques = true): Record<string, Row[]> {
  const quarter = quarterOf;
  const day = utcDayOf;
  const counts = <K extends Row>(keyOf: (s: RawScan) => K, deleted: RawScan[] = []) => {
    const rows = groupCounts(scans, keyOf);
    return uniques
      ? withUniques(rows, scans, keyOf, deleted)
      : rows.map((r) => ({ ...r, unique_scanners: null }));
  };
  const visitors = new Map<string, Row>();
  for (const s of scans)
    if (!isBot(s) && s.visitor !== null)
      visitors.set(`${s.codeId}:${day(s)}:${s.visitor}`, {
        qr_code_id: s.codeId,
        day: day(s),
        visitor: s.visitor,
      });
  return {
    scan_user_quarters: counts((s) => ({ user_id: s.userId, bucket: quarter(s) }), gone),
    scan_code_quarters: counts((s) => ({ qr_code_id: s.codeId, bucket: quarter(s) })),
    scan_code_days: counts((s) => ({ qr_code_id: s.codeId, day: day(s), user_id: s.userId })),
    scan_code_day_visitors: [...visitors.values()],
    scan_code_day_locations: groupLocations(scans, (s) => ({
      qr_code_id: s.codeId,
      day: day(s),
      location: locationOf(s),
      user_id: s.userId,
    })),
    scan_user_day_locations: groupLocations(scans, (s) => ({
      user_id: s.userId,
      day: day(s),
      location: locationOf(s),
    })),
    scan_code_places: groupLocations(scans, (s) => ({ qr_code_id: s.codeId, place: placeOf(s) })),
  };
}

/** The five tables of the rollup design; any other scan_* table must have an oracle above too. */
const REQUIRED_TABLES = [
  'scan_user_quarters',
  'scan_code_quarters',
  'scan_code_days',
  'scan_code_day_locations',
  'scan_code_places',
];

/** The rollup tables that exist (every table named scan_*). */
async function rollupTables(testDb: TestDb): Promise<string[]> {
  const query =
    testDb.dialect === 'postgres'
      ? sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema()`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table'`;
  // The dictionaries, the day's salt and the scan feed's cursors (webhooks, forwarding) are not counts of scans.
  const dictionaries: string[] = [...Object.values(dictionaryTables), 'scan_salts', 'scan_feed_cursors'];
  const names = (await query.execute(testDb.db)).rows
    .map((r) => r.name)
    .filter((n) => n.startsWith('scan_') && !dictionaries.includes(n));
  return names.sort();
}

/** Rows with their keys in one order and numbers as numbers, the rows in one order. */
function canonical(tables: Record<string, Row[]>): Record<string, Row[]> {
  const out: Record<string, Row[]> = {};
  for (const [name, rows] of Object.entries(tables)) {
    out[name] = rows
      .map((r) =>
        Object.fromEntries(
          Object.keys(r)
            .sort()
            .map((k) => [k, typeof r[k] === 'string' || r[k] === null ? r[k] : Number(r[k])]),
        ),
      )
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return out;
}

/** The tables without their unique scanners. */
function withoutUniques(tables: Record<string, Row[]>): Record<string, Row[]> {
  return Object.fromEntries(
    Object.entries(tables).map(([name, rows]) => [
      name,
      rows.map(({ unique_scanners: _uniques, ...row }) => row),
    ]),
  );
}

async function actualRollups(testDb: TestDb): Promise<Record<string, Row[]>> {
  const tables: Record<string, Row[]> = {};
  for (const name of await rollupTables(testDb))
    tables[name] = (await sql<Row>`select * from ${sql.table(name)}`.execute(testDb.db)).rows;
  return canonical(tables);
}

/** Every rollup table against the GROUP BYs of the raw scans. */
async function expectRollupsMatchRawScans(
  testDb: TestDb,
  scans: RawScan[],
  gone: RawScan[] = [],
  uniques = true,
) {
  const tables = await rollupTables(testDb);
  const expected = expectedRollups(scans, gone, uniques);
  expect(tables).toEqual(expect.arrayContaining(REQUIRED_TABLES));
  for (const name of tables) expect(Object.keys(expected), `an oracle for ${name}`).toContain(name);
  expect(await actualRollups(testDb)).toEqual(
    canonical(Object.fromEntries(tables.map((name) => [name, expected[name]!]))),
  );
}

const localParts = new Map<string, Intl.DateTimeFormat>();
/** The local date (YYYY-MM-DD) and hour of an instant in a zone, straight from Intl. */
function local(tz: string, ms: number): { date: string; hour: number } {
  let f = localParts.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    localParts.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
}

/** A calendar date `n` days before `date` (plain calendar arithmetic on the label). */
function daysBefore(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10);
}

function ranked<T extends { count: number }>(rows: T[], key: (r: T) => string | number): T[] {
  for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.count).toBeGreaterThanOrEqual(rows[i]!.count);
  return [...rows].sort((a, b) => (String(key(a)) < String(key(b)) ? -1 : 1));
}

function tally<K>(scans: RawScan[], keyOf: (s: RawScan) => K): Map<K, number> {
  const m = new Map<K, number>();
  for (const s of scans) m.set(keyOf(s), (m.get(keyOf(s)) ?? 0) + 1);
  return m;
}

/**
 * Every analytics answer of one user for one view, checked against the raw scans (`gone`: those of a
 * code deleted since).
 */
async function checkAnalytics(
  t: TestApp,
  user: User,
  codeIds: number[],
  scans: RawScan[],
  view: View,
  gone: RawScan[],
) {
  const { tz, excludeBots } = view;
  const mine = scans.filter((s) => s.userId === user.id);
  const counted = excludeBots ? mine.filter((s) => !isBot(s)) : mine;
  const today = local(tz, view.now).date;
  const inDays = (days: number | undefined) => (s: RawScan) =>
    days === undefined || local(tz, s.ms).date >= daysBefore(today, days - 1);
  const period = counted.filter(inDays(view.days));
  const context = JSON.stringify({ ...view, now: new Date(view.now).toISOString(), user: user.id });

  // Daily: one entry per local date of the period, zero days included.
  const dailyLabels = Array.from({ length: view.dailyDays }, (_, i) =>
    daysBefore(today, view.dailyDays - 1 - i),
  );
  const perDate = tally(counted, (s) => local(tz, s.ms).date);
  const first = firstSightings(scans);
  /**
   * A local date's unique scanners: its first sightings, or null when a quarter hour of it holds a
   * scan without a hash (`also`: a deleted code's scans, still unknown in its owner's quarter hours).
   */
  const uniquesOn = (own: RawScan[], also: RawScan[] = []) => {
    const quarters = new Set(own.map(quarterOf));
    const unknownQuarters = new Set(
      [...own, ...also].filter((s) => unknownVisitor(s) && quarters.has(quarterOf(s))).map(quarterOf),
    );
    return (date: string) => {
      const onDate = own.filter((s) => local(tz, s.ms).date === date);
      if (onDate.some((s) => unknownQuarters.has(quarterOf(s)))) return null;
      return onDate.filter((s) => first.has(s)).length;
    };
  };
  const userUniques = uniquesOn(
    mine,
    gone.filter((s) => s.userId === user.id),
  );
  expect(await daily(t.deps, user, { tz, excludeBots, days: view.dailyDays }), `daily ${context}`).toEqual(
    dailyLabels.map((date) => ({
      date,
      count: perDate.get(date) ?? 0,
      uniqueScanners: userUniques(date),
    })),
  );

  const perHour = tally(period, (s) => local(tz, s.ms).hour);
  expect(await hourly(t.deps, user, view), `hourly ${context}`).toEqual(
    Array.from({ length: 24 }, (_, hour) => ({ hour, count: perHour.get(hour) ?? 0 })),
  );

  const perDevice = tally(period, (s) => category(s.device));
  expect(
    ranked(await devices(t.deps, user, view), (d) => d.device),
    `devices ${context}`,
  ).toEqual(
    [...perDevice]
      .map(([device, count]) => ({ device, count }))
      .sort((a, b) => (a.device < b.device ? -1 : 1)),
  );

  const perLocation = tally(period, locationOf);
  expect(
    ranked(await locations(t.deps, user, view), (l) => l.location),
    `locations ${context}`,
  ).toEqual(
    [...perLocation]
      .map(([location, count]) => ({ location, count }))
      .sort((a, b) => (a.location < b.location ? -1 : 1)),
  );

  const perCode = tally(period, (s) => s.codeId);
  const performance = await codePerformance(t.deps, user, view);
  expect(
    ranked(performance, (p) => p.qrCodeId).map((p) => [p.qrCodeId, p.count]),
    `performance ${context}`,
  ).toEqual(
    [...codeIds].sort((a, b) => (String(a) < String(b) ? -1 : 1)).map((id) => [id, perCode.get(id) ?? 0]),
  );

  const summary = await userSummary(t.deps, user, view);
  const last = counted.reduce((m, s) => Math.max(m, s.ms), -Infinity);
  expect(summary.totalQRCodes, `summary ${context}`).toBe(codeIds.length);
  expect(summary.totalScans, `summary ${context}`).toBe(period.length);
  expect(summary.lastScanAt, `summary ${context}`).toBe(
    last === -Infinity ? null : new Date(last).toISOString(),
  );
  // Each code's daily uniques summed over the period; scans without a hash make it partial.
  const inPeriod = mine.filter(inDays(view.days));
  const periodFirsts = inPeriod.filter((s) => first.has(s)).length;
  if (inPeriod.some(unknownVisitor)) {
    expect(summary.uniqueScannersPartial, `summary uniques ${context}`).toBe(true);
    if (summary.uniqueScanners !== null) expect(summary.uniqueScanners).toBeLessThanOrEqual(periodFirsts);
  } else {
    expect(
      { uniqueScanners: summary.uniqueScanners, partial: summary.uniqueScannersPartial },
      `summary uniques ${context}`,
    ).toEqual({ uniqueScanners: periodFirsts, partial: false });
  }

  for (const id of codeIds) {
    const ofCode = counted.filter((s) => s.codeId === id);
    const answer = await qrCodeAnalytics(t.deps, user, id, { tz, excludeBots, page: 1 });
    const codeDevices = tally(ofCode, (s) => category(s.device));
    expect(answer.totalScans, `code ${id} ${context}`).toBe(ofCode.length);
    expect(answer.totalPages).toBe(Math.max(1, Math.ceil(ofCode.length / 10)));
    expect(ranked(answer.devices, (d) => d.device)).toEqual(
      [...codeDevices]
        .map(([device, count]) => ({ device, count }))
        .sort((a, b) => (a.device < b.device ? -1 : 1)),
    );
    expect(answer.uniqueDevices).toBe(codeDevices.size);
    const ofCodeAll = mine.filter((s) => s.codeId === id);
    const codeFirsts = ofCodeAll.filter((s) => first.has(s)).length;
    if (ofCodeAll.some(unknownVisitor)) {
      expect(answer.uniqueScannersPartial).toBe(true);
      if (answer.uniqueScanners !== null) expect(answer.uniqueScanners).toBeLessThanOrEqual(codeFirsts);
    } else {
      expect([answer.uniqueScanners, answer.uniqueScannersPartial], `code ${id} uniques ${context}`).toEqual([
        codeFirsts,
        false,
      ]);
    }
    expect(answer.uniqueLocations, `unique places of code ${id} ${context}`).toBe(
      new Set(ofCode.map(placeOf)).size,
    );
    const newest = [...ofCode].sort((a, b) => b.ms - a.ms || b.id - a.id).slice(0, 10);
    expect(answer.scans.map((s) => s.id)).toEqual(newest.map((s) => s.id));

    const codeDaily = tally(ofCode, (s) => local(tz, s.ms).date);
    const codeUniques = uniquesOn(ofCodeAll);
    expect(await qrCodeDaily(t.deps, user, id, { tz, excludeBots, days: view.dailyDays })).toEqual(
      dailyLabels.map((date) => ({
        date,
        count: codeDaily.get(date) ?? 0,
        uniqueScanners: codeUniques(date),
      })),
    );
  }
}

// ---- Fixture per run ---------------------------------------------------------------------------------

interface World {
  users: [User, User];
  /** codes[i] belongs to users[i < 2 ? 0 : 1]. */
  codes: number[];
}

async function freshWorld(testDb: TestDb): Promise<World> {
  await testDb.reset();
  const { db } = testDb;
  const first = await insertTestUser(db, { username: 'owner-one' });
  const second = await insertTestUser(db, { username: 'owner-two' });
  const codes: number[] = [];
  for (const owner of [first, first, second, second])
    codes.push((await insertQrRow(db, { userId: owner.id, isDynamic: true })).id);
  return { users: [toUser(first), toUser(second)], codes };
}

function toStore(world: World, s: GenScan, i: number): ScanToStore {
  return {
    owner_id: world.users[s.code < 2 ? 0 : 1].id,
    qr_code_id: world.codes[s.code]!,
    timestamp: new Date(s.at).toISOString(),
    user_agent: `agent ${i % 3}`,
    ip_address: s.ip,
    referrer: null,
    location: s.location,
    device: s.device,
    visitor: s.visitor,
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describeEachDb('scan rollups', (getDb) => {
  /** The property, on a test app whose clock it moves. */
  const rollupProperty = (t: TestApp, clock: TestClock) =>
    fc.asyncProperty(
      genView.chain((view) =>
        fc.tuple(
          fc.array(genBurst(view.tz), { minLength: 1, maxLength: 6 }),
          fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
          fc.constant(view),
        ),
      ),
      async ([bursts, deleteIndex, view]) => {
        const world = await freshWorld(getDb());
        const { db } = getDb();
        const recorder = createScanRecorder(db);
        let pending: Promise<unknown>[] = [];
        let n = 0;
        for (const burst of bursts) {
          const rows = burst.scans.map((s) => toStore(world, s, n++));
          if (burst.via === 'direct') {
            await db.transaction().execute((trx) => writeScansWithRollups(trx, rows));
            continue;
          }
          const answers: Promise<void>[] = [];
          for (let i = 0; i < rows.length; i++) {
            if (burst.yields[i]) await nextTurn();
            answers.push(recorder.record(rows[i]!));
          }
          pending.push(...answers);
          if (!burst.overlapNext) {
            await Promise.all(pending);
            pending = [];
          }
        }
        await Promise.all(pending);
        await recorder.close();
        expect(
          await db
            .selectFrom('qr_scans')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst(),
        ).toEqual({ n: n });

        const codes = [...world.codes];
        let gone: RawScan[] = [];
        if (deleteIndex !== undefined) {
          const owner = world.users[deleteIndex < 2 ? 0 : 1];
          gone = (await rawScans(db)).filter((s) => s.codeId === codes[deleteIndex]);
          expect(await deleteQrCodeWithScans(db, owner.id, codes[deleteIndex]!)).toBe(true);
          codes.splice(deleteIndex, 1);
        }

        const scans = await rawScans(db);
        await expectRollupsMatchRawScans(getDb(), scans, gone);

        clock.set(new Date(view.now));
        for (const user of world.users) {
          const firstUsers = user === world.users[0];
          const own = codes.filter((id) => world.codes.indexOf(id) < 2 === firstUsers);
          await checkAnalytics(t, user, own, scans, view, gone);
        }
      },
    );

  it('every rollup table equals a GROUP BY of the raw scans, and analytics equal a computation over them', async () => {
    const clock = createTestClock(new Date(BASE));
    const t = await createTestApp(getDb(), { clock });
    try {
      await fc.assert(rollupProperty(t, clock), { numRuns: 30 });
    } finally {
      await t.close();
    }
    // About 7 s on PostgreSQL on a quiet machine; more on a loaded one, and shrinking a failure takes long.
  }, 180_000);

  it('a visitor seen by two overlapping writers is first seen in their first stored scan (a CI counterexample)', async () => {
    const clock = createTestClock(new Date(BASE));
    const t = await createTestApp(getDb(), { clock });
    try {
      // On PostgreSQL the recorder's batch and a direct write both held the visitor: the one with the
      // lower scan ids lost the first sighting until first sightings were claimed before the ids.
      await fc.assert(rollupProperty(t, clock), {
        seed: -1765737180,
        path: '18:38:2:16:7:10:8:9:5:30:8:2:0:35:17:4:6:9:30:14:8:10:31:28:14:9:14:33:8:39:14:6:19',
        endOnFailure: true,
      });
    } finally {
      await t.close();
    }
    // One replayed case, usually seconds; a CI machine running every lane at once took over 60 s.
  }, 180_000);

  it("the migration's backfill computes the same rollups as the writer", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ZONES).chain((tz) => fc.array(genScan(tz), { minLength: 0, maxLength: 120 })),
        async (generated) => {
          const world = await freshWorld(getDb());
          const { db } = getDb();
          // Stored before unique scanners were counted: no visitor hashes.
          const rows = generated.map((s, i) => ({ ...toStore(world, s, i), visitor: null }));

          // Scans stored before the rollups existed (and before scans were lean): plain inserts into
          // the wide table, the rollup migration's up(), then the lean one's (it carries them over),
          // then the later ones' (unique scanners: every count unknown).
          const later = Object.entries(migrations).filter(([name]) => name > '2026-11-25T2000-lean-scans');
          for (const [, migration] of [...later].reverse()) await migration.down!(db);
          await leanMigration.down(db);
          const raw = rows.map(({ owner_id: _owner, ...row }) => row);
          for (let i = 0; i < raw.length; i += 100)
            await sql`insert into qr_scans (qr_code_id, timestamp, user_agent, ip_address, referrer, location, device)
              values ${sql.join(
                raw
                  .slice(i, i + 100)
                  .map(
                    (r) =>
                      sql`(${r.qr_code_id}, ${r.timestamp}, ${r.user_agent}, ${r.ip_address}, ${r.referrer}, ${r.location}, ${r.device})`,
                  ),
              )}`.execute(db);
          await rollupMigration.down(db);
          await rollupMigration.up(db);
          await leanMigration.up(db);
          for (const [, migration] of later) await migration.up(db);
          await expectRollupsMatchRawScans(getDb(), await rawScans(db), [], false);
          const backfilled = withoutUniques(await actualRollups(getDb()));

          // The same scans through the writer (a bot-only row's unique count is 0 there, not unknown).
          for (const name of await rollupTables(getDb()))
            await sql`delete from ${sql.table(name)}`.execute(db);
          await db.deleteFrom('qr_scans').execute();
          await db.transaction().execute((trx) => writeScansWithRollups(trx, rows));
          expect(withoutUniques(await actualRollups(getDb()))).toEqual(backfilled);
        },
      ),
      { numRuns: 10 },
    );
  }, 60_000);

  it('the oracle itself: device categories and local dates agree with hand-worked cases', () => {
    expect(deviceCategories).toEqual(CATEGORIES);
    // 2026-11-01T05:30Z is 01:30 EDT, 06:30Z is 01:30 EST (New York's change).
    expect(local('America/New_York', Date.parse('2026-11-01T05:30:00Z'))).toEqual({
      date: '2026-11-01',
      hour: 1,
    });
    expect(local('America/New_York', Date.parse('2026-11-01T06:30:00Z'))).toEqual({
      date: '2026-11-01',
      hour: 1,
    });
    expect(local('Asia/Kathmandu', Date.parse('2026-11-02T18:15:00Z'))).toEqual({
      date: '2026-11-03',
      hour: 0,
    });
    expect(local('Asia/Kathmandu', Date.parse('2026-11-02T18:14:59.999Z'))).toEqual({
      date: '2026-11-02',
      hour: 23,
    });
    // Chatham: +12:45 in winter, +13:45 from 2026-09-27.
    expect(local('Pacific/Chatham', Date.parse('2026-08-01T11:15:00Z'))).toEqual({
      date: '2026-08-02',
      hour: 0,
    });
    expect(local('Pacific/Chatham', Date.parse('2026-10-01T10:15:00Z'))).toEqual({
      date: '2026-10-02',
      hour: 0,
    });
    expect(daysBefore('2026-03-01', 1)).toBe('2026-02-28');
  });
});
