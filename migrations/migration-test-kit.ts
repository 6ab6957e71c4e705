import { sql, type Kysely } from 'kysely';
import { describe, it } from 'vitest';
import { createDb, type DbHandle } from '../server/db/create-db.js';
import { migratorFor } from '../server/db/migrate.js';
import type { Database } from '../server/db/database.js';
import { newTestSchema, testDatabaseUrl, workerDatabaseUrl } from '../server/test/test-db.js';
import { migrations } from './index.js';

/** Migrates to `target` (inclusive) with the real migrations. */
export async function migrateTo(db: Kysely<Database>, target: string): Promise<void> {
  const migrator = await migratorFor(db);
  const { error } = await migrator.migrateTo(target);
  if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
}

/** The migration before `name`. */
export function previousOf(name: string): string {
  const names = Object.keys(migrations);
  return names[names.indexOf(name) - 1]!;
}

/**
 * The upgrade test every new migration comes with: `upgradeWithData` fills the previous schema, migrates
 * and checks; it runs on an in-memory SQLite database and, when TEST_DATABASE_URL is set, on PostgreSQL in
 * a schema of its own in the worker's database (reported as skipped otherwise).
 */
export function describeMigration(name: string, upgradeWithData: (handle: DbHandle) => Promise<void>): void {
  describe(`migration ${name}`, () => {
    it('upgrades a SQLite database holding data from the previous schema', async () => {
      const handle = createDb('sqlite::memory:');
      try {
        await upgradeWithData(handle);
      } finally {
        await handle.close();
      }
    });

    const url = testDatabaseUrl();
    it.skipIf(!url)(
      `upgrades a PostgreSQL database holding data from the previous schema${url ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`,
      async () => {
        // A schema of its own in this worker's database, where nothing else runs meanwhile.
        const schema = newTestSchema();
        const handle = createDb(await workerDatabaseUrl(), { searchPath: schema, poolSize: 2 });
        try {
          await sql`create schema ${sql.id(schema)}`.execute(handle.db);
          await upgradeWithData(handle);
        } finally {
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
          await handle.close();
        }
      },
    );
  });
}
