import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { createDb, type DbHandle, type Dialect } from '../db/create-db.js';
import type { Database, Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

export type DbKind = Dialect;

/** A migrated, private database: in-memory SQLite, or a throw-away schema in PostgreSQL. */
export interface TestDb {
  handle: DbHandle;
  db: Db;
  dialect: Dialect;
  /** Empties every application table (not Kysely's migration bookkeeping) and restarts ids. */
  reset: () => Promise<void>;
  /** SQLite: closes the connection. PostgreSQL: drops the schema (cascade), then ends the pool. */
  close: () => Promise<void>;
}

/** Read at call time, so a test run decides by its own environment. */
export function testDatabaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL?.trim();
  return url ? url : undefined;
}

async function migrated(
  handle: DbHandle,
  schema: string | undefined,
  close: () => Promise<void>,
): Promise<TestDb> {
  let tables: string[];
  try {
    await migrateToLatest(handle.db);
    tables = (await handle.db.introspection.getTables())
      .filter((t) => !t.isView && (schema === undefined || t.schema === schema))
      .map((t) => t.name);
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  const reset = async () => {
    if (handle.dialect === 'postgres') {
      await sql`truncate table ${sql.join(tables.map((t) => sql.id(t)))} restart identity cascade`.execute(
        handle.db,
      );
      return;
    }
    await handle.db.transaction().execute(async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      for (const table of tables) await sql`delete from ${sql.id(table)}`.execute(trx);
      await sql`delete from sqlite_sequence`.execute(trx);
    });
  };
  return { handle, db: handle.db, dialect: handle.dialect, reset, close };
}

export async function createTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'sqlite') {
    const handle = createDb('sqlite::memory:');
    return migrated(handle, undefined, () => handle.close());
  }

  const url = testDatabaseUrl();
  if (!url) throw new Error('TEST_DATABASE_URL is not set: a PostgreSQL test database cannot be created');
  // Lower-case letters and digits only: a safe, unquoted identifier for search_path.
  const schema = `t_${randomBytes(8).toString('hex')}`;
  const handle = createDb(url, { searchPath: schema, poolSize: 4 });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
    } finally {
      await handle.close();
    }
  };
  try {
    await sql`create schema ${sql.id(schema)}`.execute(handle.db);
  } catch (error) {
    closed = true;
    await handle.close().catch(() => undefined);
    throw error;
  }
  return migrated(handle, schema, close);
}

/**
 * Runs `fn` once per database: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. Without it
 * the PostgreSQL block is a `describe.skip`, so the run reports its tests as skipped, never as passed.
 * Every test starts from an empty, migrated database (`getDb()`): SQLite is created anew for each
 * test; PostgreSQL keeps one schema per block and truncates it between tests, since creating and
 * migrating a schema costs far more than emptying one.
 */
export function describeEachDb(title: string, fn: (getDb: () => TestDb, kind: DbKind) => void): void {
  for (const kind of ['sqlite', 'postgres'] as const) {
    const label = `${title} [${kind}]`;
    if (kind === 'postgres' && !testDatabaseUrl()) {
      describe.skip(`${label} (skipped: TEST_DATABASE_URL not set)`, () => {
        fn(() => {
          throw new Error('PostgreSQL tests are skipped: TEST_DATABASE_URL not set');
        }, kind);
      });
      continue;
    }
    describe(label, () => {
      let current: TestDb | undefined;
      if (kind === 'postgres') {
        let shared: TestDb | undefined;
        let dirty = false;
        beforeAll(async () => {
          shared = await createTestDb(kind);
        });
        beforeEach(async () => {
          if (dirty) await shared?.reset();
          dirty = true;
          current = shared;
        });
        afterEach(() => {
          current = undefined;
        });
        afterAll(async () => {
          await shared?.close();
        });
      } else {
        beforeEach(async () => {
          current = await createTestDb(kind);
        });
        afterEach(async () => {
          const db = current;
          current = undefined;
          await db?.close();
        });
      }
      fn(() => {
        if (!current) throw new Error('getDb() is only available inside a test or a beforeEach hook');
        return current;
      }, kind);
    });
  }
}

/** Number of rows in a table, read straight from the database. */
export async function countRows(db: Db, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
