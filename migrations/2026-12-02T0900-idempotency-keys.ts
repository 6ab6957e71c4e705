import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Safe retries for the REST API (issue 34): a POST sent with an `Idempotency-Key` header is remembered for
 * 24 hours per caller (`owner`: 'token:<id>' for an API token, 'user:<id>' for the app's session), with a
 * fingerprint of what was asked (method, path, body). The same key again replays the stored answer
 * (`status`, `body`) instead of acting twice; while the first request still runs, `status` is null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('created_at', pg ? 'timestamptz' : 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['owner', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created_idx')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
