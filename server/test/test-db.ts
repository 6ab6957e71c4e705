import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { createDb, dialectOf, type DbHandle, type Dialect } from '../db/create-db.js';
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

/**
 * A new schema name for a PostgreSQL test database. Under `vitest run` the names share this run's
 * prefix (server/test/global-setup.ts) and the schemas are dropped together when the run ends: a
 * schema dropped while another file's Kysely introspects the catalog (the migrator does, at every
 * start) fails that file with "relation … does not exist", so nothing is dropped while files run.
 */
export function newTestSchema(): { name: string; dropOnClose: boolean } {
  const prefix = process.env.TEST_SCHEMA_PREFIX;
  // Lower-case letters, digits and _ only: a safe, unquoted identifier for search_path.
  return { name: `${prefix ?? 't_'}${randomBytes(8).toString('hex')}`, dropOnClose: !prefix };
}

/** The tables of the database's own schema (PostgreSQL: the search_path's; other schemas' are not ours). */
export async function ownTableNames(db: Kysely<Database>): Promise<string[]> {
  if (dialectOf(db) !== 'postgres')
    return (await db.introspection.getTables()).filter((t) => !t.isView).map((t) => t.name);
  // Not Kysely's introspection: it reads every schema, and fails when another's table is dropped meanwhile.
  const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  // Kysely's own bookkeeping is not ours either (its introspection leaves it out too).
  return rows.map((r) => r.name).filter((name) => !name.startsWith('kysely_'));
}

/** Read at call time, so a test run decides by its own environment. */
export function testDatabaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL?.trim();
  return url ? url : undefined;
}

async function migrated(handle: DbHandle, close: () => Promise<void>): Promise<TestDb> {
  let tables: string[];
  try {
    await migrateToLatest(handle.db);
    tables = await ownTableNames(handle.db);
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  // PostgreSQL: DELETE, children before parents, then the sequences restarted. TRUNCATE creates and
  // syncs new files for every table, about 120 ms a reset here and far more on a loaded machine.
  const deleteOrder = handle.dialect === 'postgres' ? await childrenFirst(handle.db, tables) : [];
  const reset = async () => {
    if (handle.dialect === 'postgres') {
      await handle.db.transaction().execute(async (trx) => {
        for (const table of deleteOrder) await sql`delete from ${sql.id(table)}`.execute(trx);
        await sql`select setval(c.oid, 1, false) from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind = 'S' and n.nspname = current_schema()`.execute(trx);
      });
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

/** The tables in an order that deletes every referencing table before the tables it references. */
async function childrenFirst(db: Kysely<Database>, tables: string[]): Promise<string[]> {
  const { rows } = await sql<{ child: string; parent: string }>`select c.relname as child, p.relname as parent
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
    join pg_namespace n on n.oid = c.relnamespace
    where k.contype = 'f' and n.nspname = current_schema() and c.oid <> p.oid`.execute(db);
  const order: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: string) => {
    if (placed.has(table) || visiting.has(table)) return;
    visiting.add(table);
    // Referencing tables first.
    for (const r of rows) if (r.parent === table) place(r.child);
    visiting.delete(table);
    placed.add(table);
    order.push(table);
  };
  for (const table of tables) place(table);
  return order.filter((t) => tables.includes(t));
}

export async function createTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'sqlite') {
    const handle = createDb('sqlite::memory:');
    return migrated(handle, () => handle.close());
  }

  const url = testDatabaseUrl();
  if (!url) throw new Error('TEST_DATABASE_URL is not set: a PostgreSQL test database cannot be created');
  const { name: schema, dropOnClose } = newTestSchema();
  const handle = createDb(url, { searchPath: schema, poolSize: 4, asyncCommit: true });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      if (dropOnClose) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
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
  return migrated(handle, close);
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
