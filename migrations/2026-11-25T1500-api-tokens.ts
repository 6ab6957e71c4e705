import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Personal API tokens: a name, a scope (read, write, admin), an optional expiry, last use; only the
 * token's SHA-256 is stored. And their request counts per minute, kept in the database so several
 * instances share one rate limit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const tsType = pg ? 'timestamptz' : 'text';
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', tsType, (c) => c.notNull().defaultTo(now))
    .addColumn('last_used_at', tsType)
    .addColumn('expires_at', tsType)
    .execute();
  await db.schema.createIndex('api_tokens_user_id_idx').on('api_tokens').column('user_id').execute();

  await db.schema
    .createTable('api_token_usage')
    .addColumn('token_id', 'integer', (c) => c.notNull().references('api_tokens.id').onDelete('cascade'))
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('api_token_usage_pk', ['token_id', 'minute'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_token_usage').execute();
  await db.schema.dropTable('api_tokens').execute();
}
