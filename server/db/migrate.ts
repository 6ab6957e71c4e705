import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely';
import { migrations } from '../../migrations/index.js';
import { dialectOf } from './create-db.js';
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

/** The migrations this build knows, oldest first (their names sort by time). */
export const knownMigrations: readonly string[] = Object.keys(migrations).sort();

/** Where a database stands against this build's migrations. */
export interface MigrationState {
  /** Applied migrations this build knows, oldest first. */
  applied: string[];
  /** Migrations this build knows that the database has not had yet, in the order they would run. */
  pending: string[];
  /** Applied migrations this build does not know: a newer build upgraded the database. */
  unknown: string[];
  /** The newest applied migration, known or not; null for a fresh database. */
  last: string | null;
  /** When each applied migration ran (ISO 8601), by name. */
  appliedAt: Record<string, string>;
}

/**
 * Reads Kysely's bookkeeping table (without creating it: a fresh database is left as it is). On
 * PostgreSQL the table of the current schema, the one the migrator uses.
 */
export async function readMigrationState(db: Kysely<Database>): Promise<MigrationState> {
  let rows: { name: string; timestamp: unknown }[] = [];
  if (dialectOf(db) === 'postgres') {
    const { rows: found } = await sql<{ schema: string; present: boolean }>`select current_schema() as schema,
      to_regclass(quote_ident(current_schema()) || '.kysely_migration') is not null as present`.execute(db);
    const schema = found[0]?.schema;
    if (schema && found[0]?.present) {
      ({ rows } = await sql<{ name: string; timestamp: unknown }>`select name, timestamp from ${sql.id(
        schema,
        'kysely_migration',
      )}`.execute(db));
    }
  } else {
    const { rows: found } = await sql<{ n: number }>`select count(*) as n from sqlite_master
      where type = 'table' and name = 'kysely_migration'`.execute(db);
    if (Number(found[0]?.n ?? 0) > 0) {
      ({ rows } = await sql<{
        name: string;
        timestamp: unknown;
      }>`select name, timestamp from kysely_migration`.execute(db));
    }
  }
  const done = new Set(rows.map((r) => r.name));
  const known = new Set(knownMigrations);
  const appliedAt: Record<string, string> = {};
  for (const r of rows) {
    const at = r.timestamp instanceof Date ? r.timestamp : new Date(String(r.timestamp));
    appliedAt[r.name] = Number.isNaN(at.getTime()) ? String(r.timestamp) : at.toISOString();
  }
  const names = [...done].sort();
  return {
    applied: knownMigrations.filter((name) => done.has(name)),
    pending: knownMigrations.filter((name) => !done.has(name)),
    unknown: names.filter((name) => !known.has(name)),
    last: names.at(-1) ?? null,
    appliedAt,
  };
}
