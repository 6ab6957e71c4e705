import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely';
import { migrations } from '../../migrations/index.js';
import type { Database } from './database.js';

/**
 * Kysely's migrator over our migrations. On PostgreSQL its bookkeeping tables live in the current
 * schema, named explicitly: without a schema Kysely takes a `kysely_migration_lock` of any schema
 * for its own, so two databases in schemas of one PostgreSQL (a migration test's schema beside a
 * migrated one) would trip over each other's.
 */
export async function migratorFor(db: Kysely<Database>): Promise<Migrator> {
  const provider = { getMigrations: () => Promise.resolve(migrations) };
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return new Migrator({ db, provider });
  const current = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return new Migrator({ db, provider, migrationTableSchema: current.rows[0]!.schema });
}

/** Applies pending migrations in order (PostgreSQL: under Kysely's advisory lock). Throws on failure. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = await migratorFor(db);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const detail = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed and was rolled back: ${detail}`.replace('  ', ' '),
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
