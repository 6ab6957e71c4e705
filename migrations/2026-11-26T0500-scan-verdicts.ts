import type { Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * The scan-safety verdict of each code's image, made by the server when the code is saved: 'scannable',
 * 'risky' or 'unscannable' with its main reason in plain words. Null until checked (codes saved before
 * this migration are checked in the background after start).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('qr_codes').addColumn('scan_verdict', 'text').execute();
  await db.schema.alterTable('qr_codes').addColumn('scan_reason', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('qr_codes').dropColumn('scan_reason').execute();
  await db.schema.alterTable('qr_codes').dropColumn('scan_verdict').execute();
}
