import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { deviceCategories, type DeviceCategory } from '../../../src/analytics/analytics.schema.js';
import type { Database, NewQrScanRow } from '../../db/database.js';

/**
 * # Scan rollups: how analytics stay fast at millions of scans
 *
 * Raw scans are kept (the scan history pages through them), and beside them five small tables of
 * counts are written **in the same transaction as the scans they count**, so they can never disagree
 * with the raw rows. Each flushed batch is summed in memory first (a burst of scans of one code in
 * one quarter hour becomes one upsert per table, not one per scan), which keeps the write cost near
 * that of the raw insert.
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

export const QUARTER_MS = 15 * 60_000;
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

/** A scan to store, with the id of the user who owns its code. */
export interface ScanToStore extends NewQrScanRow {
  owner_id: number;
}

export type DeviceCounts = Record<DeviceColumn, number>;

interface Rollups {
  userQuarters: Map<string, { user_id: number; bucket: number } & DeviceCounts>;
  codeQuarters: Map<string, { qr_code_id: number; bucket: number } & DeviceCounts>;
  codeDays: Map<string, { qr_code_id: number; day: number; user_id: number } & DeviceCounts>;
  codeDayLocations: Map<
    string,
    { qr_code_id: number; day: number; location: string; user_id: number; scans: number; bots: number }
  >;
  userDayLocations: Map<
    string,
    { user_id: number; day: number; location: string; scans: number; bots: number }
  >;
  codePlaces: Map<string, { qr_code_id: number; place: string; scans: number; bots: number }>;
}

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

function timeOf(timestamp: unknown): number {
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

/** Sums a batch of scans into the rows to add to each rollup table. */
export function rollupsOf(rows: readonly ScanToStore[]): Rollups {
  const out: Rollups = {
    userQuarters: new Map(),
    codeQuarters: new Map(),
    codeDays: new Map(),
    codeDayLocations: new Map(),
    userDayLocations: new Map(),
    codePlaces: new Map(),
  };
  for (const row of rows) {
    const ms = timeOf(row.timestamp);
    const bucket = Math.floor(ms / QUARTER_MS);
    const day = Math.floor(ms / DAY_MS);
    const column = deviceColumnOf[categoryOf(row.device)];
    const code = row.qr_code_id;
    const user = row.owner_id;

    let k = `${user}:${bucket}`;
    let uq = out.userQuarters.get(k);
    if (!uq) out.userQuarters.set(k, (uq = { user_id: user, bucket, ...zeroDeviceCounts() }));
    uq[column] += 1;

    k = `${code}:${bucket}`;
    let cq = out.codeQuarters.get(k);
    if (!cq) out.codeQuarters.set(k, (cq = { qr_code_id: code, bucket, ...zeroDeviceCounts() }));
    cq[column] += 1;

    k = `${code}:${day}`;
    let cd = out.codeDays.get(k);
    if (!cd) out.codeDays.set(k, (cd = { qr_code_id: code, day, user_id: user, ...zeroDeviceCounts() }));
    cd[column] += 1;

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

const RAW_COLUMNS = [
  'qr_code_id',
  'timestamp',
  'user_agent',
  'ip_address',
  'referrer',
  'location',
  'device',
] as const;

function rawRow(row: ScanToStore): NewQrScanRow {
  const { owner_id: _owner, ...raw } = row;
  return raw;
}

const addDevices = (table: string) =>
  deviceColumns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');

/**
 * SQLite: the scans and their rollups as prepared statements, run synchronously. The caller wraps
 * the call in a transaction (the recorder's batch, or a migration-free import).
 */
export function nativeScanWriter(connection: SQLite.Database): (rows: readonly ScanToStore[]) => void {
  const devs = deviceColumns.join(', ');
  const devParams = deviceColumns.map(() => '?').join(', ');
  const insertScan = connection.prepare(
    `insert into qr_scans (${RAW_COLUMNS.join(', ')}) values (${RAW_COLUMNS.map(() => '?').join(', ')})`,
  );
  const userQuarter = connection.prepare(
    `insert into scan_user_quarters (user_id, bucket, ${devs}) values (?, ?, ${devParams})
     on conflict (user_id, bucket) do update set ${addDevices('scan_user_quarters')}`,
  );
  const codeQuarter = connection.prepare(
    `insert into scan_code_quarters (qr_code_id, bucket, ${devs}) values (?, ?, ${devParams})
     on conflict (qr_code_id, bucket) do update set ${addDevices('scan_code_quarters')}`,
  );
  const codeDay = connection.prepare(
    `insert into scan_code_days (qr_code_id, day, user_id, ${devs}) values (?, ?, ?, ${devParams})
     on conflict (qr_code_id, day) do update set ${addDevices('scan_code_days')}`,
  );
  const codeDayLocation = connection.prepare(
    `insert into scan_code_day_locations (qr_code_id, day, location, user_id, scans, bots) values (?, ?, ?, ?, ?, ?)
     on conflict (qr_code_id, day, location) do update set
       scans = scan_code_day_locations.scans + excluded.scans, bots = scan_code_day_locations.bots + excluded.bots`,
  );
  const userDayLocation = connection.prepare(
    `insert into scan_user_day_locations (user_id, day, location, scans, bots) values (?, ?, ?, ?, ?)
     on conflict (user_id, day, location) do update set
       scans = scan_user_day_locations.scans + excluded.scans, bots = scan_user_day_locations.bots + excluded.bots`,
  );
  const codePlace = connection.prepare(
    `insert into scan_code_places (qr_code_id, place, scans, bots) values (?, ?, ?, ?)
     on conflict (qr_code_id, place) do update set
       scans = scan_code_places.scans + excluded.scans, bots = scan_code_places.bots + excluded.bots`,
  );
  const devices = (r: DeviceCounts) => deviceColumns.map((c) => r[c]);
  return (rows) => {
    for (const row of rows) insertScan.run(RAW_COLUMNS.map((c) => row[c] ?? null));
    const r = rollupsOf(rows);
    for (const v of r.userQuarters.values()) userQuarter.run(v.user_id, v.bucket, ...devices(v));
    for (const v of r.codeQuarters.values()) codeQuarter.run(v.qr_code_id, v.bucket, ...devices(v));
    for (const v of r.codeDays.values()) codeDay.run(v.qr_code_id, v.day, v.user_id, ...devices(v));
    for (const v of r.codeDayLocations.values())
      codeDayLocation.run(v.qr_code_id, v.day, v.location, v.user_id, v.scans, v.bots);
    for (const v of r.userDayLocations.values())
      userDayLocation.run(v.user_id, v.day, v.location, v.scans, v.bots);
    for (const v of r.codePlaces.values()) codePlace.run(v.qr_code_id, v.place, v.scans, v.bots);
  };
}

/** `column = table.column + excluded.column` for each device column of an upsert. */
function addDeviceCounts(table: string): Record<DeviceColumn, RawBuilder<number>> {
  const set = {} as Record<DeviceColumn, RawBuilder<number>>;
  for (const c of deviceColumns)
    set[c] = sql<number>`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`;
  return set;
}

/**
 * Rows in key order: every writer (and a code's deletion) then locks rollup rows in the same order,
 * so two PostgreSQL instances flushing at once wait for each other instead of deadlocking.
 */
function inKeyOrder<T extends object>(rows: Iterable<T>, keys: (keyof T)[]): T[] {
  return [...rows].sort((a, b) => {
    for (const k of keys) {
      const x = a[k];
      const y = b[k];
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  });
}

/** `scans` and `bots` added to a location or place row's on conflict. */
function addScansAndBots(table: string): { scans: RawBuilder<number>; bots: RawBuilder<number> } {
  const add = (c: string) => sql<number>`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`;
  return { scans: add('scans'), bots: add('bots') };
}

/** Raw scans that are not bots (a scan without a device category counts as Unknown, not Bot). */
export function notBotScan(column: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(column)} is null or ${sql.ref(column)} <> 'Bot')`;
}

/** At most this many rows per multi-row statement (parameter limits of both databases). */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Any database, through Kysely: the scans and their rollups. Call it inside a transaction so the
 * counts commit with the scans (the recorder, the seed and test fixtures all do).
 */
export async function writeScansWithRollups(
  trx: Kysely<Database>,
  rows: readonly ScanToStore[],
): Promise<void> {
  if (rows.length === 0) return;
  for (const chunk of chunks(rows.map(rawRow))) await trx.insertInto('qr_scans').values(chunk).execute();
  const r = rollupsOf(rows);
  for (const chunk of chunks(inKeyOrder(r.userQuarters.values(), ['user_id', 'bucket'])))
    await trx
      .insertInto('scan_user_quarters')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['user_id', 'bucket']).doUpdateSet(addDeviceCounts('scan_user_quarters')),
      )
      .execute();
  for (const chunk of chunks(inKeyOrder(r.codeQuarters.values(), ['qr_code_id', 'bucket'])))
    await trx
      .insertInto('scan_code_quarters')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['qr_code_id', 'bucket']).doUpdateSet(addDeviceCounts('scan_code_quarters')),
      )
      .execute();
  for (const chunk of chunks(inKeyOrder(r.codeDays.values(), ['qr_code_id', 'day'])))
    await trx
      .insertInto('scan_code_days')
      .values(chunk)
      .onConflict((oc) => oc.columns(['qr_code_id', 'day']).doUpdateSet(addDeviceCounts('scan_code_days')))
      .execute();
  for (const chunk of chunks(inKeyOrder(r.codeDayLocations.values(), ['qr_code_id', 'day', 'location'])))
    await trx
      .insertInto('scan_code_day_locations')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['qr_code_id', 'day', 'location']).doUpdateSet(addScansAndBots('scan_code_day_locations')),
      )
      .execute();
  for (const chunk of chunks(inKeyOrder(r.userDayLocations.values(), ['user_id', 'day', 'location'])))
    await trx
      .insertInto('scan_user_day_locations')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['user_id', 'day', 'location']).doUpdateSet(addScansAndBots('scan_user_day_locations')),
      )
      .execute();
  for (const chunk of chunks(inKeyOrder(r.codePlaces.values(), ['qr_code_id', 'place'])))
    await trx
      .insertInto('scan_code_places')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['qr_code_id', 'place']).doUpdateSet(addScansAndBots('scan_code_places')),
      )
      .execute();
}

/**
 * Before a code is deleted (its own rollup rows go by cascade): take its quarter hours and its
 * locations out of its owner's. Call inside the deleting transaction.
 */
export async function subtractCodeFromUserRollups(trx: Kysely<Database>, userId: number, codeId: number) {
  const rows = await trx
    .selectFrom('scan_code_quarters')
    .select(['bucket', ...deviceColumns])
    .where('qr_code_id', '=', codeId)
    .orderBy('bucket')
    .execute();
  for (const chunk of chunks(rows)) {
    // Upsert negative counts: the owner's rows exist, so each becomes a subtraction.
    await trx
      .insertInto('scan_user_quarters')
      .values(
        chunk.map((r) => ({
          user_id: userId,
          bucket: r.bucket,
          mobile: -Number(r.mobile),
          tablet: -Number(r.tablet),
          desktop: -Number(r.desktop),
          bot: -Number(r.bot),
          unknown: -Number(r.unknown),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'bucket']).doUpdateSet(addDeviceCounts('scan_user_quarters')),
      )
      .execute();
  }
  const locations = await trx
    .selectFrom('scan_code_day_locations')
    .select(['day', 'location', 'scans', 'bots'])
    .where('qr_code_id', '=', codeId)
    .orderBy('day')
    .orderBy('location')
    .execute();
  for (const chunk of chunks(locations)) {
    await trx
      .insertInto('scan_user_day_locations')
      .values(
        chunk.map((r) => ({
          user_id: userId,
          day: r.day,
          location: r.location,
          scans: -Number(r.scans),
          bots: -Number(r.bots),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'day', 'location']).doUpdateSet(addScansAndBots('scan_user_day_locations')),
      )
      .execute();
  }
  await trx
    .deleteFrom('scan_user_day_locations')
    .where('user_id', '=', userId)
    .where('scans', '=', 0)
    .execute();
  await trx
    .deleteFrom('scan_user_quarters')
    .where('user_id', '=', userId)
    .where((eb) => eb.and(deviceColumns.map((c) => eb(c, '=', 0))))
    .execute();
}
