import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Lean raw scans: about 260 bytes a scan become about 60 on SQLite.
 *
 * - Each distinct user agent, referrer and location is stored once, in a dictionary table
 *   (`scan_user_agents`, `scan_referrers`, `scan_locations`: id → value, the value unique); a scan
 *   holds their ids. A phone fleet sends a few hundred distinct user agents, not millions.
 * - The time is whole milliseconds since the epoch (`at`, an integer: 6 bytes instead of 24 of ISO
 *   text), so the one index, (qr_code_id, at), is small too.
 * - The device category is a small number (`device`: 0 Unknown, 1 Mobile, 2 Tablet, 3 Desktop, 4 Bot).
 *
 * The table is rebuilt beside the old one in batches of ids. On SQLite each batch is one short
 * transaction (copy, then delete the old rows), so scans written meanwhile by a running server wait
 * for one batch, not the whole copy, and a migration killed part-way carries on where it stopped.
 * The last step (the rows written since the last batch, then drop and rename) is one short
 * transaction too. On PostgreSQL, Kysely runs the whole migration in one transaction: the copy
 * takes no table lock, only the final drop does.
 */
/**
 * Scans moved per batch; a test sets it small to cross batch edges, and `afterBatch` to stop a
 * migration part-way as a kill would.
 */
export const batching: { size: number; afterBatch?: (batch: number) => void } = { size: 5_000 };
const DICTIONARIES = [
  { table: 'scan_user_agents', column: 'user_agent' },
  { table: 'scan_referrers', column: 'referrer' },
  { table: 'scan_locations', column: 'location' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const BATCH = batching.size;

  // SQLite: an earlier attempt stopped part-way (killed) left its dictionaries and lean table behind,
  // each batch copied and deleted from the old table together: carry on where it stopped.
  for (const { table } of DICTIONARIES) {
    await db.schema
      .createTable(table)
      .ifNotExists()
      .addColumn('id', pg ? 'serial' : 'integer', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull().unique())
      .execute();
  }
  await db.schema
    .createTable('qr_scans_lean')
    .ifNotExists()
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('qr_code_id', 'integer', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('at', pg ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('user_agent_id', 'integer')
    .addColumn('referrer_id', 'integer')
    .addColumn('location_id', 'integer')
    .addColumn('ip_address', 'text')
    .addColumn('device', pg ? 'smallint' : 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Built as the rows arrive, so the final swap does not index millions of rows under the write lock.
  await db.schema
    .createIndex('qr_scans_code_at_idx')
    .ifNotExists()
    .on('qr_scans_lean')
    .columns(['qr_code_id', 'at'])
    .execute();

  const ms = pg
    ? sql`round(extract(epoch from s.timestamp) * 1000)::bigint`
    : sql`cast(round((julianday(s.timestamp) - 2440587.5) * 86400000) as integer)`;
  const device = sql`case s.device when 'Mobile' then 1 when 'Tablet' then 2 when 'Desktop' then 3
    when 'Bot' then 4 else 0 end`;

  /**
   * Moves the scans with lo < id <= hi: their new dictionary values, the lean rows, and (SQLite) the
   * old rows deleted, so the final drop frees an almost empty table.
   */
  async function move(lo: number, hi: number) {
    for (const { table, column } of DICTIONARIES) {
      await sql`insert into ${sql.table(table)} (value)
        select distinct s.${sql.ref(column)} from qr_scans s
        where s.id > ${lo} and s.id <= ${hi} and s.${sql.ref(column)} is not null
        on conflict (value) do nothing`.execute(db);
    }
    await sql`insert into qr_scans_lean
        (id, qr_code_id, at, user_agent_id, referrer_id, location_id, ip_address, device)
      select s.id, s.qr_code_id, ${ms}, a.id, r.id, l.id, s.ip_address, ${device}
      from qr_scans s
      left join scan_user_agents a on a.value = s.user_agent
      left join scan_referrers r on r.value = s.referrer
      left join scan_locations l on l.value = s.location
      where s.id > ${lo} and s.id <= ${hi}`.execute(db);
    if (!pg) await sql`delete from qr_scans where id > ${lo} and id <= ${hi}`.execute(db);
  }
  /** Runs `work` as one transaction on SQLite (PostgreSQL: already inside Kysely's). */
  async function atomically(work: () => Promise<void>) {
    if (pg) return work();
    await sql`begin immediate`.execute(db);
    try {
      await work();
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  }
  const idRange = async () => {
    const r = await sql<{ first: number | null; last: number | null }>`
      select min(id) as first, max(id) as last from qr_scans`.execute(db);
    return { first: Number(r.rows[0]?.first ?? 0), last: Number(r.rows[0]?.last ?? 0) };
  };

  const range = await idRange();
  for (let lo = range.first - 1, batch = 1; lo < range.last; lo += BATCH, batch++) {
    const hi = Math.min(lo + BATCH, range.last);
    await atomically(() => move(lo, hi));
    batching.afterBatch?.(batch);
  }
  // Only the scan history reads raw scans by code; no query reads a code's locations by user.
  await sql`drop index if exists scan_code_day_locations_user_idx`.execute(db);

  // The rest (scans a running server wrote meanwhile) and the swap, as one short transaction.
  await atomically(async () => {
    const rest = await idRange();
    // PostgreSQL keeps the rows it copied in the old table until the drop: skip them.
    const copied = await sql<{ last: number | null }>`select max(id) as last from qr_scans_lean`.execute(db);
    const from = Math.max(rest.first - 1, Number(copied.rows[0]?.last ?? 0));
    if (rest.last > from) await move(from, rest.last);
    // The highest id ever given, so a new scan never reuses the id of a deleted one.
    let highest = rest.last;
    if (pg) {
      const seq = await sql<{ v: string | number; called: boolean }>`
        select last_value as v, is_called as called from ${sql.raw(`${await serialOf(db, 'qr_scans')}`)}`.execute(
        db,
      );
      if (seq.rows[0]?.called) highest = Math.max(highest, Number(seq.rows[0].v));
    } else {
      const seq = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'qr_scans'`.execute(
        db,
      );
      highest = Math.max(highest, Number(seq.rows[0]?.seq ?? 0));
    }
    await sql`drop table qr_scans`.execute(db);
    await sql`alter table qr_scans_lean rename to qr_scans`.execute(db);
    await continueIdsAfter(db, pg, highest);
  });
}

/** The name of the sequence behind a PostgreSQL serial `id`. */
async function serialOf(db: Kysely<any>, table: string): Promise<string> {
  const r = await sql<{ name: string }>`select pg_get_serial_sequence(${table}, 'id') as name`.execute(db);
  return r.rows[0]!.name;
}

/** Makes qr_scans' next id follow `highest` (both databases). */
async function continueIdsAfter(db: Kysely<any>, pg: boolean, highest: number) {
  if (pg) {
    await sql`select setval(${await serialOf(db, 'qr_scans')}, ${Math.max(highest, 1)}, ${highest > 0})`.execute(
      db,
    );
    return;
  }
  await sql`delete from sqlite_sequence where name = 'qr_scans'`.execute(db);
  if (highest > 0)
    await sql`insert into sqlite_sequence (name, seq) values ('qr_scans', ${highest})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('qr_scans_wide')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('qr_code_id', 'integer', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('timestamp', pg ? 'timestamptz' : 'text', (c) =>
      c.notNull().defaultTo(pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
    )
    .addColumn('user_agent', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('referrer', 'text')
    .addColumn('location', 'text')
    .addColumn('device', 'text')
    .execute();
  const time = pg
    ? sql`to_timestamp(s.at / 1000.0)`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', s.at / 1000.0, 'unixepoch')`;
  await sql`insert into qr_scans_wide (id, qr_code_id, timestamp, user_agent, ip_address, referrer, location, device)
    select s.id, s.qr_code_id, ${time}, a.value, s.ip_address, r.value, l.value,
      case s.device when 1 then 'Mobile' when 2 then 'Tablet' when 3 then 'Desktop' when 4 then 'Bot'
        else 'Unknown' end
    from qr_scans s
    left join scan_user_agents a on a.id = s.user_agent_id
    left join scan_referrers r on r.id = s.referrer_id
    left join scan_locations l on l.id = s.location_id`.execute(db);
  await sql`drop table qr_scans`.execute(db);
  await sql`alter table qr_scans_wide rename to qr_scans`.execute(db);
  await db.schema
    .createIndex('qr_scans_code_time_idx')
    .on('qr_scans')
    .columns(['qr_code_id', 'timestamp'])
    .execute();
  const last = await sql<{ last: number | null }>`select max(id) as last from qr_scans`.execute(db);
  await continueIdsAfter(db, pg, Number(last.rows[0]?.last ?? 0));
  for (const { table } of DICTIONARIES) await db.schema.dropTable(table).execute();
  await db.schema
    .createIndex('scan_code_day_locations_user_idx')
    .on('scan_code_day_locations')
    .columns(['user_id', 'day'])
    .execute();
}
