import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Scan rollups: counts kept beside the raw scans so analytics answer at millions of scans without
 * scanning them. Written in the same transaction as the scans they count (server/features/scans/
 * scan-rollups.ts describes the design). Buckets are UTC: `bucket` is a quarter hour since the epoch
 * (every time zone's offset is a multiple of 15 minutes, so local days and hours are exact), `day`
 * a UTC day since the epoch.
 */
const DEVICE_COLUMNS = ['mobile', 'tablet', 'desktop', 'bot', 'unknown'] as const;
const ROLLUP_TABLES = [
  'scan_code_places',
  'scan_user_day_locations',
  'scan_code_day_locations',
  'scan_code_days',
  'scan_code_quarters',
  'scan_user_quarters',
];

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const withoutRowid = (builder: any) => (pg ? builder : builder.modifyEnd(sql`without rowid`));
  const deviceColumns = (builder: any) =>
    DEVICE_COLUMNS.reduce(
      (b, name) => b.addColumn(name, 'integer', (c: any) => c.notNull().defaultTo(0)),
      builder,
    );
  const userRef = (c: any) => c.notNull().references('users.id').onDelete('cascade');

  // SQLite runs migrations outside a transaction: if an earlier attempt stopped part-way (killed
  // during a long backfill), its tables are left behind. They hold only derived counts, so start over.
  for (const table of ROLLUP_TABLES) await sql`drop table if exists ${sql.table(table)}`.execute(db);
  const codeRef = (c: any) => c.notNull().references('qr_codes.id').onDelete('cascade');

  await withoutRowid(
    deviceColumns(
      db.schema
        .createTable('scan_user_quarters')
        .addColumn('user_id', 'integer', userRef)
        .addColumn('bucket', 'integer', (c) => c.notNull()),
    ).addPrimaryKeyConstraint('scan_user_quarters_pk', ['user_id', 'bucket']),
  ).execute();

  await withoutRowid(
    deviceColumns(
      db.schema
        .createTable('scan_code_quarters')
        .addColumn('qr_code_id', 'integer', codeRef)
        .addColumn('bucket', 'integer', (c) => c.notNull()),
    ).addPrimaryKeyConstraint('scan_code_quarters_pk', ['qr_code_id', 'bucket']),
  ).execute();

  await withoutRowid(
    deviceColumns(
      db.schema
        .createTable('scan_code_days')
        .addColumn('qr_code_id', 'integer', codeRef)
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', userRef),
    ).addPrimaryKeyConstraint('scan_code_days_pk', ['qr_code_id', 'day']),
  ).execute();
  await db.schema
    .createIndex('scan_code_days_user_idx')
    .on('scan_code_days')
    .columns(['user_id', 'day'])
    .execute();

  await withoutRowid(
    db.schema
      .createTable('scan_code_day_locations')
      .addColumn('qr_code_id', 'integer', codeRef)
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('location', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer', userRef)
      .addColumn('scans', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('bots', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('scan_code_day_locations_pk', ['qr_code_id', 'day', 'location']),
  ).execute();
  await db.schema
    .createIndex('scan_code_day_locations_user_idx')
    .on('scan_code_day_locations')
    .columns(['user_id', 'day'])
    .execute();

  // The same per user (no code): a user's top locations read ~days × locations rows, not × codes.
  await withoutRowid(
    db.schema
      .createTable('scan_user_day_locations')
      .addColumn('user_id', 'integer', userRef)
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('location', 'text', (c) => c.notNull())
      .addColumn('scans', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('bots', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('scan_user_day_locations_pk', ['user_id', 'day', 'location']),
  ).execute();

  // The distinct places (location, or the address when the location is unknown) of each code, with
  // their scans and bot scans (so "unique locations" can leave out places only bots came from).
  await withoutRowid(
    db.schema
      .createTable('scan_code_places')
      .addColumn('qr_code_id', 'integer', codeRef)
      .addColumn('place', 'text', (c) => c.notNull())
      .addColumn('scans', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('bots', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('scan_code_places_pk', ['qr_code_id', 'place']),
  ).execute();

  // Backfill from the scans already stored.
  // Whole seconds since the epoch (bucket edges are whole seconds).
  const epoch = pg
    ? sql`floor(extract(epoch from s.timestamp))::bigint`
    : sql`cast(strftime('%s', s.timestamp) as integer)`;
  const bucket = pg ? sql`(${epoch} / 900)::integer` : sql`(${epoch} / 900)`;
  const day = pg ? sql`(${epoch} / 86400)::integer` : sql`(${epoch} / 86400)`;
  // As the writer decides them: anything but the four named categories is Unknown, and an empty
  // location is Unknown.
  const device = sql`case when s.device in ('Mobile', 'Tablet', 'Desktop', 'Bot') then s.device else 'Unknown' end`;
  const counts = sql.join(
    DEVICE_COLUMNS.map(
      (name) =>
        sql`sum(case when ${device} = ${sql.lit(name[0]!.toUpperCase() + name.slice(1))} then 1 else 0 end)`,
    ),
  );
  const cols = sql.join(DEVICE_COLUMNS.map((name) => sql.ref(name)));
  await sql`insert into scan_user_quarters (user_id, bucket, ${cols})
    select c.user_id, ${bucket}, ${counts} from qr_scans s join qr_codes c on c.id = s.qr_code_id
    group by c.user_id, ${bucket}`.execute(db);
  await sql`insert into scan_code_quarters (qr_code_id, bucket, ${cols})
    select s.qr_code_id, ${bucket}, ${counts} from qr_scans s group by s.qr_code_id, ${bucket}`.execute(db);
  await sql`insert into scan_code_days (qr_code_id, day, user_id, ${cols})
    select s.qr_code_id, ${day}, c.user_id, ${counts} from qr_scans s join qr_codes c on c.id = s.qr_code_id
    group by s.qr_code_id, ${day}, c.user_id`.execute(db);
  const location = sql`coalesce(nullif(s.location, ''), 'Unknown')`;
  await sql`insert into scan_code_day_locations (qr_code_id, day, location, user_id, scans, bots)
    select s.qr_code_id, ${day}, ${location}, c.user_id, count(*),
      sum(case when s.device = 'Bot' then 1 else 0 end)
    from qr_scans s join qr_codes c on c.id = s.qr_code_id
    group by s.qr_code_id, ${day}, ${location}, c.user_id`.execute(db);
  await sql`insert into scan_user_day_locations (user_id, day, location, scans, bots)
    select user_id, day, location, sum(scans), sum(bots) from scan_code_day_locations
    group by user_id, day, location`.execute(db);
  const place = sql`case when ${location} <> 'Unknown' then s.location
    when coalesce(s.ip_address, '') <> '' then 'ip:' || s.ip_address else 'Unknown' end`;
  await sql`insert into scan_code_places (qr_code_id, place, scans, bots)
    select s.qr_code_id, ${place}, count(*), sum(case when s.device = 'Bot' then 1 else 0 end)
    from qr_scans s group by s.qr_code_id, ${place}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ROLLUP_TABLES) await db.schema.dropTable(table).execute();
}
