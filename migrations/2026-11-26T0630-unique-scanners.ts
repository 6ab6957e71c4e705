import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Unique scanners without linkable identifiers (server/features/scans/unique-scanners.ts).
 *
 * - `scan_salts` (UTC day → 32 random bytes) holds only the current day's salt; older salts are
 *   deleted as the day changes, so a day's visitor hashes can never be recomputed afterwards.
 * - `qr_scans.visitor`: the scan's visitor hash for its day (48 bits of SHA-256 of the salt, the code,
 *   the address and the user agent), or null: bots, and every scan stored before this migration.
 * - `scan_code_day_visitors` (code, UTC day, visitor): the visitors a code has seen today, so a
 *   batch of scans knows which are a first sighting without reading anything back. Rows of finished
 *   days are deleted once their counts are final.
 * - `unique_scanners` on the quarter-hour and day rollups: the first sightings counted there. Rows
 *   written before this migration keep null: unknown, never zero.
 *
 * Adding a nullable column without a default rewrites nothing on either database, so the upgrade is
 * instant at any number of scans.
 */
const ROLLUPS = ['scan_user_quarters', 'scan_code_quarters', 'scan_code_days'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('scan_salts')
    .addColumn('day', 'integer', (c) => c.primaryKey())
    .addColumn('salt', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('qr_scans')
    .addColumn('visitor', pg ? 'bigint' : 'integer')
    .execute();
  const visitors = db.schema
    .createTable('scan_code_day_visitors')
    .addColumn('qr_code_id', 'integer', (c) => c.notNull().references('qr_codes.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('visitor', pg ? 'bigint' : 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_code_day_visitors_pk', ['qr_code_id', 'day', 'visitor']);
  // SQLite: the key is the table (no rowid and second copy of the key in an index).
  await (pg ? visitors : visitors.modifyEnd(sql`without rowid`)).execute();
  for (const table of ROLLUPS)
    await db.schema.alterTable(table).addColumn('unique_scanners', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ROLLUPS) await db.schema.alterTable(table).dropColumn('unique_scanners').execute();
  await db.schema.dropTable('scan_code_day_visitors').execute();
  await db.schema.alterTable('qr_scans').dropColumn('visitor').execute();
  await db.schema.dropTable('scan_salts').execute();
}
