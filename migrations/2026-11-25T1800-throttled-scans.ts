import type { Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Scans counted apart: one client (address and user agent) following one code faster than a person
 * could scan it — a redirect loop, a script — is still answered, but its excess scans are only
 * counted here, per code and UTC day, not stored as scans or added to the analytics.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('throttled_scans')
    .addColumn('qr_code_id', 'integer', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('scans', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('throttled_scans_pk', ['qr_code_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('throttled_scans').execute();
}
