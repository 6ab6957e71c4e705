import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Imports of links from other shorteners (issue 35): an import read from a file or a server's API is kept
 * for a day (`link_imports`: its links as JSON, the API's address and key while the import runs; the
 * visits a file held, per row, in `link_import_visits`, so a page of rows reads only its own); each row carried out is one `link_import_rows` row, so a page of decisions sent twice
 * answers the same. A code made or overwritten by an import says where it came from (`qr_code_imports`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = pg ? 'timestamptz' : 'text';
  await db.schema
    .createTable('link_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('api_url', 'text')
    .addColumn('api_key', 'text')
    .addColumn('links', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_imports_user_idx').on('link_imports').column('user_id').execute();
  await db.schema.createIndex('link_imports_expires_idx').on('link_imports').column('expires_at').execute();
  await db.schema
    .createTable('link_import_visits')
    .addColumn('import_id', 'text', (c) => c.notNull().references('link_imports.id').onDelete('cascade'))
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('visits', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_import_visits_pk', ['import_id', 'row'])
    .execute();
  await db.schema
    .createTable('link_import_rows')
    .addColumn('import_id', 'text', (c) => c.notNull().references('link_imports.id').onDelete('cascade'))
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('code_id', 'integer')
    .addColumn('slug', 'text')
    .addColumn('visits', 'integer')
    .addColumn('message', 'text')
    .addPrimaryKeyConstraint('link_import_rows_pk', ['import_id', 'row'])
    .execute();
  await db.schema
    .createTable('qr_code_imports')
    .addColumn('qr_code_id', 'integer', (c) => c.primaryKey().references('qr_codes.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_link', 'text')
    .addColumn('visits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imported_at', time, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('qr_code_imports').execute();
  await db.schema.dropTable('link_import_rows').execute();
  await db.schema.dropTable('link_import_visits').execute();
  await db.schema.dropTable('link_imports').execute();
}
