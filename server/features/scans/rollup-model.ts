import { deviceCategories, type DeviceCategory } from '../../../src/analytics/analytics.schema.js';

/**
 * # Scan rollups: how analytics stay fast at millions of scans
 *
 * Raw scans are kept (the scan history pages through them), and beside them small tables of counts
 * are written **in the same transaction as the scans they count** (scan-rollups.ts and the recorder),
 * so they can never disagree with the raw rows. Each flushed batch is summed in memory first (a burst
 * of scans of one code in one quarter hour becomes one upsert per table, not one per scan), which
 * keeps the write cost near that of the raw insert. This module describes those rows — their units,
 * their columns and how a batch of scans sums into them — and reads or writes nothing.
 *
 * | table                    | key                         | counts              | answers                                   |
 * |--------------------------|-----------------------------|---------------------|-------------------------------------------|
 * | scan_user_quarters       | user, quarter hour          | per device category | a user's daily series, hours, devices     |
 * | scan_code_quarters       | code, quarter hour          | per device category | a code's daily series; ragged period ends |
 * | scan_code_days           | code, UTC day (+ user)      | per device category | per-code totals and performance           |
 * | scan_code_day_locations  | code, UTC day, location     | scans, bots         | (a code's share of the next table)        |
 * | scan_user_day_locations  | user, UTC day, location     | scans, bots         | top locations                             |
 * | scan_code_places         | code, place                 | scans, bots         | a code's unique locations                 |
 *
 * The three device-count tables also count `unique_scanners`: a visitor's first sighting on a code and
 * UTC day, found in the same transaction by `scan_code_day_visitors` (unique-scanners.ts); null for
 * rows that hold scans counted without a visitor hash (before the feature): unknown, never zero.
 *
 * Beside them, `throttled_scans` (code, UTC day → scans) counts the scans of a looping client that
 * were answered but not stored (scan-throttle.ts): not a rollup of raw rows, since there are none.
 *
 * Quarter hours, not hours: every time zone's UTC offset is a multiple of 15 minutes (India +5:30,
 * Nepal +5:45), so local days and local hours are exact sums of quarter-hour buckets in any zone.
 * Day tables are UTC days; a period starting at a local midnight takes its ragged first (and, for
 * an export ending in the past, last) partial UTC day from the quarter-hour tables, or — for
 * locations — from the raw scans of those few hours. Device categories are columns, so "exclude
 * bots" is one subtraction. Deleting a code deletes its rows here by cascade, and subtracts its
 * quarter hours and locations from its owner's (see `subtractCodeFromUserRollups`).
 *
 * Measured with `npm run bench:analytics` (5 million scans): see the README's figures.
 */

/** A `bucket` is a quarter hour since the epoch: floor(ms / QUARTER_MS). */
export const QUARTER_MS = 15 * 60_000;
/** A `day` is a UTC day since the epoch: floor(ms / DAY_MS). */
export const DAY_MS = 86_400_000;

export const deviceColumns = ['mobile', 'tablet', 'desktop', 'bot', 'unknown'] as const;
export type DeviceColumn = (typeof deviceColumns)[number];
export const deviceColumnOf: Record<DeviceCategory, DeviceColumn> = {
  Mobile: 'mobile',
  Tablet: 'tablet',
  Desktop: 'desktop',
  Bot: 'bot',
  Unknown: 'unknown',
};

export type DeviceCounts = Record<DeviceColumn, number>;

export const zeroDeviceCounts = (): DeviceCounts => ({
  mobile: 0,
  tablet: 0,
  desktop: 0,
  bot: 0,
  unknown: 0,
});

/** A stored scan's device category: anything but the five names (or none) is Unknown. */
export function categoryOf(device: string | null | undefined): DeviceCategory {
  return (deviceCategories as readonly string[]).includes(device ?? '')
    ? (device as DeviceCategory)
    : 'Unknown';
}

/**
 * A scan to store, as the redirect sees it, with the id of the user who owns its code (the writers
 * turn it into a lean row: scan-columns.ts).
 */
export interface ScanToStore {
  qr_code_id: number;
  /** When: ms since the epoch (the redirect's own scans: nothing to format or parse), a Date, or ISO 8601 text. */
  timestamp: number | Date | string;
  user_agent?: string | null;
  ip_address?: string | null;
  referrer?: string | null;
  location?: string | null;
  /** The device category's name (anything else, or none, is Unknown). */
  device?: string | null;
  owner_id: number;
  /**
   * The visitor hash for the scan's UTC day (unique-scanners.ts): none for bots. A person's scan
   * without one (written by a seed or an import) makes its rollups' unique count unknown.
   */
  visitor?: number | null;
  /**
   * Beyond one client's per-minute limit on this code (scan-throttle.ts): only counted in
   * throttled_scans — no raw row, no rollups, so a loop neither inflates the analytics nor fills
   * the disk.
   */
  throttled?: boolean;
  /**
   * Refused by the code's smart-redirect options (refused-scans.ts: 1 paused, 2 not started, 3 ended,
   * 4 over its scan limit), 5 the owner's simulated scan, or 6 shown the password form: stored and
   * rolled up as usual, and counted in refused_scans too.
   */
  refused?: number | null;
  /**
   * A served scan's rule (src/qr/scan-outcome.ts: 1..N the rule that chose its destination, 0 the code's
   * own); null or absent when not served or not known.
   */
  rule?: number | null;
}

/** First sightings of a visitor added to a row; null when a scan in it had no visitor hash. */
export interface UniqueCount {
  unique_scanners: number | null;
}

/** The rows a batch of scans adds to each rollup table, keyed by each table's key. */
export interface Rollups {
  userQuarters: Map<string, { user_id: number; bucket: number } & DeviceCounts & UniqueCount>;
  codeQuarters: Map<string, { qr_code_id: number; bucket: number } & DeviceCounts & UniqueCount>;
  codeDays: Map<string, { qr_code_id: number; day: number; user_id: number } & DeviceCounts & UniqueCount>;
  codeDayLocations: Map<
    string,
    { qr_code_id: number; day: number; location: string; user_id: number; scans: number; bots: number }
  >;
  userDayLocations: Map<
    string,
    { user_id: number; day: number; location: string; scans: number; bots: number }
  >;
  codePlaces: Map<string, { qr_code_id: number; place: string; scans: number; bots: number }>;
  /** Throttled scans per code and UTC day. */
  codeThrottled: Map<string, { qr_code_id: number; day: number; scans: number }>;
}

/** A scan's time in whole ms since the epoch. */
export function timeOf(timestamp: unknown): number {
  if (typeof timestamp === 'number' && Number.isFinite(timestamp)) return Math.floor(timestamp);
  const ms = timestamp instanceof Date ? timestamp.getTime() : Date.parse(String(timestamp));
  if (Number.isNaN(ms)) throw new Error(`A scan's timestamp is not a time: ${String(timestamp)}`);
  return ms;
}

/** Where a scan came from, for "unique locations": its location, or its address when unknown. */
export function placeOf(location: string | null | undefined, ip: string | null | undefined): string {
  const known = location && location !== 'Unknown' ? location : null;
  if (known) return known;
  return ip ? `ip:${ip}` : 'Unknown';
}

/** A person's scan with its visitor hash: it may be the first sighting of that visitor that day. */
export function hasVisitor(row: ScanToStore): row is ScanToStore & { visitor: number } {
  return (
    !row.throttled &&
    row.visitor !== null &&
    row.visitor !== undefined &&
    deviceColumnOf[categoryOf(row.device)] !== 'bot'
  );
}

/**
 * Sums a batch of scans into the rows to add to each rollup table. `firstSightings`: the scans whose
 * visitor the code had not seen yet that UTC day (found by the writer in the batch's transaction).
 */
export function rollupsOf(
  rows: readonly ScanToStore[],
  firstSightings: ReadonlySet<ScanToStore> = new Set(),
): Rollups {
  const out: Rollups = {
    userQuarters: new Map(),
    codeQuarters: new Map(),
    codeDays: new Map(),
    codeDayLocations: new Map(),
    userDayLocations: new Map(),
    codePlaces: new Map(),
    codeThrottled: new Map(),
  };
  for (const row of rows) {
    const ms = timeOf(row.timestamp);
    const bucket = Math.floor(ms / QUARTER_MS);
    const day = Math.floor(ms / DAY_MS);
    if (row.throttled) {
      const key = `${row.qr_code_id}:${day}`;
      const t = out.codeThrottled.get(key);
      if (t) t.scans += 1;
      else out.codeThrottled.set(key, { qr_code_id: row.qr_code_id, day, scans: 1 });
      continue;
    }
    const column = deviceColumnOf[categoryOf(row.device)];
    const code = row.qr_code_id;
    const user = row.owner_id;
    // A person's scan without a visitor hash leaves its rows' unique count unknown.
    const unknown = column !== 'bot' && (row.visitor === null || row.visitor === undefined);
    const first = firstSightings.has(row) ? 1 : 0;
    const countUnique = (r: UniqueCount) => {
      if (r.unique_scanners !== null) r.unique_scanners = unknown ? null : r.unique_scanners + first;
    };

    let k = `${user}:${bucket}`;
    let uq = out.userQuarters.get(k);
    if (!uq)
      out.userQuarters.set(k, (uq = { user_id: user, bucket, ...zeroDeviceCounts(), unique_scanners: 0 }));
    uq[column] += 1;
    countUnique(uq);

    k = `${code}:${bucket}`;
    let cq = out.codeQuarters.get(k);
    if (!cq)
      out.codeQuarters.set(k, (cq = { qr_code_id: code, bucket, ...zeroDeviceCounts(), unique_scanners: 0 }));
    cq[column] += 1;
    countUnique(cq);

    k = `${code}:${day}`;
    let cd = out.codeDays.get(k);
    if (!cd)
      out.codeDays.set(
        k,
        (cd = { qr_code_id: code, day, user_id: user, ...zeroDeviceCounts(), unique_scanners: 0 }),
      );
    cd[column] += 1;
    countUnique(cd);

    const location = row.location || 'Unknown';
    k = `${code}:${day}:${location}`;
    let cl = out.codeDayLocations.get(k);
    if (!cl)
      out.codeDayLocations.set(
        k,
        (cl = { qr_code_id: code, day, location, user_id: user, scans: 0, bots: 0 }),
      );
    cl.scans += 1;
    if (column === 'bot') cl.bots += 1;

    k = `${user}:${day}:${location}`;
    let ul = out.userDayLocations.get(k);
    if (!ul) out.userDayLocations.set(k, (ul = { user_id: user, day, location, scans: 0, bots: 0 }));
    ul.scans += 1;
    if (column === 'bot') ul.bots += 1;

    const place = placeOf(row.location, row.ip_address);
    k = `${code}:${place}`;
    let cp = out.codePlaces.get(k);
    if (!cp) out.codePlaces.set(k, (cp = { qr_code_id: code, place, scans: 0, bots: 0 }));
    cp.scans += 1;
    if (column === 'bot') cp.bots += 1;
  }
  return out;
}
