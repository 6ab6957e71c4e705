import type SQLite from 'better-sqlite3';
import { CompiledQuery, sql, type Insertable, type Kysely, type RawBuilder } from 'kysely';
import { postgresPoolOf } from '../../db/create-db.js';
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

// ---- PostgreSQL: a whole batch in one statement (scan-writer-pg.ts) ----

/**
 * A batch as the PostgreSQL statement takes it, built by scan-writer-pg.ts. The JSON arrays hold rows
 * named as the tables' columns, in key order (each key once: a statement may not update a row twice).
 */
export interface PgScanBatch {
  /** The batch's owners and codes, ascending. */
  owners: number[];
  codes: number[];
  /** User agents, referrers and locations not in the writer's cache, sorted; null when none. */
  newValues: { user_agent: string[]; referrer: string[]; location: string[] } | null;
  /** First-sighting candidates {qr_code_id, day, visitor, user_id, bucket}: a visitor's first scan of a code and UTC day in the batch. */
  candidates: string;
  /**
   * The raw scans in batch order: the columns of qr_scans, each dictionary column as its id
   * (`user_agent_id`…) or, when not cached, its value (`user_agent`…).
   */
  scans: string;
  /** Rows added to each rollup, unique scanners without this batch's first sightings. */
  userQuarters: string;
  codeQuarters: string;
  codeDays: string;
  codeDayLocations: string;
  userDayLocations: string;
  codePlaces: string;
  /** Rows added to throttled_scans and refused_scans; null when none. */
  throttled: string | null;
  refused: string | null;
}

/** A rollup table as the batch statement upserts it. */
interface RollupUpsert {
  /** The CTE's name. */
  name: string;
  table: string;
  /** The batch's rows (a JSON array, see PgScanBatch), or null: none. */
  rows: (b: PgScanBatch) => string | null;
  key: string[];
  /** Columns set on insert only (the owner of a code's row). */
  extra?: string[];
  /** Columns added to the stored row's on conflict. */
  counts: readonly string[];
  /** The first sightings' columns matching `key`: their number is added to `unique_scanners`. */
  firsts?: string[];
}

const DEVICE_COUNTS = [...deviceColumns, 'unique_scanners'] as const;

/** The batch statement's upserts, in the Kysely writer's order (scan-rollups.ts). */
const PG_UPSERTS: RollupUpsert[] = [
  {
    name: 'user_quarters',
    table: 'scan_user_quarters',
    rows: (b) => b.userQuarters,
    key: ['user_id', 'bucket'],
    counts: DEVICE_COUNTS,
    firsts: ['user_id', 'bucket'],
  },
  {
    name: 'code_quarters',
    table: 'scan_code_quarters',
    rows: (b) => b.codeQuarters,
    key: ['qr_code_id', 'bucket'],
    counts: DEVICE_COUNTS,
    firsts: ['qr_code_id', 'bucket'],
  },
  {
    name: 'code_days',
    table: 'scan_code_days',
    rows: (b) => b.codeDays,
    key: ['qr_code_id', 'day'],
    extra: ['user_id'],
    counts: DEVICE_COUNTS,
    firsts: ['qr_code_id', 'day'],
  },
  {
    name: 'code_day_locations',
    table: 'scan_code_day_locations',
    rows: (b) => b.codeDayLocations,
    key: ['qr_code_id', 'day', 'location'],
    extra: ['user_id'],
    counts: ['scans', 'bots'],
  },
  {
    name: 'user_day_locations',
    table: 'scan_user_day_locations',
    rows: (b) => b.userDayLocations,
    key: ['user_id', 'day', 'location'],
    counts: ['scans', 'bots'],
  },
  {
    name: 'code_places',
    table: 'scan_code_places',
    rows: (b) => b.codePlaces,
    key: ['qr_code_id', 'place'],
    counts: ['scans', 'bots'],
  },
  {
    name: 'throttled',
    table: 'throttled_scans',
    rows: (b) => b.throttled,
    key: ['qr_code_id', 'day'],
    counts: ['scans'],
  },
  {
    name: 'refused',
    table: 'refused_scans',
    rows: (b) => b.refused,
    key: ['qr_code_id', 'day'],
    counts: ['scans', 'bots', 'simulated', 'password_forms'],
  },
];

const DICTIONARIES = [
  ['user_agents', 'scan_user_agents', 'user_agent'],
  ['referrers', 'scan_referrers', 'referrer'],
  ['locations', 'scan_locations', 'location'],
] as const;

/**
 * One batch of scans, its rollups and everything they need, as ONE statement run on its own (its own
 * transaction: no BEGIN/COMMIT round trips, and its row locks held only while it runs and commits).
 * Its text depends only on which optional parts the batch has (new dictionary values, throttled
 * scans, refused scans), so each variant is a named statement, prepared once per connection; a part
 * left out is a handful of tables the statement does not open. It answers the new dictionary values'
 * ids ({kind, id, value}).
 *
 * Order. Data-modifying CTEs run in no documented order, so each one starts with a one-time filter on
 * the row count of the one before (`where (select count(*) from previous) >= 0`), which must run that
 * one to its end first; the main query's filter on the last one runs the whole chain. The chain is the
 * Kysely writer's order (scan-rollups.ts): dictionaries, visitors, raw scans, then the rollup tables one
 * after another, every table's rows in key order (`order by` their position in the sorted JSON); two
 * instances writing at once therefore take row locks in the same order and wait for each other instead
 * of deadlocking.
 * - The owners' and codes' rows are locked FOR KEY SHARE first (what the foreign keys' checks take
 *   anyway, but those run at the end of a statement): a code's deletion locks the code first too, so
 *   whichever comes second waits before holding any rollup row the other needs.
 * - Dictionary values are upserted (`do update`), not `do nothing`: the statement's snapshot would not
 *   see a value another instance committed a moment ago, but `do update … returning` answers its id.
 * - Visitors before the raw scans: a visitor another instance holds uncommitted makes this statement
 *   wait until that one commits, so whichever claims a visitor first has given its scans their ids
 *   first — a visitor's first sighting is always their first stored scan (as in scan-rollups.ts).
 */
export function pgScanBatchQuery(b: PgScanBatch): { name: string; text: string; values: unknown[] } {
  const values: unknown[] = [];
  const param = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const ctes: string[] = [];
  let previous = '';
  /** A CTE of the chain: `body` gets the one-time filter that waits for the previous CTE. */
  const step = (name: string, body: (after: string) => string) => {
    ctes.push(`${name} as (${body(previous ? `(select count(*) from ${previous}) >= 0` : 'true')})`);
    previous = name;
  };
  step(
    'owners',
    (after) =>
      `select id from users where id = any(${param(b.owners, 'int[]')}) and ${after} order by id for key share`,
  );
  step(
    'codes',
    (after) =>
      `select id from qr_codes where id = any(${param(b.codes, 'int[]')}) and ${after} order by id for key share`,
  );
  const newValues = b.newValues;
  if (newValues)
    for (const [name, table, column] of DICTIONARIES)
      step(
        name,
        (after) => `insert into ${table} (value)
          select v.value from unnest(${param(newValues[column], 'text[]')}) with ordinality as v(value, n)
          where ${after} order by v.n
          on conflict (value) do update set value = excluded.value
          returning id, value`,
      );
  const candidates = param(b.candidates, 'json');
  step(
    'visitors',
    (after) => `insert into scan_code_day_visitors (qr_code_id, day, visitor)
      select v.qr_code_id, v.day, v.visitor
      from rows from (json_to_recordset(${candidates}) as (qr_code_id int, day int, visitor bigint))
        with ordinality as v(qr_code_id, day, visitor, n)
      where ${after} order by v.n
      on conflict do nothing
      returning qr_code_id, day, visitor`,
  );
  ctes.push(`firsts as (
    select v.qr_code_id, v.day, v.user_id, v.bucket
    from json_to_recordset(${candidates}) as v(qr_code_id int, day int, visitor bigint, user_id int, bucket int)
    join visitors f on f.qr_code_id = v.qr_code_id and f.day = v.day and f.visitor = v.visitor
  )`);
  const idOf = (name: string, column: string) =>
    newValues
      ? `coalesce(s.${column}_id, (select id from ${name} where value = s.${column}))`
      : `s.${column}_id`;
  step(
    'scans',
    (after) => `insert into qr_scans (${RAW_SCAN_COLUMNS.join(', ')})
      select s.qr_code_id, s.at, ${DICTIONARIES.map(([name, , column]) => idOf(name, column)).join(', ')},
        s.ip_address, s.device, s.refused, s.visitor, s.rule
      from rows from (json_to_recordset(${param(b.scans, 'json')}) as (
          qr_code_id int, at bigint, user_agent_id int, user_agent text, referrer_id int, referrer text,
          location_id int, location text, ip_address text, device smallint, refused smallint,
          visitor bigint, rule smallint))
        with ordinality as s(qr_code_id, at, user_agent_id, user_agent, referrer_id, referrer,
          location_id, location, ip_address, device, refused, visitor, rule, n)
      where ${after} order by s.n
      returning 1`,
  );
  for (const u of PG_UPSERTS) {
    const rows = u.rows(b);
    if (rows === null) continue;
    const columns = [...u.key, ...(u.extra ?? []), ...u.counts];
    const selected = columns.map((c) =>
      c === 'unique_scanners' && u.firsts ? 'r.unique_scanners + coalesce(f.n, 0)' : `r.${c}`,
    );
    const firsts = u.firsts
      ? `left join (select ${u.firsts.join(', ')}, count(*)::int as n from firsts group by ${u.firsts.join(', ')}) f
          on ${u.firsts.map((k, i) => `f.${k} = r.${u.key[i]}`).join(' and ')}`
      : '';
    step(
      u.name,
      (after) => `insert into ${u.table} (${columns.join(', ')})
        select ${selected.join(', ')}
        from rows from (json_populate_recordset(null::${u.table}, ${param(rows, 'json')})) with ordinality as r
        ${firsts}
        where ${after} order by r.ordinality
        on conflict (${u.key.join(', ')}) do update set
          ${u.counts.map((c) => `${c} = ${u.table}.${c} + excluded.${c}`).join(', ')}
        returning 1`,
    );
  }
  const created = newValues
    ? DICTIONARIES.map(([name, , column]) => `select '${column}' as kind, id, value from ${name}`).join(
        ' union all ',
      )
    : // Nothing new: no row (a condition the planner cannot fold away, so the chain still runs).
      `select null::text as kind, null::int as id, null::text as value where (select count(*) from ${previous}) < 0`;
  const text = `with ${ctes.join(',\n')}
    select d.kind, d.id, d.value from (${created}) d where (select count(*) from ${previous}) >= 0`;
  // One name per variant (pg prepares a name once per connection and refuses another text for it).
  const parts = `${newValues ? 'd' : ''}${b.throttled ? 't' : ''}${b.refused ? 'r' : ''}`;
  const name = parts ? `qr_scan_batch_${parts}` : 'qr_scan_batch';
  return { name, text, values };
}

/** A new dictionary value's id, as the batch statement answers it. */
export interface NewDictionaryId {
  kind: 'user_agent' | 'referrer' | 'location';
  id: number;
  value: string;
}

/**
 * Runs the batch statement: as a named statement (parsed and planned once per connection) when `db` is
 * createDb's own, on its own. Any other `db` runs it through Kysely: inside the transaction it is, or
 * in a transaction of its own (the same single statement, with BEGIN and COMMIT round trips).
 */
export async function runPgScanBatch(db: Db, batch: PgScanBatch): Promise<NewDictionaryId[]> {
  const query = pgScanBatchQuery(batch);
  const pool = postgresPoolOf(db);
  if (pool) return (await pool.query<NewDictionaryId>(query)).rows;
  const compiled = CompiledQuery.raw(query.text, query.values);
  const { rows } = db.isTransaction
    ? await db.executeQuery(compiled)
    : await db.transaction().execute((trx) => trx.executeQuery(compiled));
  return rows as NewDictionaryId[];
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
