import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * The user's own account: preferences stored per user, two-factor sign-in (a TOTP secret, the last time step
 * used, single-use recovery codes kept hashed), the browsers and addresses a user has signed in from (for
 * login alerts), and the notification mails already sent (each one once, whichever instance sends it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const bool = pg ? 'boolean' : 'integer';
  const no = pg ? sql`false` : sql`0`;
  const tsType = pg ? 'timestamptz' : 'text';
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  const idType = pg ? 'serial' : 'integer';

  await db.schema
    .alterTable('users')
    .addColumn('theme', 'text', (c) => c.notNull().defaultTo('system'))
    .execute();
  // The user's IANA zone: a daily digest covers their yesterday.
  await db.schema
    .alterTable('users')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .execute();
  for (const column of [
    'notify_product_updates',
    'notify_scan_digest',
    'notify_scan_thresholds',
    'login_alerts',
  ]) {
    await db.schema
      .alterTable('users')
      .addColumn(column, bool, (c) => c.notNull().defaultTo(no))
      .execute();
  }
  // Two-factor sign-in: the secret is set at enrolment and counts once confirmed (totp_enabled).
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('totp_enabled', bool, (c) => c.notNull().defaultTo(no))
    .execute();
  // The last 30-second step a code was accepted for: a code is never accepted twice.
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', tsType)
    .execute();
  await db.schema.createIndex('recovery_codes_user_id_idx').on('recovery_codes').column('user_id').execute();

  // A sign-in waiting for its second step: the password was right, the code is still to come. Kept in the
  // database (as the hash of the cookie's token) so any instance can finish it.
  await db.schema
    .createTable('pending_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', tsType, (c) => c.notNull())
    .execute();

  // A browser (user-agent family) or address a user has signed in from, for login alerts.
  await db.schema
    .createTable('known_devices')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', tsType, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('known_devices_pk', ['user_id', 'fingerprint'])
    .execute();

  // Notification mails sent, by a key naming what they were about (a digest's day, a threshold passed):
  // the primary key makes each one go out once even when several instances try at the same moment.
  await db.schema
    .createTable('sent_notifications')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('sent_at', tsType, (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sent_notifications').execute();
  await db.schema.dropTable('known_devices').execute();
  await db.schema.dropTable('pending_logins').execute();
  await db.schema.dropTable('recovery_codes').execute();
  for (const column of [
    'totp_last_step',
    'totp_enabled',
    'totp_secret',
    'login_alerts',
    'notify_scan_thresholds',
    'notify_scan_digest',
    'notify_product_updates',
    'time_zone',
    'theme',
  ]) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
