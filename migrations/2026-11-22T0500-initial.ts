import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const idType = pg ? 'serial' : 'integer';
  const tsType = pg ? 'timestamptz' : 'text';
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const bool = pg ? 'boolean' : 'integer';
  const no = pg ? sql`false` : sql`0`;
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('users')
    .addColumn('id', idType, id)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('profile_picture', 'text')
    .addColumn('is_admin', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('email_verified', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('email_verification_token', 'text')
    .addColumn('email_verification_expires', tsType)
    .addColumn('stripe_customer_id', 'text')
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('subscription_status', 'text')
    .addColumn('subscription_tier', 'text', (c) => c.notNull().defaultTo('free'))
    .addColumn('subscription_end_date', tsType)
    .addColumn('has_unlimited_access', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('created_at', tsType, (c) => c.notNull().defaultTo(now))
    .execute();
  // Usernames and e-mail addresses are unique regardless of case.
  await sql`create unique index users_username_lower_idx on users (lower(username))`.execute(db);
  await sql`create unique index users_email_lower_idx on users (lower(email))`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', tsType, (c) => c.notNull().defaultTo(now))
    .addColumn('last_seen_at', tsType, (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', tsType, (c) => c.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', idType, id)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('failed_at', tsType, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_key_idx')
    .on('login_failures')
    .columns(['key', 'failed_at'])
    .execute();

  await db.schema
    .createTable('folders')
    .addColumn('id', idType, id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created', tsType, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('folders_user_id_idx').on('folders').column('user_id').execute();

  await db.schema
    .createTable('qr_codes')
    .addColumn('id', idType, id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('is_dynamic', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('customization', pg ? 'jsonb' : 'text', (c) =>
      c.notNull().defaultTo(pg ? sql`'{}'::jsonb` : '{}'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('folder_id', 'integer', (c) => c.references('folders.id').onDelete('set null'))
    // Dynamic codes only: the path of their public short link (/r/<slug>).
    .addColumn('slug', 'text', (c) => c.unique())
    .addColumn('created', tsType, (c) => c.notNull().defaultTo(now))
    .addColumn('updated', tsType, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('qr_codes_user_id_idx').on('qr_codes').column('user_id').execute();
  await db.schema.createIndex('qr_codes_folder_id_idx').on('qr_codes').column('folder_id').execute();

  await db.schema
    .createTable('qr_scans')
    .addColumn('id', idType, id)
    .addColumn('qr_code_id', 'integer', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('timestamp', tsType, (c) => c.notNull().defaultTo(now))
    .addColumn('user_agent', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('referrer', 'text')
    .addColumn('location', 'text')
    // Mobile, Tablet, Desktop, Bot or Unknown: decided once, when the scan is written.
    .addColumn('device', 'text')
    .execute();
  await db.schema
    .createIndex('qr_scans_code_time_idx')
    .on('qr_scans')
    .columns(['qr_code_id', 'timestamp'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['qr_scans', 'qr_codes', 'folders', 'login_failures', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
