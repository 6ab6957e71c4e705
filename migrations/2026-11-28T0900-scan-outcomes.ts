import type { Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * What each scan of a smart code led to (issue 29):
 * - `qr_scans.rule`: for a served scan, the redirect rule that chose its destination (1 = the first
 *   rule) or 0 for the code's own destination; null for a scan not served (refused: see `refused`) and
 *   for every scan stored before this migration, whose rule nobody recorded.
 * - `qr_scans.refused` gains a code, 6: the scan got the short link's password form (nothing else was
 *   shown). No column change: it is an integer already.
 * - `refused_scans.password_forms`: of a code's refused scans of a day, those that got the password form,
 *   so that they are told apart from the scans turned away (paused, not started, ended, over the limit)
 *   and, like them, never take a place under a scan limit.
 *
 * Nullable and defaulted columns: existing rows keep their meaning (no rule known, no password form).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('qr_scans').addColumn('rule', 'smallint').execute();
  await db.schema
    .alterTable('refused_scans')
    .addColumn('password_forms', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refused_scans').dropColumn('password_forms').execute();
  await db.schema.alterTable('qr_scans').dropColumn('rule').execute();
}
