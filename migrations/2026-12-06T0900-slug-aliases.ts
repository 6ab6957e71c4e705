import { sql, PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Your own back-half (issue 35): a dynamic code's slug may be chosen (kept in lower case), and short links
 * are matched without regard to case, so a chosen one must differ from every other slug in lower case: an
 * index on lower(slug) makes that check an index read. A code that has scans keeps answering at the
 * slugs it had before (`qr_slug_aliases`): the old one may be printed. An alias goes with its code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createIndex('qr_codes_slug_lower_idx')
    .on('qr_codes')
    .expression(sql`lower(slug)`)
    .execute();
  await db.schema
    .createTable('qr_slug_aliases')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('qr_code_id', 'integer', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('created', pg ? 'timestamptz' : 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('qr_slug_aliases_lower_idx')
    .on('qr_slug_aliases')
    .expression(sql`lower(slug)`)
    .execute();
  await db.schema
    .createIndex('qr_slug_aliases_code_idx')
    .on('qr_slug_aliases')
    .column('qr_code_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('qr_slug_aliases').execute();
  await db.schema.dropIndex('qr_codes_slug_lower_idx').execute();
}
