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

/** A rollup table as the batch statement upserts it. */
interface RollupUpsert {
  /** The CTE's name. */
  name: string;
  table: string;
  key: string[];
  /** Columns set on insert only (the owner of a code's row). */
  extra?: string[];
  /** Columns added to the stored row's on conflict. */
  counts: readonly string[];
  /** The first sightings' columns matching `key`: their number is added to `unique_scanners`. */
  firsts?: string[];
}

const DEVICE_COUNTS = [...deviceColumns, 'unique_scanners'] as const;

/** The batch statement's rollup upserts, in the Kysely writer's order (scan-rollups.ts). */
const PG_ROLLUP_UPSERTS: RollupUpsert[] = [
  {
    name: 'user_quarters',
    table: 'scan_user_quarters',
    key: ['user_id', 'bucket'],
    counts: DEVICE_COUNTS,
    firsts: ['user_id', 'bucket'],
  },
  {
    name: 'code_quarters',
    table: 'scan_code_quarters',
    key: ['qr_code_id', 'bucket'],
    counts: DEVICE_COUNTS,
    firsts: ['qr_code_id', 'bucket'],
  },
  {
    name: 'code_days',
    table: 'scan_code_days',
    key: ['qr_code_id', 'day'],
    extra: ['user_id'],
    counts: DEVICE_COUNTS,
    firsts: ['qr_code_id', 'day'],
  },
  {
    name: 'code_day_locations',
    table: 'scan_code_day_locations',
    key: ['qr_code_id', 'day', 'location'],
    extra: ['user_id'],
    counts: ['scans', 'bots'],
  },
  {
    name: 'user_day_locations',
    table: 'scan_user_day_locations',
    key: ['user_id', 'day', 'location'],
    counts: ['scans', 'bots'],
  },
  { name: 'code_places', table: 'scan_code_places', key: ['qr_code_id', 'place'], counts: ['scans', 'bots'] },
  { name: 'throttled', table: 'throttled_scans', key: ['qr_code_id', 'day'], counts: ['scans'] },
  {
    name: 'refused',
    table: 'refused_scans',
    key: ['qr_code_id', 'day'],
    counts: ['scans', 'bots', 'simulated', 'password_forms'],
  },
];

/**
 * A rollup table's CTE: the JSON array `param` of its rows (in key order, as the table's columns) added
 * to the stored rows, after the CTE `after` has run; the unique scanners raised by the batch's first
 * sightings of the key (null stays null: unknown).
 */
function rollupUpsertSql(u: RollupUpsert, param: string, after: string): string {
  const columns = [...u.key, ...(u.extra ?? []), ...u.counts];
  const values = columns.map((c) =>
    c === 'unique_scanners' && u.firsts ? 'r.unique_scanners + coalesce(f.n, 0)' : `r.${c}`,
  );
  const firsts = u.firsts
    ? `left join (select ${u.firsts.join(', ')}, count(*)::int as n from firsts group by ${u.firsts.join(', ')}) f
      on ${u.firsts.map((k, i) => `f.${k} = r.${u.key[i]}`).join(' and ')}`
    : '';
  return `${u.name} as (
    insert into ${u.table} (${columns.join(', ')})
    select ${values.join(', ')}
    from rows from (json_populate_recordset(null::${u.table}, ${param}::json)) with ordinality as r
    ${firsts}
    where (select count(*) from ${after}) >= 0
    order by r.ordinality
    on conflict (${u.key.join(', ')}) do update set
      ${u.counts.map((c) => `${c} = ${u.table}.${c} + excluded.${c}`).join(', ')}
    returning 1
  )`;
}

/**
 * One batch of scans, its rollups and everything they need, as ONE statement run on its own (so its
 * own transaction: no BEGIN/COMMIT round trips, and its row locks held only while it runs and commits).
 * Parameters ($n), built by scan-writer-pg.ts:
 *  1 int[]  the owners and 2 int[] the codes of the batch (locked first, see below);
 *  3, 4, 5 text[]  new user agents, referrers, locations (not in the writer's cache), sorted;
 *  6 json  first-sighting candidates {qr_code_id, day, visitor, user_id, bucket}: each visitor's first
 *          scan of a code and UTC day in the batch, in key order;
 *  7 json  the raw scans in batch order, each dictionary column as a known id or a value to look up;
 *  8..14 json  the rows added to scan_user_quarters, scan_code_quarters, scan_code_days,
 *          scan_code_day_locations, scan_user_day_locations, scan_code_places and throttled_scans,
 *          summed per key (no key twice: a statement may not update a row twice) and in key order,
 *          their unique scanners without this batch's first sightings;
 *  15 json the refused_scans rows, likewise.
 * It answers the new dictionary values' ids ({kind, id, value}).
 *
 * Order. Data-modifying CTEs run in no documented order, so each one starts with a one-time filter on
 * the row count of the one before (`where (select count(*) from previous) >= 0`), which must run that
 * one to its end first. The chain is the Kysely writer's order (scan-rollups.ts): dictionaries,
 * visitors, raw scans, then the rollup tables one after another, every table's rows in key order; two
 * instances writing at once therefore take row locks in the same order and wait for each other
 * instead of deadlocking.
 * - The owners' and codes' rows are locked FOR KEY SHARE first (what the foreign keys' checks take
 *   anyway, but those run at the end of a statement): a code's deletion locks the code first too, so
 *   whichever comes second waits before holding any rollup row the other needs.
 * - Dictionary values are upserted (`do update`), not `do nothing`: the statement's snapshot would not
 *   see a value another instance committed a moment ago, but `do update … returning` answers its id.
 * - Visitors before the raw scans: a visitor another instance holds uncommitted makes this statement
 *   wait until that one commits, so whichever claims a visitor first has given its scans their ids
 *   first — a visitor's first sighting is always their first stored scan (as in scan-rollups.ts).
 */
export const PG_SCAN_BATCH_SQL = `with
  owners as (select id from users where id = any($1::int[]) order by id for key share),
  codes as (
    select id from qr_codes where id = any($2::int[]) and (select count(*) from owners) >= 0
    order by id for key share
  ),
  ${[
    ['user_agents', 'scan_user_agents', '$3', 'codes'],
    ['referrers', 'scan_referrers', '$4', 'user_agents'],
    ['locations', 'scan_locations', '$5', 'referrers'],
  ]
    .map(
      ([name, table, param, after]) => `${name} as (
    insert into ${table} (value)
    select v.value from unnest(${param}::text[]) with ordinality as v(value, n)
    where (select count(*) from ${after}) >= 0
    order by v.n
    on conflict (value) do update set value = excluded.value
    returning id, value
  )`,
    )
    .join(',\n  ')},
  visitors as (
    insert into scan_code_day_visitors (qr_code_id, day, visitor)
    select v.qr_code_id, v.day, v.visitor
    from rows from (json_to_recordset($6::json) as (qr_code_id int, day int, visitor bigint))
      with ordinality as v(qr_code_id, day, visitor, n)
    where (select count(*) from locations) >= 0
    order by v.n
    on conflict do nothing
    returning qr_code_id, day, visitor
  ),
  firsts as (
    select v.qr_code_id, v.day, v.user_id, v.bucket
    from json_to_recordset($6::json) as v(qr_code_id int, day int, visitor bigint, user_id int, bucket int)
    join visitors f on f.qr_code_id = v.qr_code_id and f.day = v.day and f.visitor = v.visitor
  ),
  scans as (
    insert into qr_scans (${RAW_SCAN_COLUMNS.join(', ')})
    select s.qr_code_id, s.at,
      coalesce(s.user_agent_id, (select id from user_agents where value = s.user_agent)),
      coalesce(s.referrer_id, (select id from referrers where value = s.referrer)),
      coalesce(s.location_id, (select id from locations where value = s.location)),
      s.ip_address, s.device, s.refused, s.visitor, s.rule
    from rows from (json_to_recordset($7::json) as (
        qr_code_id int, at bigint, user_agent_id int, user_agent text, referrer_id int, referrer text,
        location_id int, location text, ip_address text, device smallint, refused smallint,
        visitor bigint, rule smallint))
      with ordinality as s(qr_code_id, at, user_agent_id, user_agent, referrer_id, referrer,
        location_id, location, ip_address, device, refused, visitor, rule, n)
    where (select count(*) from visitors) >= 0
    order by s.n
    returning 1
  ),
  ${PG_ROLLUP_UPSERTS.map((u, i) => rollupUpsertSql(u, `$${8 + i}`, PG_ROLLUP_UPSERTS[i - 1]?.name ?? 'scans')).join(',\n  ')}
select d.kind, d.id, d.value from (
  select 'user_agent' as kind, id, value from user_agents
  union all select 'referrer', id, value from referrers
  union all select 'location', id, value from locations
) d
where (select count(*) from refused) >= 0`;

/** A new dictionary value's id, as the batch statement answers it. */
export interface NewDictionaryId {
  kind: 'user_agent' | 'referrer' | 'location';
  id: number;
  value: string;
}

/**
 * Runs PG_SCAN_BATCH_SQL with its 15 parameters: as a named statement (parsed and planned once per
 * connection) when `db` is createDb's own, else through Kysely.
 */
export async function runPgScanBatch(db: Db, values: unknown[]): Promise<NewDictionaryId[]> {
  const pool = postgresPoolOf(db);
  if (pool) {
    const result = await pool.query<NewDictionaryId>({
      name: 'qr_scan_batch',
      text: PG_SCAN_BATCH_SQL,
      values,
    });
    return result.rows;
  }
  return (await db.executeQuery(CompiledQuery.raw(PG_SCAN_BATCH_SQL, values))).rows as NewDictionaryId[];
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
