import {
  deviceCategories,
  SCAN_HISTORY_PAGE_SIZE,
  type DailyCount,
  type DeviceCount,
  type HourlyCount,
  type LocationCount,
  type PerformanceRow,
  type CodeScansQuery,
  type UserSummary,
} from '../../../src/analytics/analytics.schema.js';
import type { Page } from '../../../src/api/paging.js';
import type { User } from '../../../src/auth/auth.schema.js';
import { normalizeQrType } from '../../../src/qr/qr-types.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso, type Db } from '../../db/database.js';
import { getQrCode } from '../qr/qr.service.js';
import { deviceNameOf } from '../scans/device.js';
import {
  categoryOf,
  DAY_MS,
  deviceColumnOf,
  deviceColumns,
  QUARTER_MS,
  zeroDeviceCounts,
  type DeviceCounts,
} from '../scans/rollup-model.js';
import {
  countPlacesOfCode,
  countRawScansByLocation,
  findFirstBucket,
  findLastScanAt,
  listCodesWithLastScan,
  listCodesOf,
  listScanHistoryPage,
  sumDevicesOfCode,
  countThrottledScansOfCode,
  countRawScansOfCode,
  sumDevicesPerCodeOverRange,
  sumDevicesPerCodeOverUtcDays,
  sumLocationsOverUtcDays,
  sumScansByLocalDay,
  sumScansByLocalHour,
  type FolderScope,
  type QuarterSource,
} from './analytics.repository.js';
import { allTimePeriod, periodOf, splitAtUtcDays, type Period, type UtcDays } from './period.js';
import { dayLabel, ZoneOffsets } from '../scans/time-zone.js';
import { retentionCutoff } from '../scans/scan-retention.js';
import { countRefusedScansOfCode } from '../scans/scans.repository.js';
import { outcomeOfStored } from '../../../src/qr/scan-outcome.js';
import type { QrCodeAnalyticsWithOutcomes, ScanHistoryRowWithOutcome } from './scan-outcomes.js';

/**
 * Analytics of the caller's own codes, read from the rollups written with every scan (see
 * scans/rollup-model.ts for the tables and why quarter hours). The dashboard asks for the last `days`
 * local days (all time without `days`); a report passes its own `period` (report-data.ts).
 */
export interface ViewOptions {
  tz: string;
  excludeBots: boolean;
}
export interface PeriodOptions extends ViewOptions {
  days?: number | undefined;
  /** A period worked out by the caller (a report's dates): wins over `days`. */
  period?: Period | undefined;
}

function periodFor(options: PeriodOptions, now: number): Period {
  if (options.period) return options.period;
  return options.days === undefined
    ? allTimePeriod(options.tz, now)
    : periodOf(options.tz, options.days, now);
}

const n = (v: unknown) => Number(v ?? 0);

function countOf(row: DeviceCounts, excludeBots: boolean): number {
  return n(row.mobile) + n(row.tablet) + n(row.desktop) + n(row.unknown) + (excludeBots ? 0 : n(row.bot));
}

function addInto(total: DeviceCounts, row: DeviceCounts) {
  for (const c of deviceColumns) total[c] += n(row[c]);
}

/**
 * Unique scanners summed from rollup rows (scans/unique-scanners.ts): the sum of the rows that have
 * them, whether any row has them, and how many rows counted their scans before they were counted.
 */
interface UniqueTally {
  uniques: number;
  known: boolean;
  unknown: number;
}

const zeroUniques = (): UniqueTally => ({ uniques: 0, known: false, unknown: 0 });

/** Adds a summed row (`sumUniques` of analytics.repository.ts) into a tally. */
function addUniques(tally: UniqueTally, row: { unique_scanners: unknown; unknown_uniques: unknown }) {
  if (row.unique_scanners !== null && row.unique_scanners !== undefined) {
    tally.uniques += n(row.unique_scanners);
    tally.known = true;
  }
  tally.unknown += n(row.unknown_uniques);
}

/** A period's figure: the known days' sum; null when no scan of it had unique scanners counted. */
function uniqueFigures(tally: UniqueTally): {
  uniqueScanners: number | null;
  uniqueScannersPartial: boolean;
} {
  return {
    uniqueScanners: tally.known || tally.unknown === 0 ? tally.uniques : null,
    uniqueScannersPartial: tally.unknown > 0,
  };
}

function deviceList(total: DeviceCounts, excludeBots: boolean): DeviceCount[] {
  return deviceCategories
    .filter((d) => !(excludeBots && d === 'Bot'))
    .map((device) => ({ device, count: n(total[deviceColumnOf[device]]) }))
    .filter((d) => d.count > 0)
    .sort((a, b) => b.count - a.count);
}

/**
 * Local day numbers (or local hours of day) → scans and unique scanners, summed in the database for
 * each stretch of the period with one UTC offset (one stretch unless a DST change falls inside). All
 * time starts at the source's first quarter hour; nothing is read past tomorrow.
 */
async function localCounts(
  db: Db,
  source: QuarterSource,
  period: Period,
  options: ViewOptions,
  now: number,
  unit: 'day' | 'hourOfDay',
): Promise<Map<number, { scans: number } & UniqueTally>> {
  const counts = new Map<number, { scans: number } & UniqueTally>();
  let from = period.from;
  if (from === -Infinity) {
    const first = await findFirstBucket(db, source);
    if (first === null) return counts;
    from = first * QUARTER_MS;
  }
  const to = Math.min(period.to, now + DAY_MS);
  if (to <= from) return counts;
  const zone = new ZoneOffsets(options.tz, from, to);
  const sumScans = unit === 'day' ? sumScansByLocalDay : sumScansByLocalHour;
  for (const stretch of zone.segments(from, to)) {
    for (const row of await sumScans(db, source, stretch, options.excludeBots)) {
      let count = counts.get(n(row.k));
      if (!count) counts.set(n(row.k), (count = { scans: 0, ...zeroUniques() }));
      count.scans += n(row.n);
      addUniques(count, row);
    }
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
  for (let day = period.firstDay; day <= period.lastDay; day++) {
    const count = counts.get(day);
    out.push({
      date: dayLabel(day),
      count: count?.scans ?? 0,
      // A day holding any scan counted before unique scanners were is unknown as a whole.
      uniqueScanners: count ? (count.unknown > 0 ? null : count.uniques) : 0,
    });
  }
  return out;
}

/**
 * Per-code device counts over a period: whole UTC days from the day rollups, the ragged first and
 * last partial UTC days from the quarter hours.
 */
async function perCodeCounts(
  db: Db,
  userId: number,
  period: Period,
): Promise<Map<number, { devices: DeviceCounts; uniques: UniqueTally }>> {
  const totals = new Map<number, { devices: DeviceCounts; uniques: UniqueTally }>();
  const add = (id: number, row: DeviceCounts & { unique_scanners: unknown; unknown_uniques: unknown }) => {
    let t = totals.get(id);
    if (!t) totals.set(id, (t = { devices: zeroDeviceCounts(), uniques: zeroUniques() }));
    addInto(t.devices, row);
    addUniques(t.uniques, row);
  };
  const { wholeDays, ragged } = splitAtUtcDays(period);
  if (wholeDays)
    for (const row of await sumDevicesPerCodeOverUtcDays(db, userId, wholeDays)) add(n(row.qr_code_id), row);
  for (const [from, to] of ragged)
    for (const row of await sumDevicesPerCodeOverRange(db, userId, from, to)) add(n(row.qr_code_id), row);
  return totals;
}

/** Each of the user's codes with its scans (and unique scanners) in the period, most scanned first. */
async function codeFigures(deps: AppDeps, user: User, options: PeriodOptions) {
  const period = periodFor(options, deps.clock.now().getTime());
  const [codes, counts] = await Promise.all([
    listCodesOf(deps.db, user.id),
    perCodeCounts(deps.db, user.id, period),
  ]);
  return codes
    .map((c) => {
      const figures = counts.get(c.id);
      return {
        qrCodeId: c.id,
        name: c.name,
        type: normalizeQrType(c.type),
        count: figures ? countOf(figures.devices, options.excludeBots) : 0,
        uniques: figures?.uniques ?? zeroUniques(),
      };
    })
    .sort((a, b) => b.count - a.count || a.qrCodeId - b.qrCodeId);
}

/** Each of the user's codes with its scans in the period, most scanned first. */
export async function getCodePerformance(
  deps: AppDeps,
  user: User,
  options: PeriodOptions,
): Promise<PerformanceRow[]> {
  return (await codeFigures(deps, user, options)).map(({ uniques: _uniques, ...row }) => row);
}

/** The sum of codes' daily uniques: a person scanning two of the codes counts on each. */
function summedUniques(rows: { uniques: UniqueTally }[]): UniqueTally {
  const total = zeroUniques();
  for (const r of rows) {
    total.uniques += r.uniques.uniques;
    total.known ||= r.uniques.known;
    total.unknown += r.uniques.unknown;
  }
  return total;
}

/**
 * Each of the user's codes with its scans and unique scanners in the period, most scanned first, and
 * the period's unique scanners over all of them (the reports).
 */
export async function getCodeFigures(deps: AppDeps, user: User, options: PeriodOptions) {
  const rows = await codeFigures(deps, user, options);
  return {
    codes: rows.map(({ uniques, ...row }) => ({ ...row, ...uniqueFigures(uniques) })),
    ...uniqueFigures(summedUniques(rows)),
  };
}

export async function getUserSummary(
  deps: AppDeps,
  user: User,
  options: PeriodOptions,
): Promise<UserSummary> {
  const [rows, last, lastPerCode] = await Promise.all([
    codeFigures(deps, user, options),
    findLastScanAt(deps.db, user.id, options.excludeBots),
    listCodesWithLastScan(deps.db, user.id, 0, Number.MAX_SAFE_INTEGER, options.excludeBots),
  ]);
  const lastById = new Map(
    lastPerCode.map((r) => [
      Number(r.id),
      r.last_scan === null || r.last_scan === undefined ? null : new Date(Number(r.last_scan)).toISOString(),
    ]),
  );
  return {
    totalQRCodes: rows.length,
    totalScans: rows.reduce((sum, r) => sum + r.count, 0),
    qrCodeScans: rows.map((r) => ({
      id: r.qrCodeId,
      name: r.name,
      type: r.type,
      scans: r.count,
      lastScanAt: lastById.get(r.qrCodeId) ?? null,
    })),
    lastScanAt: last === null ? null : new Date(last).toISOString(),
    ...uniqueFigures(summedUniques(rows)),
  };
}

/** Scans of all the user's codes per local day: a daily series needs a first day (no all time). */
export async function getDailyScans(
  deps: AppDeps,
  user: User,
  options: PeriodOptions & ({ days: number } | { period: Period }),
): Promise<DailyCount[]> {
  const now = deps.clock.now().getTime();
  return dailySeries(deps.db, { userId: user.id }, periodFor(options, now), options, now);
}

export async function getHourlyScans(
  deps: AppDeps,
  user: User,
  options: PeriodOptions,
): Promise<HourlyCount[]> {
  const now = deps.clock.now().getTime();
  const counts = await localCounts(
    deps.db,
    { userId: user.id },
    periodFor(options, now),
    options,
    now,
    'hourOfDay',
  );
  return Array.from({ length: 24 }, (_, hour) => ({ hour, count: counts.get(hour)?.scans ?? 0 }));
}

export async function getDeviceCounts(
  deps: AppDeps,
  user: User,
  options: PeriodOptions,
): Promise<DeviceCount[]> {
  const period = periodFor(options, deps.clock.now().getTime());
  const total = zeroDeviceCounts();
  for (const counts of (await perCodeCounts(deps.db, user.id, period)).values())
    addInto(total, counts.devices);
  return deviceList(total, options.excludeBots);
}

type LocationRows = { location: string; scans: unknown; bots: unknown }[];

/** Whole UTC days from the day rollups; the ragged ends from the raw scans of those few hours. */
async function locationCounts(
  period: Period,
  excludeBots: boolean,
  read: {
    wholeDays: (days: UtcDays) => Promise<LocationRows>;
    range: (from: number, to: number) => Promise<LocationRows>;
  },
): Promise<LocationCount[]> {
  const totals = new Map<string, number>();
  const add = (rows: LocationRows) => {
    for (const r of rows) {
      const count = n(r.scans) - (excludeBots ? n(r.bots) : 0);
      totals.set(r.location, (totals.get(r.location) ?? 0) + count);
    }
  };
  const { wholeDays, ragged } = splitAtUtcDays(period);
  if (wholeDays) add(await read.wholeDays(wholeDays));
  for (const [from, to] of ragged) add(await read.range(from, to));
  return [...totals]
    .filter(([, count]) => count > 0)
    .map(([location, count]) => ({ location, count }))
    .sort((a, b) => b.count - a.count || a.location.localeCompare(b.location));
}

export async function getLocationCounts(
  deps: AppDeps,
  user: User,
  options: PeriodOptions,
): Promise<LocationCount[]> {
  return locationCounts(periodFor(options, deps.clock.now().getTime()), options.excludeBots, {
    wholeDays: (days) => sumLocationsOverUtcDays(deps.db, { userId: user.id }, days),
    range: (from, to) => countRawScansByLocation(deps.db, { userId: user.id }, from, to),
  });
}

/** One code's scans per location (all time without `days`); 404 unless the caller owns it. */
export async function getQrCodeLocations(
  deps: AppDeps,
  user: User,
  id: number,
  options: PeriodOptions,
): Promise<LocationCount[]> {
  await getQrCode(deps, user, id);
  return locationCounts(periodFor(options, deps.clock.now().getTime()), options.excludeBots, {
    wholeDays: (days) => sumLocationsOverUtcDays(deps.db, { codeId: id }, days),
    range: (from, to) => countRawScansByLocation(deps.db, { codeId: id }, from, to),
  });
}

/** One code's scans per local day; 404 unless the caller owns it. */
export async function getQrCodeDaily(
  deps: AppDeps,
  user: User,
  id: number,
  options: ViewOptions & { days: number },
): Promise<DailyCount[]> {
  await getQrCode(deps, user, id);
  const now = deps.clock.now().getTime();
  const period = periodOf(options.tz, options.days, now);
  return dailySeries(deps.db, { codeId: id }, period, options, now);
}

type ScanHistoryPageRow = Awaited<ReturnType<typeof listScanHistoryPage>>[number];

function scanHistoryRowOf(r: ScanHistoryPageRow): ScanHistoryRowWithOutcome {
  return {
    id: r.id,
    timestamp: toIso(r.timestamp),
    userAgent: r.user_agent,
    location: r.location,
    ipAddress: r.ip_address,
    device: categoryOf(r.device),
    deviceName: deviceNameOf(r.user_agent),
    outcome: outcomeOfStored(r.refused, r.rule),
  };
}

/**
 * One code's scan history as a paged list (GET /api/analytics/qr-codes/{id}/scans): the kept raw scans,
 * newest first unless asked otherwise, found by place; 404 unless the caller owns the code.
 */
export async function listCodeScans(
  deps: AppDeps,
  user: User,
  id: number,
  query: CodeScansQuery,
): Promise<Page<ScanHistoryRowWithOutcome>> {
  await getQrCode(deps, user, id);
  const search = query.search || undefined;
  const [rows, total] = await Promise.all([
    listScanHistoryPage(deps.db, id, { ...query, search }),
    countRawScansOfCode(deps.db, id, query.excludeBots, search),
  ]);
  return { items: rows.map(scanHistoryRowOf), total, page: query.page, pageSize: query.pageSize };
}

/** One code's all-time figures and a page of its scan history; 404 unless the caller owns it. */
export async function getQrCodeAnalytics(
  deps: AppDeps,
  user: User,
  id: number,
  options: ViewOptions & { page: number },
): Promise<QrCodeAnalyticsWithOutcomes> {
  const qrCode = await getQrCode(deps, user, id);
  const { db } = deps;
  const pageSize = SCAN_HISTORY_PAGE_SIZE;
  const retentionDays = deps.config.scanRetentionDays;
  const [totalsRow, places, rows, throttledScans, keptScans, refusedScans] = await Promise.all([
    sumDevicesOfCode(db, id),
    countPlacesOfCode(db, id, options.excludeBots),
    listScanHistoryPage(db, id, { page: options.page, pageSize, excludeBots: options.excludeBots }),
    countThrottledScansOfCode(db, id),
    // Only with a retention period does the history hold fewer scans than the totals count.
    retentionDays === undefined ? null : countRawScansOfCode(db, id, options.excludeBots),
    countRefusedScansOfCode(db, id, options.excludeBots),
  ]);
  const totals = zeroDeviceCounts();
  const uniques = zeroUniques();
  if (totalsRow) {
    addInto(totals, totalsRow);
    addUniques(uniques, totalsRow);
  }
  const deviceCounts = deviceList(totals, options.excludeBots);
  const totalScans = countOf(totals, options.excludeBots);
  const historyFrom = retentionCutoff(retentionDays, deps.clock.now().getTime());
  return {
    qrCode,
    scans: rows.map(scanHistoryRowOf),
    page: options.page,
    pageSize,
    totalPages: Math.max(1, Math.ceil((keptScans ?? totalScans) / pageSize)),
    totalScans,
    uniqueLocations: places,
    uniqueDevices: deviceCounts.length,
    devices: deviceCounts,
    throttledScans,
    refusedScans,
    ...uniqueFigures(uniques),
    historyFrom: historyFrom ? historyFrom.toISOString() : null,
  };
}

/** What a shared dashboard shows (server/features/shares): one code of an owner, or one of their folders. */
export type SharedScope = { ownerId: number; codeId: number } | FolderScope;

/**
 * The figures of one code or one folder's codes over the last `days` local days, as the signed-in
 * analytics work them out: the code's daily series and locations as its details page's, its scans and
 * devices as its row of the performance table; a folder's are the sums over its codes (unique scanners
 * too: a person scanning two of them counts on each). `codes` lists the folder's codes with their scans.
 */
export async function getScopeAnalytics(
  deps: AppDeps,
  scope: SharedScope,
  codes: { id: number; name: string }[],
  options: ViewOptions & { days: number },
) {
  const { db } = deps;
  const now = deps.clock.now().getTime();
  const period = periodOf(options.tz, options.days, now);
  const ownerId = 'codeId' in scope ? scope.ownerId : scope.userId;
  const source: QuarterSource = 'codeId' in scope ? { codeId: scope.codeId } : scope;
  const [daily, hours, perCode, locations] = await Promise.all([
    dailySeries(db, source, period, options, now),
    localCounts(db, source, period, options, now, 'hourOfDay'),
    perCodeCounts(db, ownerId, period),
    locationCounts(period, options.excludeBots, {
      wholeDays: (days) => sumLocationsOverUtcDays(db, source, days),
      range: (from, to) => countRawScansByLocation(db, source, from, to),
    }),
  ]);
  const devices = zeroDeviceCounts();
  const rows = codes.map((c) => {
    const figures = perCode.get(c.id);
    if (figures) addInto(devices, figures.devices);
    return {
      name: c.name,
      scans: figures ? countOf(figures.devices, options.excludeBots) : 0,
      uniques: figures?.uniques ?? zeroUniques(),
    };
  });
  return {
    days: options.days,
    totalScans: countOf(devices, options.excludeBots),
    ...uniqueFigures(summedUniques(rows)),
    daily,
    hourly: Array.from({ length: 24 }, (_, hour) => ({ hour, count: hours.get(hour)?.scans ?? 0 })),
    devices: deviceList(devices, options.excludeBots),
    locations,
    codes: rows.map(({ name, scans }) => ({ name, scans })).sort((a, b) => b.scans - a.scans),
  };
}
