import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Forwarding scans to web analytics (issue 36, item 2): one row per workspace that forwards its scans to
 * Matomo, Plausible or Google Analytics 4. `settings` holds the provider's public fields as JSON; `secret`
 * its token (Matomo's token_auth, GA4's api_secret), never answered back; `hash_salt` keys the daily
 * visitor ids sent instead of cookies. The last success, the last error and the counts feed the settings
 * card. The scans are read through `scan_feed_cursors` (consumer 'analytics-forwarding').
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'timestamptz' : 'text';
  await db.schema
    .createTable('analytics_forwarding')
    .addColumn('owner_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo('masked'))
    .addColumn('hash_salt', 'text', (c) => c.notNull())
    .addColumn('last_success_at', time)
    .addColumn('last_error_message', 'text')
    .addColumn('last_error_status', 'integer')
    .addColumn('last_error_at', time)
    .addColumn('sent_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_forwarding').execute();
}
