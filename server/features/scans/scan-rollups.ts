import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { deviceColumns, rollupsOf, type DeviceCounts, type ScanToStore } from './rollup-model.js';
import { nativeRefusedWriter, writeRefusedScans } from './refused-scans.js';
import { leanRow, resolveDictionaryIds, type DictionaryIds } from './scan-columns.js';
import {
  addCodeDayLocations,
  addCodeDays,
  addCodePlaces,
  addCodeQuarters,
  addThrottledScans,
  addUserDayLocations,
  addUserQuarters,
  deleteEmptyUserDayLocations,
  deleteEmptyUserQuarters,
  findCodeDayLocations,
  findCodeQuarters,
  insertScans,
  prepareScanWrites,
  RAW_SCAN_COLUMNS,
} from './scans.repository.js';
import { insertFirstSightings, nativeFirstSightings } from './unique-scanners.js';

/**
 * The rollup writers: every scan is written with its rollup rows in one transaction (the tables, their
 * units and how a batch sums into them are described in rollup-model.ts). Two writers, one result: a
 * native one for SQLite (prepared statements, run synchronously: the redirect's hot path) and one
 * through Kysely for any database. Their statements are in scans.repository.ts.
 */

/**
 * SQLite: the scans and their rollups as prepared statements (scans.repository.ts), run synchronously,
 * with their dictionary ids resolved before (scan-columns.ts). The caller wraps the call in a
 * transaction (the recorder's batch, or a migration-free import).
 */
export function nativeScanWriter(
  connection: SQLite.Database,
): (rows: readonly ScanToStore[], ids: DictionaryIds) => void {
  const {
    insertScan,
    userQuarter,
    codeQuarter,
    codeDay,
    codeDayLocation,
    userDayLocation,
    codePlace,
    codeThrottled,
  } = prepareScanWrites(connection);
  const devices = (r: DeviceCounts) => deviceColumns.map((c) => r[c]);
  const firstSightingsOf = nativeFirstSightings(connection);
  const writeRefused = nativeRefusedWriter(connection);
  return (rows, ids) => {
    for (const row of rows) {
      if (row.throttled) continue;
      const lean = leanRow(row, ids);
      insertScan.run(RAW_SCAN_COLUMNS.map((c) => lean[c]));
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
 * Rows in key order: every writer (and a code's deletion) then locks rollup rows in the same order,
 * so two PostgreSQL instances flushing at once wait for each other instead of deadlocking.
 */
export function inKeyOrder<T extends object>(rows: Iterable<T>, keys: (keyof T)[]): T[] {
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
  for (const chunk of chunks(stored)) await insertScans(trx, chunk);
  const r = rollupsOf(rows, firstSightings);
  for (const chunk of chunks(inKeyOrder(r.userQuarters.values(), ['user_id', 'bucket'])))
    await addUserQuarters(trx, chunk);
  for (const chunk of chunks(inKeyOrder(r.codeQuarters.values(), ['qr_code_id', 'bucket'])))
    await addCodeQuarters(trx, chunk);
  for (const chunk of chunks(inKeyOrder(r.codeDays.values(), ['qr_code_id', 'day'])))
    await addCodeDays(trx, chunk);
  for (const chunk of chunks(inKeyOrder(r.codeDayLocations.values(), ['qr_code_id', 'day', 'location'])))
    await addCodeDayLocations(trx, chunk);
  for (const chunk of chunks(inKeyOrder(r.userDayLocations.values(), ['user_id', 'day', 'location'])))
    await addUserDayLocations(trx, chunk);
  for (const chunk of chunks(inKeyOrder(r.codePlaces.values(), ['qr_code_id', 'place'])))
    await addCodePlaces(trx, chunk);
  for (const chunk of chunks(inKeyOrder(r.codeThrottled.values(), ['qr_code_id', 'day'])))
    await addThrottledScans(trx, chunk);
  await writeRefusedScans(trx, rows);
}

/**
 * Before a code is deleted (its own rollup rows go by cascade): take its quarter hours and its
 * locations out of its owner's. Call inside the deleting transaction.
 */
export async function subtractCodeFromUserRollups(trx: Kysely<Database>, userId: number, codeId: number) {
  await addCodeToUserRollups(trx, userId, codeId, -1);
  await deleteEmptyUserDayLocations(trx, userId);
  await deleteEmptyUserQuarters(trx, userId);
}

/** Adds (sign 1) or subtracts (sign -1) a code's quarter hours and locations to or from an owner's. */
async function addCodeToUserRollups(trx: Kysely<Database>, userId: number, codeId: number, sign: 1 | -1) {
  const rows = await findCodeQuarters(trx, codeId);
  for (const chunk of chunks(rows)) {
    // Upsert signed counts: subtracting, the owner's rows exist, so each becomes a subtraction.
    await addUserQuarters(
      trx,
      chunk.map((r) => ({
        user_id: userId,
        bucket: r.bucket,
        mobile: sign * Number(r.mobile),
        tablet: sign * Number(r.tablet),
        desktop: sign * Number(r.desktop),
        bot: sign * Number(r.bot),
        unknown: sign * Number(r.unknown),
        // An unknown count of the code's was added to the owner's too, which stays unknown.
        unique_scanners:
          r.unique_scanners === null ? (sign < 0 ? 0 : null) : sign * Number(r.unique_scanners),
      })),
    );
  }
  const locations = await findCodeDayLocations(trx, codeId);
  for (const chunk of chunks(locations)) {
    await addUserDayLocations(
      trx,
      chunk.map((r) => ({
        user_id: userId,
        day: r.day,
        location: r.location,
        scans: sign * Number(r.scans),
        bots: sign * Number(r.bots),
      })),
    );
  }
}

/**
 * A code moves to another workspace (the same transaction as its owner's change): its scans leave the
 * old owner's totals and join the new one's, and its own rows name the new owner.
 */
export async function moveCodeRollups(
  trx: Kysely<Database>,
  fromUserId: number,
  toUserId: number,
  codeId: number,
) {
  await subtractCodeFromUserRollups(trx, fromUserId, codeId);
  await addCodeToUserRollups(trx, toUserId, codeId, 1);
  await trx
    .updateTable('scan_code_days')
    .set({ user_id: toUserId })
    .where('qr_code_id', '=', codeId)
    .execute();
  await trx
    .updateTable('scan_code_day_locations')
    .set({ user_id: toUserId })
    .where('qr_code_id', '=', codeId)
    .execute();
}
