import { Migrator, type Kysely } from 'kysely';
import { migrations } from '../../migrations/index.js';
import type { Database } from './database.js';

/** Applies pending migrations in order (PostgreSQL: under Kysely's advisory lock). Throws on failure. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
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
