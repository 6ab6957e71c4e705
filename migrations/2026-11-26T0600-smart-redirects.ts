import type { Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Smart redirects (server/features/redirect/smart-redirect.ts):
 *
 * - `qr_codes.redirect_options`: a dynamic code's rules, schedule, scan limit, pause, fallback, UTM and
 *   query forwarding as JSON text (src/qr/smart-redirect.ts); null: nothing on. Read with the code's
 *   short-link lookup, so deciding a scan reads nothing more.
 * - `qr_codes.password_hash`: argon2 hash of the short link's password; null: no password.
 * - `qr_scans.refused`: why a scan was answered with the "not available" page instead of the
 *   destination (1 paused, 2 not started, 3 ended, 4 scan limit reached); null: served.
 * - `refused_scans` (code, UTC day → scans, bots): those refused scans counted apart, as throttled_scans
 *   counts throttled ones. They are in the rollups too (the owner sees the demand); this table lets the
 *   scan limit count only scans that were served.
 * - `server_secrets` (name → random value): keys the server makes once and shares between instances
 *   through the database (the short links' password cookies are signed with one).
 *
 * Nullable columns without a default and new tables: nothing is rewritten on either database.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('qr_codes').addColumn('redirect_options', 'text').execute();
  await db.schema.alterTable('qr_codes').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('qr_scans').addColumn('refused', 'smallint').execute();
  await db.schema
    .createTable('refused_scans')
    .addColumn('qr_code_id', 'integer', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('scans', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bots', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('refused_scans_pk', ['qr_code_id', 'day'])
    .execute();
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_secrets').execute();
  await db.schema.dropTable('refused_scans').execute();
  await db.schema.alterTable('qr_scans').dropColumn('refused').execute();
  await db.schema.alterTable('qr_codes').dropColumn('password_hash').execute();
  await db.schema.alterTable('qr_codes').dropColumn('redirect_options').execute();
}
