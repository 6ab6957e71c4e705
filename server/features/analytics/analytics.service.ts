import { sql } from 'kysely';
import { UAParser } from 'ua-parser-js';
import {
  deviceCategories,
  SCAN_HISTORY_PAGE_SIZE,
  type DailyCount,
  type DeviceCount,
  type HourlyCount,
  type LocationCount,
  type PerformanceRow,
  type ScanHistoryRow,
  type UserSummary,
} from '../../../src/analytics/analytics.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import { normalizeQrType } from '../../../src/qr/qr-types.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso, type Db } from '../../db/database.js';
import { getQrCode } from '../qr/qr.service.js';
import {
  categoryOf,
  DAY_MS,
  deviceColumnOf,
  deviceColumns,
  notBotScan,
  QUARTER_MS,
  zeroDeviceCounts,
  type DeviceCounts,
} from '../scans/scan-rollups.js';
import { dayLabel, startOfLocalDay, today, ZoneOffsets } from './time-zone.js';

/**
 * Analytics read the rollups written with every scan (see scans/scan-rollups.ts for the tables and
 * why quarter hours). A period of `days` is the viewer's local today and the days before it, from
 * local midnight; without `days`, all time.
 */
export interface ViewOptions {
  tz: string;
  excludeBots: boolean;
}
export interface PeriodOptions extends ViewOptions {
  days?: number | undefined;
}

/** [from, to) in ms, and the local days it spans (for daily series). */
interface Period {
  from: number;
  to: number;
  firstDay: number;
  lastDay: number;
}

export function periodOf(tz: string, days: number, now: number): Period {
  const lastDay = today(tz, now);
  const firstDay = lastDay - days + 1;
  return { from: startOfLocalDay(tz, firstDay), to: Infinity, firstDay, lastDay };
}

/** A report's inclusive local dates. */
export function datesPeriod(tz: string, firstDay: number, lastDay: number): Period {
  return { from: startOfLocalDay(tz, firstDay), to: startOfLocalDay(tz, lastDay + 1), firstDay, lastDay };
}

const n = (v: unknown) => Number(v ?? 0);

function countOf(row: DeviceCounts, excludeBots: boolean): number {
  return n(row.mobile) + n(row.tablet) + n(row.desktop) + n(row.unknown) + (excludeBots ? 0 : n(row.bot));
}

const sumDevices = deviceColumns.map((c) => sql<number>`sum(${sql.ref(c)})`.as(c));

/** Whose quarter hours: a user's (all their codes) or one code's. */
type QuarterSource =
  { table: 'scan_user_quarters'; id: number } | { table: 'scan_code_quarters'; id: number };

const scansExpr = (excludeBots: boolean) =>
  sql.raw(`sum(mobile + tablet + desktop + unknown${excludeBots ? '' : ' + bot'})`);

/**
 * Local day numbers (or local hours of day) → scans, summed in the database: for each stretch of the
 * period with one UTC offset (one stretch unless a DST change falls inside), quarter-hour buckets
 * are shifted by that offset and grouped, so a 90-day series reads ~90 grouped rows, not ~8,600.
 */
async function localCounts(
  db: Db,
  source: QuarterSource,
  period: Period,
  options: ViewOptions,
  now: number,
  unit: 'day' | 'hourOfDay',
): Promise<Map<number, number>> {
  const key = source.table === 'scan_user_quarters' ? 'user_id' : 'qr_code_id';
  const counts = new Map<number, number>();
  let from = period.from;
  if (from === -Infinity) {
    // All time: from the source's first bucket.
    const first = await db
      .selectFrom(source.table)
      .select((eb) => eb.fn.min<number>('bucket').as('b'))
      .where(sql<boolean>`${sql.ref(key)} = ${source.id}`)
      .executeTakeFirst();
    if (first?.b === null || first?.b === undefined) return counts;
    from = n(first.b) * QUARTER_MS;
  }
  const to = Math.min(period.to, now + DAY_MS);
  if (to <= from) return counts;
  const zone = new ZoneOffsets(options.tz, from, to);
  for (const segment of zone.segments(from, to)) {
    const minutes = sql`(bucket * 15 + ${sql.lit(Math.round(segment.offset / 60_000))})`;
    const group = unit === 'day' ? sql<number>`${minutes} / 1440` : sql<number>`(${minutes} / 60) % 24`;
    const rows = await db
      .selectFrom(source.table)
      .select([group.as('k'), scansExpr(options.excludeBots).as('n')])
      .where(sql<boolean>`${sql.ref(key)} = ${source.id}`)
      .where('bucket', '>=', Math.floor(segment.from / QUARTER_MS))
      .where('bucket', '<', Math.ceil(segment.to / QUARTER_MS))
      .groupBy(group)
      .execute();
    for (const row of rows) counts.set(n(row.k), (counts.get(n(row.k)) ?? 0) + n(row.n));
  }
  return counts;
}

/** One entry per local day of the period, zero days included. */
async function dailySeries(
  db: Db,
  source: QuarterSource,
  period: Period,
  options: ViewOptions,
  now: number,
): Promise<DailyCount[]> {
  const counts = await localCounts(db, source, period, options, now, 'day');
  const out: DailyCount[] = [];
  for (let day = period.firstDay; day <= period.lastDay; day++)
    out.push({ date: dayLabel(day), count: counts.get(day) ?? 0 });
  return out;
}

async function hourlySeries(
  db: Db,
  source: QuarterSource,
  period: Period,
  options: ViewOptions,
  now: number,
): Promise<HourlyCount[]> {
  const counts = await localCounts(db, source, period, options, now, 'hourOfDay');
  return Array.from({ length: 24 }, (_, hour) => ({ hour, count: counts.get(hour) ?? 0 }));
}

function deviceList(total: DeviceCounts, excludeBots: boolean): DeviceCount[] {
  return deviceCategories
    .filter((d) => !(excludeBots && d === 'Bot'))
    .map((device) => ({ device, count: n(total[deviceColumnOf[device]]) }))
    .filter((d) => d.count > 0)
    .sort((a, b) => b.count - a.count);
}

function addInto(total: DeviceCounts, row: DeviceCounts) {
  for (const c of deviceColumns) total[c] += n(row[c]);
}

/**
 * A period cut at UTC midnights: the whole UTC days inside it (day numbers [first, end), read from
 * the day tables), and the partial days at its ends (ms ranges, read at a finer grain). A period
 * within one UTC day is all ragged.
 */
function splitAtUtcDays(period: Period): {
  wholeDays: { first: number; end: number } | null;
  ragged: [number, number][];
} {
  const first = period.from === -Infinity ? -Infinity : Math.ceil(period.from / DAY_MS);
  const end = period.to === Infinity ? Infinity : Math.floor(period.to / DAY_MS);
  if (end <= first) return { wholeDays: null, ragged: [[period.from, period.to]] };
  const ragged: [number, number][] = [];
  if (first > -Infinity && period.from < first * DAY_MS) ragged.push([period.from, first * DAY_MS]);
  if (end < Infinity && period.to > end * DAY_MS) ragged.push([end * DAY_MS, period.to]);
  return { wholeDays: { first, end }, ragged };
}

/**
 * Per-code device counts over a period: whole UTC days from scan_code_days, the ragged first and
 * last partial UTC days from scan_code_quarters.
 */
async function perCodeCounts(db: Db, userId: number, period: Period): Promise<Map<number, DeviceCounts>> {
  const totals = new Map<number, DeviceCounts>();
  const add = (id: number, row: DeviceCounts) => {
    let t = totals.get(id);
    if (!t) totals.set(id, (t = zeroDeviceCounts()));
    addInto(t, row);
  };
  const { wholeDays, ragged } = splitAtUtcDays(period);
  if (wholeDays) {
    let days = db
      .selectFrom('scan_code_days')
      .select(['qr_code_id', ...sumDevices])
      .where('user_id', '=', userId)
      .groupBy('qr_code_id');
    if (wholeDays.first > -Infinity) days = days.where('day', '>=', wholeDays.first);
    if (wholeDays.end < Infinity) days = days.where('day', '<', wholeDays.end);
    for (const row of await days.execute()) add(n(row.qr_code_id), row);
  }
  for (const [from, to] of ragged) {
    let q = db
      .selectFrom('scan_code_quarters as q')
      .innerJoin('qr_codes as c', 'c.id', 'q.qr_code_id')
      .select(['q.qr_code_id', ...sumDevices])
      .where('c.user_id', '=', userId)
      .where('q.bucket', '>=', Math.floor(from / QUARTER_MS))
      .groupBy('q.qr_code_id');
    if (to < Infinity) q = q.where('q.bucket', '<', Math.ceil(to / QUARTER_MS));
    for (const row of await q.execute()) add(n(row.qr_code_id), row);
  }
  return totals;
}

function periodFor(deps: AppDeps, options: PeriodOptions): Period {
  const now = deps.clock.now().getTime();
  return options.days === undefined
    ? { from: -Infinity, to: Infinity, firstDay: -Infinity, lastDay: today(options.tz, now) }
    : periodOf(options.tz, options.days, now);
}

async function codesOf(db: Db, userId: number) {
  return db
    .selectFrom('qr_codes')
    .select(['id', 'name', 'type'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

export async function codePerformance(
  deps: AppDeps,
  user: User,
  options: PeriodOptions,
): Promise<PerformanceRow[]> {
  return performanceIn(deps.db, user.id, periodFor(deps, options), options.excludeBots);
}

export async function performanceIn(db: Db, userId: number, period: Period, excludeBots: boolean) {
  const [codes, counts] = await Promise.all([codesOf(db, userId), perCodeCounts(db, userId, period)]);
  return codes
    .map((c) => ({
      qrCodeId: c.id,
      name: c.name,
      type: normalizeQrType(c.type),
      count: counts.has(c.id) ? countOf(counts.get(c.id)!, excludeBots) : 0,
    }))
    .sort((a, b) => b.count - a.count || a.qrCodeId - b.qrCodeId);
}

async function lastScanAt(db: Db, userId: number, excludeBots: boolean): Promise<string | null> {
  const nonBot = sql<number>`mobile + tablet + desktop + unknown`;
  const latest = await db
    .selectFrom('scan_user_quarters')
    .select((eb) => eb.fn.max('bucket').as('bucket'))
    .where('user_id', '=', userId)
    .where(excludeBots ? sql<boolean>`${nonBot} > 0` : sql<boolean>`${nonBot} + bot > 0`)
    .executeTakeFirst();
  if (latest?.bucket === null || latest?.bucket === undefined) return null;
  let q = db
    .selectFrom('qr_scans as s')
    .select((eb) => eb.fn.max('s.timestamp').as('at'))
    .where('s.qr_code_id', 'in', (eb) => eb.selectFrom('qr_codes').select('id').where('user_id', '=', userId))
    .where('s.timestamp', '>=', new Date(n(latest.bucket) * QUARTER_MS).toISOString());
  if (excludeBots) q = q.where(notBotScan('s.device'));
  const row = await q.executeTakeFirst();
  return row?.at ? toIso(row.at) : null;
}

export async function userSummary(deps: AppDeps, user: User, options: PeriodOptions): Promise<UserSummary> {
  const [rows, last] = await Promise.all([
    performanceIn(deps.db, user.id, periodFor(deps, options), options.excludeBots),
    lastScanAt(deps.db, user.id, options.excludeBots),
  ]);
  return {
    totalQRCodes: rows.length,
    totalScans: rows.reduce((sum, r) => sum + r.count, 0),
    qrCodeScans: rows.map((r) => ({ id: r.qrCodeId, name: r.name, type: r.type, scans: r.count })),
    lastScanAt: last,
  };
}

export async function daily(deps: AppDeps, user: User, options: PeriodOptions & { days: number }) {
  const now = deps.clock.now().getTime();
  const period = periodOf(options.tz, options.days, now);
  return dailySeries(deps.db, { table: 'scan_user_quarters', id: user.id }, period, options, now);
}

export async function dailyIn(db: Db, userId: number, period: Period, options: ViewOptions, now: number) {
  return dailySeries(db, { table: 'scan_user_quarters', id: userId }, period, options, now);
}

export async function hourly(deps: AppDeps, user: User, options: PeriodOptions): Promise<HourlyCount[]> {
  return hourlyIn(deps.db, user.id, periodFor(deps, options), options, deps.clock.now().getTime());
}

export async function hourlyIn(db: Db, userId: number, period: Period, options: ViewOptions, now: number) {
  return hourlySeries(db, { table: 'scan_user_quarters', id: userId }, period, options, now);
}

export async function devices(deps: AppDeps, user: User, options: PeriodOptions): Promise<DeviceCount[]> {
  return devicesIn(deps.db, user.id, periodFor(deps, options), options.excludeBots);
}

export async function devicesIn(db: Db, userId: number, period: Period, excludeBots: boolean) {
  const total = zeroDeviceCounts();
  for (const counts of (await perCodeCounts(db, userId, period)).values()) addInto(total, counts);
  return deviceList(total, excludeBots);
}

/** Raw scans of the user's codes in [from, to), grouped by location (the ragged ends of a period). */
async function rawLocations(db: Db, userId: number, from: number, to: number, excludeBots: boolean) {
  let q = db
    .selectFrom('qr_scans as s')
    .select([
      sql<string>`coalesce(nullif(s.location, ''), 'Unknown')`.as('location'),
      (eb) => eb.fn.countAll().as('scans'),
      sql<number>`sum(case when s.device = 'Bot' then 1 else 0 end)`.as('bots'),
    ])
    .where('s.qr_code_id', 'in', (eb) => eb.selectFrom('qr_codes').select('id').where('user_id', '=', userId))
    .where('s.timestamp', '>=', new Date(from).toISOString())
    .groupBy(sql`coalesce(nullif(s.location, ''), 'Unknown')`);
  if (to < Infinity) q = q.where('s.timestamp', '<', new Date(to).toISOString());
  const rows = await q.execute();
  return rows.map((r) => ({ location: r.location, count: n(r.scans) - (excludeBots ? n(r.bots) : 0) }));
}

export async function locations(deps: AppDeps, user: User, options: PeriodOptions): Promise<LocationCount[]> {
  return locationsIn(deps.db, user.id, periodFor(deps, options), options.excludeBots);
}

export async function locationsIn(db: Db, userId: number, period: Period, excludeBots: boolean) {
  const totals = new Map<string, number>();
  const add = (location: string, count: number) => totals.set(location, (totals.get(location) ?? 0) + count);
  const { wholeDays, ragged } = splitAtUtcDays(period);
  if (wholeDays) {
    let q = db
      .selectFrom('scan_user_day_locations')
      .select([
        'location',
        (eb) => eb.fn.sum<number>('scans').as('scans'),
        (eb) => eb.fn.sum<number>('bots').as('bots'),
      ])
      .where('user_id', '=', userId)
      .groupBy('location');
    if (wholeDays.first > -Infinity) q = q.where('day', '>=', wholeDays.first);
    if (wholeDays.end < Infinity) q = q.where('day', '<', wholeDays.end);
    for (const r of await q.execute()) add(r.location, n(r.scans) - (excludeBots ? n(r.bots) : 0));
  }
  for (const [from, to] of ragged)
    for (const r of await rawLocations(db, userId, from, to, excludeBots)) add(r.location, r.count);
  return [...totals]
    .filter(([, count]) => count > 0)
    .map(([location, count]) => ({ location, count }))
    .sort((a, b) => b.count - a.count || a.location.localeCompare(b.location));
}

export async function qrCodeDaily(
  deps: AppDeps,
  user: User,
  id: number,
  options: ViewOptions & { days: number },
): Promise<DailyCount[]> {
  await getQrCode(deps, user, id); // 404 unless the caller owns it
  const now = deps.clock.now().getTime();
  const period = periodOf(options.tz, options.days, now);
  return dailySeries(deps.db, { table: 'scan_code_quarters', id }, period, options, now);
}

const deviceNames = new Map<string, string | null>();

/** 'iPhone', 'Samsung SM-S928B', 'Chrome on Windows'… for the scan history's tooltip. */
export function deviceNameOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const hit = deviceNames.get(userAgent);
  if (hit !== undefined) return hit;
  const ua = new UAParser(userAgent).getResult();
  const device = [ua.device.vendor, ua.device.model].filter(Boolean).join(' ');
  const browser =
    ua.browser.name && ua.os.name ? `${ua.browser.name} on ${ua.os.name}` : ua.browser.name || ua.os.name;
  const name = device || browser || null;
  if (deviceNames.size >= 2000) deviceNames.clear();
  deviceNames.set(userAgent, name);
  return name;
}

export interface QrCodeAnalytics {
  qrCode: QrCode;
  /** One page of the scan history, newest first. */
  scans: ScanHistoryRow[];
  page: number;
  pageSize: number;
  totalPages: number;
  totalScans: number;
  uniqueLocations: number;
  uniqueDevices: number;
  devices: DeviceCount[];
}

export async function qrCodeAnalytics(
  deps: AppDeps,
  user: User,
  id: number,
  options: ViewOptions & { page: number },
): Promise<QrCodeAnalytics> {
  const qrCode = await getQrCode(deps, user, id);
  const { db } = deps;
  const pageSize = SCAN_HISTORY_PAGE_SIZE;
  let history = db
    .selectFrom('qr_scans')
    .select(['id', 'timestamp', 'user_agent', 'location', 'ip_address', 'device'])
    .where('qr_code_id', '=', id)
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((options.page - 1) * pageSize);
  if (options.excludeBots) history = history.where(notBotScan('device'));
  const [totalsRow, places, rows] = await Promise.all([
    db.selectFrom('scan_code_days').select(sumDevices).where('qr_code_id', '=', id).executeTakeFirst(),
    db
      .selectFrom('scan_code_places')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('qr_code_id', '=', id)
      // Without bots, a place only bots came from is not a location anyone scanned from.
      .where(options.excludeBots ? sql<boolean>`scans > bots` : sql<boolean>`scans > 0`)
      .executeTakeFirst(),
    history.execute(),
  ]);
  const totals = zeroDeviceCounts();
  if (totalsRow) addInto(totals, totalsRow);
  const deviceCounts = deviceList(totals, options.excludeBots);
  const totalScans = countOf(totals, options.excludeBots);
  return {
    qrCode,
    scans: rows.map((r) => ({
      id: r.id,
      timestamp: toIso(r.timestamp),
      userAgent: r.user_agent,
      location: r.location,
      ipAddress: r.ip_address,
      device: categoryOf(r.device),
      deviceName: deviceNameOf(r.user_agent),
    })),
    page: options.page,
    pageSize,
    totalPages: Math.max(1, Math.ceil(totalScans / pageSize)),
    totalScans,
    uniqueLocations: n(places?.n),
    uniqueDevices: deviceCounts.length,
    devices: deviceCounts,
  };
}
