import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import pg from 'pg';
import {
  createDb,
  dialectOf,
  openSqlite,
  sqliteConnectionOf,
  sqliteHandle,
  type DbHandle,
  type Dialect,
} from '../db/create-db.js';
import type { Database, Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

export type DbKind = Dialect;

/** A migrated, private database: in-memory SQLite, or this worker's PostgreSQL database, emptied. */
export interface TestDb {
  handle: DbHandle;
  db: Db;
  dialect: Dialect;
  /** Empties every application table (not Kysely's migration bookkeeping) and restarts ids. */
  reset: () => Promise<void>;
  /** Closes the connection (PostgreSQL: ends the pool; the run drops the database when it ends). */
  close: () => Promise<void>;
}

/**
 * A new schema name for a test of its own inside this worker's database (workerDatabaseUrl): the
 * migration tests migrate step by step in one. Lower-case letters, digits and _ only: a safe,
 * unquoted identifier for search_path.
 */
export function newTestSchema(): string {
  return `s_${randomBytes(8).toString('hex')}`;
}

/** `base` (a PostgreSQL URL) naming another database of the same server. */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Migrates the PostgreSQL database at `url` to the latest migration, over a connection of its own. */
export async function migrateDatabaseAt(url: string): Promise<void> {
  const handle = createDb(url, { poolSize: 1 });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
}

let workerDatabase: Promise<string> | undefined;

/**
 * This worker's own PostgreSQL database, made once per worker process: a copy of the run's migrated
 * template (server/test/global-setup.ts) when there is one, else an empty database migrated here.
 * Test files in one worker run one after another, so nothing else changes its catalog while a test
 * reads it; every database of the run shares the run's prefix and is dropped when the run ends.
 */
export function workerDatabaseUrl(): Promise<string> {
  workerDatabase ??= (async () => {
    const base = testDatabaseUrl();
    if (!base) throw new Error('TEST_DATABASE_URL is not set: a PostgreSQL test database cannot be created');
    const name = `${process.env.TEST_RUN_PREFIX ?? 't_'}w${process.pid}_${randomBytes(3).toString('hex')}`;
    const template = process.env.TEST_PG_TEMPLATE;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
    } finally {
      await admin.end();
    }
    const url = databaseUrl(base, name);
    if (!template) await migrateDatabaseAt(url);
    return url;
  })();
  return workerDatabase;
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

/** A TestDb over a migrated database: `tables` are its own tables (ownTableNames). */
async function testDbOver(handle: DbHandle, tables: string[], close: () => Promise<void>): Promise<TestDb> {
  // PostgreSQL: DELETE, children before parents, then the sequences restarted. TRUNCATE creates and
  // syncs new files for every table, about 120 ms a reset here and far more on a loaded machine.
  if (handle.dialect === 'postgres') postgresDeleteOrder ??= await childrenFirst(handle.db, tables);
  const deleteOrder = postgresDeleteOrder ?? [];
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

/** One migrated SQLite database per worker, serialized: each test database starts as a copy of it. */
let sqliteImage: Promise<{ image: Buffer; tables: string[] }> | undefined;

function migratedSqliteImage() {
  sqliteImage ??= (async () => {
    const handle = createDb('sqlite::memory:');
    try {
      await migrateToLatest(handle.db);
      const tables = await ownTableNames(handle.db);
      return { image: sqliteConnectionOf(handle.db)!.serialize(), tables };
    } finally {
      await handle.close();
    }
  })();
  return sqliteImage;
}

/** PostgreSQL: this worker's database's tables (workerDatabaseUrl), and the order that empties them. */
let postgresTables: string[] | undefined;
let postgresDeleteOrder: string[] | undefined;

export async function createTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'sqlite') {
    const { image, tables } = await migratedSqliteImage();
    const handle = sqliteHandle(openSqlite(image));
    return testDbOver(handle, tables, () => handle.close());
  }
  const handle = createDb(await workerDatabaseUrl(), { poolSize: 4, asyncCommit: true });
  try {
    postgresTables ??= await ownTableNames(handle.db);
    const testDb = await testDbOver(handle, postgresTables, () => handle.close());
    // The worker's database holds what the previous file or block left.
    await testDb.reset();
    return testDb;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Runs `fn` once per database: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. Without it
 * the PostgreSQL block is a `describe.skip`, so the run reports its tests as skipped, never as passed.
 * Every test starts from an empty, migrated database (`getDb()`): SQLite is a new copy of one
 * migrated image for each test; PostgreSQL is the worker's own database, emptied between tests.
 */
export function describeEachDb(title: string, fn: (getDb: () => TestDb, kind: DbKind) => void): void {
  describeOn(['sqlite', 'postgres'], title, fn);
}

/**
 * describeEachDb on SQLite alone, for tests whose subject is not SQL: validation, HTTP answers, files,
 * mail, workers, HTML. The SQL they reach is the repositories', which the repository, query, migration
 * and concurrency tests, the authorization matrix and the fuzz test run on PostgreSQL as well.
 */
export function describeOnSqlite(title: string, fn: (getDb: () => TestDb, kind: DbKind) => void): void {
  describeOn(['sqlite'], title, fn);
}

function describeOn(
  kinds: readonly DbKind[],
  title: string,
  fn: (getDb: () => TestDb, kind: DbKind) => void,
): void {
  for (const kind of kinds) {
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
