import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

const BATCH = 500;

/**
 * A code's history: one row per version of its editable state (name, content, design and, later, its
 * redirect options), who made it and when, and whether it was the creation, an edit or a restore of an
 * earlier version. Deleted with its code. Codes made before this migration get one 'created' version
 * from their current row (by their owner, at their last update) so their history starts somewhere.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const tsType = pg ? 'timestamptz' : 'text';
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('qr_code_versions')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('qr_code_id', 'integer', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created', tsType, (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('qr_code_versions_code_idx')
    .on('qr_code_versions')
    .columns(['qr_code_id', 'id'])
    .execute();
  // The foreign key to users: PostgreSQL checks it on a user's deletion by an index, or by a full scan.
  await db.schema.createIndex('qr_code_versions_user_idx').on('qr_code_versions').column('user_id').execute();

  // Every existing code's first version, in batches by id.
  let after = 0;
  for (;;) {
    const rows: {
      id: number;
      user_id: number;
      name: string;
      content: string;
      customization: unknown;
      updated: unknown;
    }[] = await db
      .selectFrom('qr_codes')
      .select(['id', 'user_id', 'name', 'content', 'customization', 'updated'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    await db
      .insertInto('qr_code_versions')
      .values(
        rows.map((r) => ({
          qr_code_id: r.id,
          user_id: r.user_id,
          created: r.updated instanceof Date ? r.updated.toISOString() : String(r.updated),
          kind: 'created',
          restored_from: null,
          snapshot: JSON.stringify({
            name: r.name,
            content: r.content,
            customization: customizationOf(r.customization),
          }),
        })),
      )
      .execute();
    after = rows[rows.length - 1]!.id;
  }
}

/** jsonb reads back parsed, SQLite's text as text; anything unreadable as no customization. */
function customizationOf(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {};
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return {};
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('qr_code_versions').execute();
}
