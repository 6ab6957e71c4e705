import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Dead destinations (issue 35): one row per URL that some dynamic code sends scanners to, checked at most
 * once a day whichever instance claims it (`claimed_until`); `failures` counts failures in a row, and a
 * URL failing twice in a row is `down` since `failing_since`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'timestamptz' : 'text';
  await db.schema
    .createTable('destination_checks')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('problem', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('failing_since', time)
    .addColumn('checked_at', time)
    .addColumn('next_check_at', time, (c) => c.notNull())
    .addColumn('claimed_until', time)
    .execute();
  await db.schema
    .createIndex('destination_checks_due_idx')
    .on('destination_checks')
    .column('next_check_at')
    .execute();
  await db.schema
    .createIndex('destination_checks_state_idx')
    .on('destination_checks')
    .column('state')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('destination_checks').execute();
}
