import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely';
import { migrations } from '../../migrations/index.js';
import type { Database } from './database.js';

/**
 * Kysely's migrator over our migrations. On PostgreSQL its bookkeeping tables live in the current
 * schema, named explicitly: without a schema Kysely takes a `kysely_migration_lock` of any schema
 * for its own, so two databases in schemas of one PostgreSQL (test files side by side) would trip
 * over each other's.
 */
export async function migratorFor(db: Kysely<Database>): Promise<Migrator> {
  const provider = { getMigrations: () => Promise.resolve(migrations) };
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return new Migrator({ db, provider });
  const current = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return new Migrator({ db, provider, migrationTableSchema: current.rows[0]!.schema });
}

/**
 * Errors PostgreSQL raises when Kysely's migrator reads the catalog of every schema of the database
 * (its introspection lists all tables and their columns) while another schema's tables change: test
 * files side by side migrate up and down and drop their schemas. Seen: `relation "other.table" does
 * not exist`, `schema "other" does not exist`, `column "c" of relation "t" does not exist`.
 */
const CATALOG_RACE = /does not exist|cache lookup failed|could not open relation/;

/**
 * Runs a migrator call again (at most 5 attempts) when it failed before any migration ran, on one of
 * the catalog races above. A migration that fails is never retried: its result says Error. Nothing
 * of ours was written by a failed attempt: each is a transaction.
 */
export async function retryingCatalogRaces<
  T extends { error?: unknown; results?: readonly { status: string }[] },
>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const result = await run();
    const message = result.error instanceof Error ? result.error.message : '';
    const inMigration = result.results?.some((r) => r.status === 'Error') ?? false;
    if (attempt >= 5 || result.error === undefined || inMigration || !CATALOG_RACE.test(message))
      return result;
  }
}

/** Applies pending migrations in order (PostgreSQL: under Kysely's advisory lock). Throws on failure. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = await migratorFor(db);
  const { error, results } = await retryingCatalogRaces(() => migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const detail = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed and was rolled back: ${detail}`.replace('  ', ' '),
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
