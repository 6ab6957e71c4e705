import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Webhooks (issue 36):
 * - `scan_feed_cursors`: how far each consumer of the raw scans (webhooks, analytics forwarding) has read
 *   `qr_scans` by id, claimed by one instance at a time (`claimed_until`); `gap_id`/`gap_since` remember a
 *   missing id the reader waits for (a batch another instance has not committed yet) until it gives up on it.
 * - `webhook_endpoints`: a workspace's receivers, the events each takes (a JSON array) and its signing secret.
 * - `webhook_deliveries`: the outbox. A delivery is written in the same transaction as its event (or, for
 *   scans, as the feed's cursor moving past them) and sent by whichever instance claims it; the row keeps
 *   the last attempt's outcome for the endpoint's delivery log. A delivery of scans names them (`scan_ids`,
 *   ranges of `qr_scans.id`) instead of holding their JSON, which is made when it is sent.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'timestamptz' : 'text';
  const id = pg ? 'serial' : 'integer';
  await db.schema
    .createTable('scan_feed_cursors')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_id', 'bigint', (c) => c.notNull())
    .addColumn('gap_id', 'bigint')
    .addColumn('gap_since', time)
    .addColumn('claimed_until', time)
    .addColumn('claimed_by', 'text')
    .execute();
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_owner_idx')
    .on('webhook_endpoints')
    .column('owner_id')
    .execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('endpoint_id', 'integer', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('events', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('scan_ids', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('next_attempt_at', time)
    .addColumn('claimed_until', time)
    .addColumn('last_attempt_at', time)
    .addColumn('response_status', 'integer')
    .addColumn('response_excerpt', 'text')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('redelivery_of', 'integer')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
  await db.schema.dropTable('scan_feed_cursors').execute();
}
