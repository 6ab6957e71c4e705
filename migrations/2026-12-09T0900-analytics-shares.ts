import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Shared dashboards (issue 36): a read-only link to one code's or one folder's analytics. The link's
 * token is looked up by its SHA-256 (`token_hash`, unique); the token itself is kept too, because it is
 * a read-only capability the owner must be able to copy again. Exactly one of `qr_code_id` and
 * `folder_id` is set; deleting the code, the folder or the account deletes the link.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'timestamptz' : 'text';
  await db.schema
    .createTable('analytics_shares')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('qr_code_id', 'integer', (c) => c.references('qr_codes.id').onDelete('cascade'))
    .addColumn('folder_id', 'integer', (c) => c.references('folders.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', time)
    .addColumn('revoked_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_viewed_at', time)
    .addCheckConstraint(
      'analytics_shares_one_target',
      sql`(qr_code_id is null and folder_id is not null) or (qr_code_id is not null and folder_id is null)`,
    )
    .execute();
  // The cascades and the lists (a workspace's, a code's, a folder's links) read through these.
  for (const column of ['owner_id', 'qr_code_id', 'folder_id']) {
    await db.schema
      .createIndex(`analytics_shares_${column}_idx`)
      .on('analytics_shares')
      .column(column)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_shares').execute();
}
