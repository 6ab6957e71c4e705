import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  // Uploaded images live in the database, so every instance can serve them.
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', pg ? 'timestamptz' : 'text', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('uploads_user_id_idx').on('uploads').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('uploads').execute();
}
