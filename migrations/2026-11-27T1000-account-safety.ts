import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * What keeps an account its owner's when a session or a token leaks (issue 27):
 * - `users.email_change_pending`: the address was changed by the user and is not verified yet. Password
 *   reset mails do not go to such an address (a thief who changed it would get the link), only to the
 *   address it replaced while that one was trusted (`email_changes.fallback_email`).
 * - `email_changes`: one row per self-service change of address: the old address (told of the change,
 *   with a link that undoes it for 7 days: only the SHA-256 of that link's token is kept), whether it was
 *   verified, the trusted address resets fall back to, the new one, and when the row was closed (undone,
 *   or made moot by an undo of an earlier change).
 * - `refused_scans.simulated`: scans recorded by the owner's in-app scan test (GET
 *   /api/qr-codes/{id}/scan). They count in the analytics but never against a scan limit, so they are
 *   counted with the refused ones (whose sum the limit leaves out) and told apart from those turned away.
 *
 * A boolean and an integer with defaults, and a new table: existing rows keep their meaning (no address
 * is pending, no scan was simulated).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const tsType = pg ? 'timestamptz' : 'text';
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .alterTable('users')
    .addColumn('email_change_pending', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createTable('email_changes')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('old_email', 'text', (c) => c.notNull())
    .addColumn('old_verified', 'boolean', (c) => c.notNull())
    .addColumn('old_pending', 'boolean', (c) => c.notNull())
    .addColumn('fallback_email', 'text')
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('undo_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', tsType, (c) => c.notNull())
    .addColumn('expires_at', tsType, (c) => c.notNull())
    .addColumn('closed_at', tsType)
    .execute();
  await db.schema
    .createIndex('email_changes_user_idx')
    .on('email_changes')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('email_changes_fallback_idx')
    .on('email_changes')
    .column('fallback_email')
    .execute();
  await db.schema
    .alterTable('refused_scans')
    .addColumn('simulated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refused_scans').dropColumn('simulated').execute();
  await db.schema.dropTable('email_changes').execute();
  await db.schema.alterTable('users').dropColumn('email_change_pending').execute();
}
