import { sql } from 'kysely';
import { dialectOf } from './create-db.js';
import type { Db } from './database.js';

/** Any fixed number, this app's own: the advisory lock that start-up steps take on PostgreSQL. */
const STARTUP_LOCK = 7_340_021_118;

/**
 * Runs `step` while no other instance runs one: instances started together on one PostgreSQL database
 * would otherwise both find no admin and both create one (the second then fails on the unique
 * username). The lock is held on one connection of the pool; `step` uses the others. SQLite serves one
 * process, so it needs none.
 */
export async function underStartupLock<T>(db: Db, step: () => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'postgres') return step();
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${STARTUP_LOCK})`.execute(connection);
    try {
      return await step();
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK})`.execute(connection);
    }
  });
}
