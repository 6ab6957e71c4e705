import type SQLite from 'better-sqlite3';
import { sql, type Insertable, type Kysely, type RawBuilder } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { deviceColumns, type DeviceColumn } from './rollup-model.js';

/**
 * Every SQL statement of the scans: the lean raw rows and their dictionaries (scan-columns.ts), the
 * rollups a batch adds to (scan-rollups.ts; the tables and their units: rollup-model.ts), the visitor
 * sets and daily salts of the unique scanners (unique-scanners.ts), the refused and served counts
 * (refused-scans.ts, scan-counts.ts) and the retention's deletes (scan-retention.ts). Those modules
 * hold the rules — batching, lock order, what counts — and call these.
 *
 * On SQLite the recorder's fast path runs prepared statements synchronously: the `prepare…` functions
 * prepare them once (when the writer is made) and return them; the others go through Kysely and take
 * `db` (or the batch's `trx`) first.
 */

type Row<T extends keyof Database> = Insertable<Database[T]>;

// ---- Dictionaries of the lean raw scans (scan-columns.ts) ----

/** A dictionary table: each distinct user agent, referrer or location once, with its id. */
export type ScanDictionaryTable = 'scan_user_agents' | 'scan_referrers' | 'scan_locations';

/** Adds the values a dictionary does not hold yet. */
export function insertDictionaryValues(db: Kysely<Database>, table: ScanDictionaryTable, values: string[]) {
  return db
    .insertInto(table)
    .values(values.map((value) => ({ value })))
    .onConflict((oc) => oc.column('value').doNothing())
    .execute();
}

/** The ids of the values given. */
export function findDictionaryIds(db: Kysely<Database>, table: ScanDictionaryTable, values: string[]) {
  return db.selectFrom(table).select(['id', 'value']).where('value', 'in', values).execute();
}

/** SQLite: a dictionary's insert-if-new and its id lookup (which answers the id alone). */
export function prepareDictionaryStatements(
  connection: SQLite.Database,
  table: ScanDictionaryTable,
): { insert: SQLite.Statement; find: SQLite.Statement } {
  return {
    insert: connection.prepare(`insert into ${table} (value) values (?) on conflict (value) do nothing`),
    find: connection.prepare(`select id from ${table} where value = ?`).pluck(),
  };
}

// ---- A batch's raw scans and rollups (scan-rollups.ts) ----

/** A raw scan's columns, in the order of the native insert's parameters. */
export const RAW_SCAN_COLUMNS = [
  'qr_code_id',
  'at',
  'user_agent_id',
  'referrer_id',
  'location_id',
  'ip_address',
  'device',
  'refused',
  'visitor',
  'rule',
] as const;

const addDevices = (table: string) =>
  deviceColumns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');
/** The device counts and the unique scanners (null stays null: unknown) of an upsert. */
const addCounts = (table: string) =>
  `${addDevices(table)}, unique_scanners = ${table}.unique_scanners + excluded.unique_scanners`;

/**
 * SQLite: the raw scan's insert and each rollup table's upsert (adding to the row's counts), run by
 * the native writer. Parameters: the raw insert's in RAW_SCAN_COLUMNS order; an upsert's in its
 * column list's, the device counts in `deviceColumns` order.
 */
export function prepareScanWrites(connection: SQLite.Database) {
  const devs = deviceColumns.join(', ');
  const devParams = deviceColumns.map(() => '?').join(', ');
  const insertScan = connection.prepare(
    `insert into qr_scans (${RAW_SCAN_COLUMNS.join(', ')}) values (${RAW_SCAN_COLUMNS.map(() => '?').join(', ')})`,
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
  return {
    insertScan,
    userQuarter,
    codeQuarter,
    codeDay,
    codeDayLocation,
    userDayLocation,
    codePlace,
    codeThrottled,
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

/** `scans` and `bots` added to a location or place row's on conflict. */
function addScansAndBots(table: string): { scans: RawBuilder<number>; bots: RawBuilder<number> } {
  const add = (c: string) => sql<number>`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`;
  return { scans: add('scans'), bots: add('bots') };
}

/** Raw scans, as lean rows (scan-columns.ts). */
export function insertScans(trx: Kysely<Database>, rows: Row<'qr_scans'>[]) {
  return trx.insertInto('qr_scans').values(rows).execute();
}

/**
 * The upserts below add each row's counts to the stored row of its key (a new key is inserted as
 * given; negative counts subtract).
 */
export function addUserQuarters(trx: Kysely<Database>, rows: Row<'scan_user_quarters'>[]) {
  return trx
    .insertInto('scan_user_quarters')
    .values(rows)
    .onConflict((oc) => oc.columns(['user_id', 'bucket']).doUpdateSet(addDeviceCounts('scan_user_quarters')))
    .execute();
}

export function addCodeQuarters(trx: Kysely<Database>, rows: Row<'scan_code_quarters'>[]) {
  return trx
    .insertInto('scan_code_quarters')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['qr_code_id', 'bucket']).doUpdateSet(addDeviceCounts('scan_code_quarters')),
    )
    .execute();
}

export function addCodeDays(trx: Kysely<Database>, rows: Row<'scan_code_days'>[]) {
  return trx
    .insertInto('scan_code_days')
    .values(rows)
    .onConflict((oc) => oc.columns(['qr_code_id', 'day']).doUpdateSet(addDeviceCounts('scan_code_days')))
    .execute();
}

export function addCodeDayLocations(trx: Kysely<Database>, rows: Row<'scan_code_day_locations'>[]) {
  return trx
    .insertInto('scan_code_day_locations')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['qr_code_id', 'day', 'location']).doUpdateSet(addScansAndBots('scan_code_day_locations')),
    )
    .execute();
}

export function addUserDayLocations(trx: Kysely<Database>, rows: Row<'scan_user_day_locations'>[]) {
  return trx
    .insertInto('scan_user_day_locations')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'day', 'location']).doUpdateSet(addScansAndBots('scan_user_day_locations')),
    )
    .execute();
}

export function addCodePlaces(trx: Kysely<Database>, rows: Row<'scan_code_places'>[]) {
  return trx
    .insertInto('scan_code_places')
    .values(rows)
    .onConflict((oc) => oc.columns(['qr_code_id', 'place']).doUpdateSet(addScansAndBots('scan_code_places')))
    .execute();
}

export function addThrottledScans(trx: Kysely<Database>, rows: Row<'throttled_scans'>[]) {
  return trx
    .insertInto('throttled_scans')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['qr_code_id', 'day']).doUpdateSet({
        scans: sql<number>`${sql.ref('throttled_scans.scans')} + ${sql.ref('excluded.scans')}`,
      }),
    )
    .execute();
}

/** A code's quarter-hour rows, in bucket order (to take them out of its owner's). */
export function findCodeQuarters(trx: Kysely<Database>, codeId: number) {
  return trx
    .selectFrom('scan_code_quarters')
    .select(['bucket', ...deviceColumns, 'unique_scanners'])
    .where('qr_code_id', '=', codeId)
    .orderBy('bucket')
    .execute();
}

/** A code's location rows, in key order (to take them out of its owner's). */
export function findCodeDayLocations(trx: Kysely<Database>, codeId: number) {
  return trx
    .selectFrom('scan_code_day_locations')
    .select(['day', 'location', 'scans', 'bots'])
    .where('qr_code_id', '=', codeId)
    .orderBy('day')
    .orderBy('location')
    .execute();
}

/** A user's location rows left without scans. */
export function deleteEmptyUserDayLocations(trx: Kysely<Database>, userId: number) {
  return trx
    .deleteFrom('scan_user_day_locations')
    .where('user_id', '=', userId)
    .where('scans', '=', 0)
    .execute();
}

/** A user's quarter-hour rows left without scans. */
export function deleteEmptyUserQuarters(trx: Kysely<Database>, userId: number) {
  return trx
    .deleteFrom('scan_user_quarters')
    .where('user_id', '=', userId)
    .where((eb) => eb.and(deviceColumns.map((c) => eb(c, '=', 0))))
    .execute();
}

// ---- Unique scanners: visitor sets and daily salts (unique-scanners.ts) ----

/** SQLite: records a visitor of a code and UTC day; `changes` is 1 for a first sighting, else 0. */
export function prepareVisitorInsert(connection: SQLite.Database): SQLite.Statement {
  return connection.prepare(
    'insert into scan_code_day_visitors (qr_code_id, day, visitor) values (?, ?, ?) on conflict do nothing',
  );
}

/** Records visitors of codes and UTC days; answers the rows really inserted (first sightings). */
export function insertVisitors(trx: Kysely<Database>, rows: Row<'scan_code_day_visitors'>[]) {
  return trx
    .insertInto('scan_code_day_visitors')
    .values(rows)
    .onConflict((oc) => oc.columns(['qr_code_id', 'day', 'visitor']).doNothing())
    .returning(['qr_code_id', 'day', 'visitor'])
    .execute();
}

/**
 * Deletes at most `limit` visitor rows of days before `day` (a batch of keys, then those rows);
 * `numAffectedRows` says how many.
 */
export function deleteVisitorsBefore(db: Db, day: number, limit: number) {
  return sql`delete from scan_code_day_visitors where (qr_code_id, day, visitor) in
      (select qr_code_id, day, visitor from scan_code_day_visitors where day < ${day}
       limit ${limit})`.execute(db);
}

/** Stores `salt` as the salt of `day` unless that day has one already. */
export function insertSaltIfAbsent(db: Db, day: number, salt: Buffer) {
  return db
    .insertInto('scan_salts')
    .values({ day, salt })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
}

export function findSaltOfDay(db: Db, day: number) {
  return db.selectFrom('scan_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
}

/** Overwrites the salts of the days before `day` with `zeros`. */
export function overwriteSaltsBefore(db: Db, day: number, zeros: Buffer) {
  return db.updateTable('scan_salts').set({ salt: zeros }).where('day', '<', day).execute();
}

/** Deletes the salts of the days before `day`; `numDeletedRows` says how many. */
export function deleteSaltsBefore(db: Db, day: number) {
  return db.deleteFrom('scan_salts').where('day', '<', day).executeTakeFirst();
}

// ---- Refused and served counts (refused-scans.ts, scan-counts.ts) ----

/**
 * SQLite: adds a code's refused scans of a UTC day (parameters: code, day, scans, bots, simulated,
 * password forms).
 */
export function prepareRefusedUpsert(connection: SQLite.Database): SQLite.Statement {
  return connection.prepare(
    `insert into refused_scans (qr_code_id, day, scans, bots, simulated, password_forms) values (?, ?, ?, ?, ?, ?)
     on conflict (qr_code_id, day) do update set
       scans = refused_scans.scans + excluded.scans, bots = refused_scans.bots + excluded.bots,
       simulated = refused_scans.simulated + excluded.simulated,
       password_forms = refused_scans.password_forms + excluded.password_forms`,
  );
}

/** Adds codes' refused scans of UTC days. */
export function addRefusedScans(trx: Kysely<Database>, rows: Row<'refused_scans'>[]) {
  return trx
    .insertInto('refused_scans')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['qr_code_id', 'day']).doUpdateSet({
        scans: sql<number>`${sql.ref('refused_scans.scans')} + ${sql.ref('excluded.scans')}`,
        bots: sql<number>`${sql.ref('refused_scans.bots')} + ${sql.ref('excluded.bots')}`,
        simulated: sql<number>`${sql.ref('refused_scans.simulated')} + ${sql.ref('excluded.simulated')}`,
        password_forms: sql<number>`${sql.ref('refused_scans.password_forms')} + ${sql.ref('excluded.password_forms')}`,
      }),
    )
    .execute();
}

/**
 * Of a code's scans, those its options turned away (bots among them left out when asked); the owner's
 * simulated scans were served to no one and turned away from no one, and a password form is not a
 * refusal of the options (its scanner may yet give the password).
 */
export async function countRefusedScansOfCode(
  db: Kysely<Database>,
  codeId: number,
  excludeBots: boolean,
): Promise<number> {
  const row = await db
    .selectFrom('refused_scans')
    .select(
      excludeBots
        ? sql<number | string | null>`sum(scans - bots - simulated - password_forms)`.as('n')
        : sql<number | string | null>`sum(scans - simulated - password_forms)`.as('n'),
    )
    .where('qr_code_id', '=', codeId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The served-scan count (scan-counts.ts) of the code whose id is `codeId` in SQL: the statement's
 * only parameter (`?`, given twice) or a column (`qr_codes.id`).
 */
export function servedScansSql(codeId: string): string {
  return (
    `((select coalesce(sum(mobile + tablet + desktop + unknown), 0) from scan_code_days where qr_code_id = ${codeId})` +
    ` - (select coalesce(sum(scans - bots), 0) from refused_scans where qr_code_id = ${codeId}))`
  );
}

/** SQLite: a code's served-scan count (parameters: its id, twice). */
export function prepareServedScansRead(connection: SQLite.Database) {
  return connection.prepare<[number, number], number>(`select ${servedScansSql('?')}`).pluck();
}

// ---- Retention of raw scans (scan-retention.ts) ----

/** The ids of at most `limit` raw scans older than `beforeMs`, oldest ids first. */
export function findScanIdsBefore(db: Db, beforeMs: number, limit: number) {
  return db
    .selectFrom('qr_scans')
    .select('id')
    .where('at', '<', beforeMs)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Deletes raw scans by id; `numDeletedRows` says how many. */
export function deleteScansById(db: Db, ids: number[]) {
  return db.deleteFrom('qr_scans').where('id', 'in', ids).executeTakeFirst();
}
