import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import {
  deviceColumns,
  rollupsOf,
  type DeviceColumn,
  type DeviceCounts,
  type ScanToStore,
} from './rollup-model.js';
import { nativeRefusedWriter, writeRefusedScans } from './refused-scans.js';
import { leanRow, resolveDictionaryIds, type DictionaryIds } from './scan-columns.js';
import { insertFirstSightings, nativeFirstSightings } from './unique-scanners.js';

/**
 * The rollup writers: every scan is written with its rollup rows in one transaction (the tables, their
 * units and how a batch sums into them are described in rollup-model.ts). Two writers, one result: a
 * native one for SQLite (prepared statements, run synchronously: the redirect's hot path) and one
 * through Kysely for any database.
 */

const RAW_COLUMNS = [
  'qr_code_id',
  'at',
  'user_agent_id',
  'referrer_id',
  'location_id',
  'ip_address',
  'device',
  'refused',
  'visitor',
] as const;

const addDevices = (table: string) =>
  deviceColumns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');
/** The device counts and the unique scanners (null stays null: unknown) of an upsert. */
const addCounts = (table: string) =>
  `${addDevices(table)}, unique_scanners = ${table}.unique_scanners + excluded.unique_scanners`;

/**
 * SQLite: the scans and their rollups as prepared statements, run synchronously, with their dictionary
 * ids resolved before (scan-columns.ts). The caller wraps the call in a transaction (the recorder's
 * batch, or a migration-free import).
 */
export function nativeScanWriter(
  connection: SQLite.Database,
): (rows: readonly ScanToStore[], ids: DictionaryIds) => void {
  const devs = deviceColumns.join(', ');
  const devParams = deviceColumns.map(() => '?').join(', ');
  const insertScan = connection.prepare(
    `insert into qr_scans (${RAW_COLUMNS.join(', ')}) values (${RAW_COLUMNS.map(() => '?').join(', ')})`,
  );
  const userQuarter = connection.prepare(
    `insert into scan_user_quarters (user_id, bucket, ${devs}, unique_scanners) values (?, ?, ${devParams}, ?)
     on conflict (user_id, bucket) do update set ${addCounts('scan_user_quarters')}`,
  );
  const codeQuarter = connection.prepare(
    `insert into scan_code_quarters (qr_code_id, bucket, ${devs}, unique_scanners) values (?, ?, ${devParams}, ?)
     on conflict (qr_code_id, bucket) do update set ${addCounts('scan_code_quarters')}`,
  );
  const codeDay = connection.prepare(
    `insert into scan_code_days (qr_code_id, day, user_id, ${devs}, unique_scanners) values (?, ?, ?, ${devParams}, ?)
     on conflict (qr_code_id, day) do update set ${addCounts('scan_code_days')}`,
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
  const codeThrottled = connection.prepare(
    `insert into throttled_scans (qr_code_id, day, scans) values (?, ?, ?)
     on conflict (qr_code_id, day) do update set scans = throttled_scans.scans + excluded.scans`,
  );
  const devices = (r: DeviceCounts) => deviceColumns.map((c) => r[c]);
  const firstSightingsOf = nativeFirstSightings(connection);
  const writeRefused = nativeRefusedWriter(connection);
  return (rows, ids) => {
    for (const row of rows) {
      if (row.throttled) continue;
      const lean = leanRow(row, ids);
      insertScan.run(RAW_COLUMNS.map((c) => lean[c]));
    }
    const r = rollupsOf(rows, firstSightingsOf(rows));
    for (const v of r.userQuarters.values())
      userQuarter.run(v.user_id, v.bucket, ...devices(v), v.unique_scanners);
    for (const v of r.codeQuarters.values())
      codeQuarter.run(v.qr_code_id, v.bucket, ...devices(v), v.unique_scanners);
    for (const v of r.codeDays.values())
      codeDay.run(v.qr_code_id, v.day, v.user_id, ...devices(v), v.unique_scanners);
    for (const v of r.codeDayLocations.values())
      codeDayLocation.run(v.qr_code_id, v.day, v.location, v.user_id, v.scans, v.bots);
    for (const v of r.userDayLocations.values())
      userDayLocation.run(v.user_id, v.day, v.location, v.scans, v.bots);
    for (const v of r.codePlaces.values()) codePlace.run(v.qr_code_id, v.place, v.scans, v.bots);
    for (const v of r.codeThrottled.values()) codeThrottled.run(v.qr_code_id, v.day, v.scans);
    writeRefused(rows);
  };
}

/**
 * `column = table.column + excluded.column` for each device column of an upsert, and for the unique
 * scanners (null + anything stays null: unknown).
 */
function addDeviceCounts(table: string): Record<DeviceColumn | 'unique_scanners', RawBuilder<number>> {
  const set = {} as Record<DeviceColumn | 'unique_scanners', RawBuilder<number>>;
  for (const c of [...deviceColumns, 'unique_scanners' as const])
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

/** At most this many rows per multi-row statement (parameter limits of both databases). */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Any database, through Kysely: the scans and their rollups. Call it inside a transaction so the
 * counts commit with the scans (the recorder, the seed and test fixtures all do). Without `ids`, the
 * dictionary ids are resolved in that transaction.
 */
export async function writeScansWithRollups(
  trx: Kysely<Database>,
  rows: readonly ScanToStore[],
  ids?: DictionaryIds,
): Promise<void> {
  if (rows.length === 0) return;
  const resolved = ids ?? (await resolveDictionaryIds(trx, rows));
  // First sightings are claimed before the scans get their ids. On PostgreSQL a concurrent writer
  // holding one of the same visitors makes this wait until it commits, so the scans of whichever
  // claims a visitor first always get the lower ids: a visitor's first sighting is always their first
  // stored scan, however two writers (two instances, or the recorder and a direct write) interleave.
  const firstSightings = await insertFirstSightings(trx, rows);
  const stored = rows.filter((row) => !row.throttled).map((row) => leanRow(row, resolved));
  for (const chunk of chunks(stored)) await trx.insertInto('qr_scans').values(chunk).execute();
  const r = rollupsOf(rows, firstSightings);
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
  for (const chunk of chunks(inKeyOrder(r.codeThrottled.values(), ['qr_code_id', 'day'])))
    await trx
      .insertInto('throttled_scans')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['qr_code_id', 'day']).doUpdateSet({
          scans: sql<number>`${sql.ref('throttled_scans.scans')} + ${sql.ref('excluded.scans')}`,
        }),
      )
      .execute();
  await writeRefusedScans(trx, rows);
}

/**
 * Before a code is deleted (its own rollup rows go by cascade): take its quarter hours and its
 * locations out of its owner's. Call inside the deleting transaction.
 */
export async function subtractCodeFromUserRollups(trx: Kysely<Database>, userId: number, codeId: number) {
  const rows = await trx
    .selectFrom('scan_code_quarters')
    .select(['bucket', ...deviceColumns, 'unique_scanners'])
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
          // An unknown count of the code's was added to the owner's too, which stays unknown.
          unique_scanners: r.unique_scanners === null ? 0 : -Number(r.unique_scanners),
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
