import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Short domains (issue 35): host names an admin adds (go.example.com), each available to every workspace
 * or to the ones listed in `short_domain_workspaces`; a dynamic code's link uses one of them
 * (`qr_codes.domain_id`) or, null, the app's own address. A domain that codes use cannot be deleted (the
 * app refuses first; the foreign key holds it too).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('short_domains')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('hostname', 'text', (c) => c.notNull().unique())
    .addColumn('all_workspaces', pg ? 'boolean' : 'integer', (c) => c.notNull().defaultTo(pg ? false : 0))
    .addColumn('root_url', 'text')
    .addColumn('not_found_url', 'text')
    .addColumn('created', pg ? 'timestamptz' : 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('short_domain_workspaces')
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('short_domains.id').onDelete('cascade'))
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('short_domain_workspaces_pk', ['domain_id', 'workspace_id'])
    .execute();
  await db.schema
    .createIndex('short_domain_workspaces_workspace_idx')
    .on('short_domain_workspaces')
    .column('workspace_id')
    .execute();
  await db.schema
    .alterTable('qr_codes')
    .addColumn('domain_id', 'integer', (c) => c.references('short_domains.id'))
    .execute();
  await db.schema.createIndex('qr_codes_domain_idx').on('qr_codes').column('domain_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('qr_codes_domain_idx').execute();
  await db.schema.alterTable('qr_codes').dropColumn('domain_id').execute();
  await db.schema.dropTable('short_domain_workspaces').execute();
  await db.schema.dropTable('short_domains').execute();
}
