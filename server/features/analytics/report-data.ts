import {
  REPORT_TYPE_LABELS,
  type DailyCount,
  type DeviceCategory,
  type DeviceCount,
  type ExportInput,
  type HourlyCount,
  type LocationCount,
  type ReportType,
} from '../../../src/analytics/analytics.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import { normalizeQrType, type QrType } from '../../../src/qr/qr-types.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso, type Db } from '../../db/database.js';
import { maskIp as maskAddress } from '../../../src/analytics/mask-ip.js';
import { deviceColumns, QUARTER_MS } from '../scans/rollup-model.js';
import {
  listCodesWithLastScan,
  listScansPageNewestFirst,
  listUserQuartersNewestFirst,
} from './analytics.repository.js';
import {
  getCodeFigures,
  getDailyScans,
  getDeviceCounts,
  getHourlyScans,
  getLocationCounts,
} from './analytics.service.js';
import { datesPeriod, type Period } from './period.js';
import { dayOfLabel, offsetAt, ZoneOffsets } from '../scans/time-zone.js';

/**
 * What a report holds: figures from the scan rollups (cheap at any size) and, for Scan Activity,
 * the raw scans, read page by page while the file is written so memory stays flat at any count.
 */

export interface ReportSummary {
  totalScans: number;
  /**
   * Daily-unique scanners of the caller's codes over the range, as the Overview's "Unique Scanners"
   * card counts them: each day's distinct people per code, summed (a person scanning on two days, or
   * two codes, counts twice; bots never count). Null when none of the range's scans had them counted.
   */
  uniqueScanners: number | null;
  /** Some of the range's scans were counted before unique scanners were: they are left out of the figure. */
  uniqueScannersPartial: boolean;
  /** The caller's codes (as the Overview's "Active QR Codes" card counts them). */
  activeQrCodes: number;
  /** Local days in the range. */
  days: number;
  averagePerDay: number;
  /** Device categories with at least one scan in the range. */
  deviceCategories: number;
}

export interface ReportPerformanceRow {
  qrCodeId: number;
  name: string;
  type: QrType;
  isDynamic: boolean;
  /** ISO 8601 UTC. */
  created: string;
  count: number;
  /** Daily-unique scanners of the code over the range; null: its scans came before they were counted. */
  uniqueScanners: number | null;
  /** Share of the range's scans, 0–100 with one decimal. */
  percent: number;
  /** The code's most recent scan within the range (ISO 8601 UTC), or null. */
  lastScanAt: string | null;
}

export interface ReportScan {
  id: number;
  /** ISO 8601 UTC. */
  timestamp: string;
  /** Wall time in the report's zone, "YYYY-MM-DD HH:mm:ss". */
  localTime: string;
  qrCodeId: number;
  qrCodeName: string;
  device: DeviceCategory;
  location: string | null;
  referrer: string | null;
  /** Masked: reports get shared. */
  ipAddress: string | null;
}

export interface ScanReadOptions {
  /** Stop after this many scans (the PDF's table). */
  limit?: number;
  /** Rows per query. */
  pageSize?: number;
  /** Scans per time window, planned from the quarter-hour rollups. */
  windowTarget?: number;
}

export interface Report {
  title: string;
  type: ReportType;
  from: string;
  to: string;
  tz: string;
  excludeBots: boolean;
  /** ISO 8601 UTC. */
  generatedAt: string;
  summary: ReportSummary;
  /**
   * Every local date of the range, zero days included, oldest first, with its scans and unique
   * scanners (null: the day's scans were counted before unique scanners were).
   */
  daily: Pick<DailyCount, 'date' | 'count' | 'uniqueScanners'>[];
  devices: (DeviceCount & { percent: number })[];
  locations: (LocationCount & { percent: number })[];
  /** 0–23 in the report's zone. */
  hourly: HourlyCount[];
  /** Most scanned first. */
  performance: ReportPerformanceRow[];
  /** "YYYY-MM-DD HH:mm:ss" in the report's zone. */
  localTime(ms: number): string;
  /** The range's scans, newest first, a page at a time. */
  scans(options?: ScanReadOptions): AsyncGenerator<ReportScan[]>;
}

const n = (v: unknown) => Number(v ?? 0);

/** 0–100 with one decimal. */
export function percentOf(count: number, total: number): number {
  return total > 0 ? Math.round((count / total) * 1000) / 10 : 0;
}

/** As the scan history shows addresses (the first two parts, the rest starred); null when missing. */
export function maskIp(ip: string | null): string | null {
  if (!ip) return null;
  const masked = maskAddress(ip);
  return masked === 'Unknown' ? '*' : masked;
}

/** "YYYY-MM-DD HH:mm:ss" of an instant shifted by a zone offset. */
function wallTime(ms: number, offset: number): string {
  const iso = new Date(ms + offset).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Each code with its kind, creation time and last scan within the period. */
async function codeDetails(db: Db, userId: number, period: Period, excludeBots: boolean) {
  const rows = await listCodesWithLastScan(db, userId, period.from, period.to, excludeBots);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        isDynamic: Boolean(r.is_dynamic),
        created: toIso(r.created),
        lastScanAt: r.last_scan === null || r.last_scan === undefined ? null : iso(Number(r.last_scan)),
      },
    ]),
  );
}

/**
 * Time windows covering [from, to) from the newest back, each holding about `target` scans by the
 * quarter-hour rollups, so every page query sorts a bounded number of rows. The windows tile the
 * whole range whatever the rollups say: they only steer the sizes.
 */
async function* scanWindows(
  db: Db,
  userId: number,
  from: number,
  to: number,
  target: number,
): AsyncGenerator<[number, number]> {
  const PLAN_PAGE = 2000;
  const firstBucket = Math.floor(from / QUARTER_MS);
  let below = Math.ceil(to / QUARTER_MS);
  let end = to;
  let pending = 0;
  for (;;) {
    const rows = await listUserQuartersNewestFirst(db, userId, firstBucket, below, PLAN_PAGE);
    for (const row of rows) {
      pending += deviceColumns.reduce((sum, c) => sum + n(row[c]), 0);
      if (pending >= target) {
        const start = Math.max(from, n(row.bucket) * QUARTER_MS);
        if (start < end) {
          yield [start, end];
          end = start;
        }
        pending = 0;
      }
    }
    if (rows.length < PLAN_PAGE) break;
    below = n(rows[rows.length - 1]!.bucket);
  }
  if (end > from) yield [from, end];
}

/**
 * The scans of the user's codes in the period, newest first, `pageSize` at a time: keyset pages
 * on (at, id) within each planned window. No transaction or cursor stays open between pages,
 * so other requests (and SQLite's single connection) are never held up by a long download.
 */
export async function* readScans(
  db: Db,
  userId: number,
  period: { from: number; to: number },
  excludeBots: boolean,
  describe: { name: (codeId: number) => string; localTime: (ms: number) => string },
  options: ScanReadOptions = {},
): AsyncGenerator<ReportScan[]> {
  const pageSize = options.pageSize ?? 2000;
  const target = options.windowTarget ?? pageSize;
  let remaining = options.limit ?? Infinity;
  if (remaining <= 0) return;
  for await (const [start, end] of scanWindows(db, userId, period.from, period.to, target)) {
    let after: { at: number; id: number } | null = null;
    for (;;) {
      const rows = await listScansPageNewestFirst(db, userId, {
        from: start,
        to: end,
        after,
        limit: Math.min(pageSize, remaining),
        excludeBots,
      });
      if (rows.length === 0) break;
      const page = rows.map((r): ReportScan => ({
        id: r.id,
        timestamp: iso(r.at),
        localTime: describe.localTime(r.at),
        qrCodeId: r.qr_code_id,
        qrCodeName: describe.name(r.qr_code_id),
        device: r.device,
        location: r.location,
        referrer: r.referrer,
        ipAddress: maskIp(r.ip_address),
      }));
      remaining -= page.length;
      yield page;
      if (remaining <= 0) return;
      if (rows.length < pageSize) break;
      const last = rows[rows.length - 1]!;
      after = { at: last.at, id: last.id };
    }
  }
}

/** Everything but the raw scans, read up front so a failure still answers a JSON error. */
export async function loadReport(deps: AppDeps, user: User, input: ExportInput): Promise<Report> {
  const { db } = deps;
  const now = deps.clock.now().getTime();
  const firstDay = dayOfLabel(input.from);
  const lastDay = dayOfLabel(input.to);
  const period = datesPeriod(input.tz, firstDay, lastDay);
  const view = { tz: input.tz, excludeBots: input.excludeBots, period };

  // Each code's scans and unique scanners, most scanned first, and the range's unique scanners, from
  // one read of the per-code rollups.
  const [daily, hourly, devices, locations, codes, details] = await Promise.all([
    getDailyScans(deps, user, view),
    getHourlyScans(deps, user, view),
    getDeviceCounts(deps, user, view),
    getLocationCounts(deps, user, view),
    getCodeFigures(deps, user, view),
    codeDetails(db, user.id, period, input.excludeBots),
  ]);

  const performance = codes.codes;
  const total = performance.reduce((sum, r) => sum + r.count, 0);
  const days = lastDay - firstDay + 1;
  const zone = new ZoneOffsets(input.tz, period.from, period.to);
  const localTime = (ms: number) =>
    wallTime(ms, ms >= period.from && ms <= period.to ? zone.at(ms) : offsetAt(input.tz, ms));
  const names = new Map(performance.map((r) => [r.qrCodeId, r.name]));

  return {
    title: REPORT_TYPE_LABELS[input.type],
    type: input.type,
    from: input.from,
    to: input.to,
    tz: input.tz,
    excludeBots: input.excludeBots,
    generatedAt: new Date(now).toISOString(),
    summary: {
      totalScans: total,
      uniqueScanners: codes.uniqueScanners,
      uniqueScannersPartial: codes.uniqueScannersPartial,
      activeQrCodes: performance.length,
      days,
      averagePerDay: Math.round((total / days) * 100) / 100,
      deviceCategories: devices.length,
    },
    daily: daily.map(({ date, count, uniqueScanners }) => ({ date, count, uniqueScanners })),
    devices: devices.map((d) => ({ ...d, percent: percentOf(d.count, total) })),
    locations: locations.map((l) => ({ ...l, percent: percentOf(l.count, total) })),
    hourly,
    performance: performance.map((r) => {
      const d = details.get(r.qrCodeId);
      return {
        qrCodeId: r.qrCodeId,
        name: r.name,
        type: normalizeQrType(r.type),
        isDynamic: d?.isDynamic ?? false,
        created: d?.created ?? '',
        count: r.count,
        uniqueScanners: r.uniqueScanners,
        percent: percentOf(r.count, total),
        lastScanAt: d?.lastScanAt ?? null,
      };
    }),
    localTime,
    scans: (options) =>
      readScans(
        db,
        user.id,
        period,
        input.excludeBots,
        { name: (id) => names.get(id) ?? `QR code #${id}`, localTime },
        options,
      ),
  };
}
