import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Stripe events out of order change nothing: per Stripe subscription, the last event applied to it, so
 * an older event (a `customer.subscription.updated` delivered after a newer `deleted`) is recognised.
 *
 * - `event_created`: Stripe's own `created` of the event, Unix seconds (bigint: past 2038).
 * - `event_rank`: which event wins among events of the same second (a deletion over an update over the
 *   creation); the application sets it.
 *
 * Nothing to fill in: the events applied before this migration never stored their subscription or time,
 * so each subscription's order starts with its next event.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const tsType = pg ? 'timestamptz' : 'text';
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  await db.schema
    .createTable('stripe_subscription_events')
    .addColumn('subscription_id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_created', pg ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('event_rank', 'integer', (c) => c.notNull())
    .addColumn('applied_at', tsType, (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stripe_subscription_events').execute();
}
