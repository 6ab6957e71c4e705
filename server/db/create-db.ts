import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, PostgresIntrospector, SqliteDialect, sql, type LogEvent } from 'kysely';
import type pg from 'pg';
import { lazyRequire } from '../lazy-require.js';
import { privateDir, privateFile } from '../private-files.js';
import type { Database } from './database.js';

export type Dialect = 'sqlite' | 'postgres';

/** A pool's connection counts (pg's Pool has them). */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export interface DbHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Answers when the database does (readiness probe). */
  ping: () => Promise<void>;
  close: () => Promise<void>;
  /** PostgreSQL: the connection pool (its counts feed the metrics). */
  pool?: PoolStats;
}

/** The PostgreSQL driver, loaded only when DATABASE_URL names PostgreSQL. */
const loadPg = lazyRequire<typeof pg>('pg');
function postgresDriver(): typeof pg {
  const driver = loadPg();
  // int8 (count(*), sum) arrives as a string by default; our counts stay far below 2^53.
  driver.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
  return driver;
}

/**
 * better-sqlite3 binds only numbers, strings, bigints, buffers and null. Booleans and Dates are
 * converted here, once, so the same Kysely queries run on SQLite and PostgreSQL.
 */
function sqliteParam(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** Prepared statements are reused by SQL text: preparing costs more than running most queries. */
const STATEMENT_CACHE_MAX = 500;

/**
 * Kysely begins a transaction with a plain (deferred) `begin`. Other connections write to the file too (the
 * scan writer's thread, the background thread, other processes): a deferred transaction that reads, awaits,
 * then writes after one of them committed fails at once with SQLITE_BUSY_SNAPSHOT (its snapshot is stale,
 * and waiting cannot help). `begin immediate` takes the write lock first, waiting for it (busy_timeout).
 */
const BEGIN = 'begin';
const BEGIN_IMMEDIATE = 'begin immediate';

function portableSqlite(database: SQLite.Database): SQLite.Database {
  const prepare = database.prepare.bind(database);
  const statements = new Map<string, SQLite.Statement>();
  return new Proxy(database, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') return Reflect.get(target, prop, receiver) as unknown;
      return (source: string) => {
        const cached = statements.get(source);
        if (cached) return cached;
        const stmt = prepare(source === BEGIN ? BEGIN_IMMEDIATE : source);
        const wrap =
          (fn: (...args: unknown[]) => unknown) =>
          (params: unknown[] = []) =>
            fn.call(stmt, params.map(sqliteParam));
        const all = wrap(stmt.all.bind(stmt));
        const run = wrap(stmt.run.bind(stmt));
        const get = wrap(stmt.get.bind(stmt));
        const iterate = wrap(stmt.iterate.bind(stmt) as (...args: unknown[]) => unknown);
        const portable = new Proxy(stmt, {
          get(s, key, r) {
            if (key === 'all') return all;
            if (key === 'run') return run;
            if (key === 'get') return get;
            if (key === 'iterate') return iterate;
            const v = Reflect.get(s, key, r) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(s) : v;
          },
        });
        if (statements.size >= STATEMENT_CACHE_MAX) statements.delete(statements.keys().next().value!);
        statements.set(source, portable);
        return portable;
      };
    },
  });
}

/**
 * Which database `db` talks to: the one way the server asks. A transaction answers like the database
 * it runs on (the dialect's introspector travels with it), so repositories can ask inside one.
 */
export function dialectOf(db: Kysely<Database>): Dialect {
  return db.introspection instanceof PostgresIntrospector ? 'postgres' : 'sqlite';
}

const rawSqlite = new WeakMap<Kysely<Database>, SQLite.Database>();

/**
 * The better-sqlite3 connection behind a Kysely instance made by createDb (SQLite only), for the
 * native fast paths that run prepared statements on it directly. Not a way to ask the dialect (a
 * transaction has none): that is dialectOf.
 */
export function sqliteConnectionOf(db: Kysely<Database>): SQLite.Database | undefined {
  return rawSqlite.get(db);
}

const pgPools = new WeakMap<Kysely<Database>, pg.Pool>();

/**
 * The pg pool behind a Kysely instance made by createDb (PostgreSQL only), for the hot paths that send
 * named statements (prepared once per connection), which Kysely cannot: the scan writer and the short
 * link's lookup. Undefined for a transaction or any other Kysely instance: those go through Kysely.
 */
export function postgresPoolOf(db: Kysely<Database>): pg.Pool | undefined {
  return pgPools.get(db);
}

/**
 * A file, `:memory:`, or the bytes of a serialized database (an in-memory copy of them: tests start
 * each database from one migrated image instead of migrating anew).
 */
export function openSqlite(file: string | Buffer): SQLite.Database {
  if (typeof file === 'string' && file !== ':memory:') {
    // Owner-only: SQLite gives the -wal and -shm files the database file's own mode.
    privateDir(path.dirname(file));
    privateFile(file);
    for (const sidecar of [`${file}-wal`, `${file}-shm`]) if (fs.existsSync(sidecar)) privateFile(sidecar);
  }
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  // Checkpoint every 4,000 pages (16 MB of WAL) instead of 1,000: a scan's tail pages are rewritten
  // by every batch, so a rarer checkpoint copies each of them (and syncs the file) a quarter as
  // often — measured 171 → 108 µs per 18-scan batch. The file is truncated back to 64 MB at most.
  database.pragma('wal_autocheckpoint = 4000');
  database.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  // 32 MB of page cache (the default is 2 MB): the scan writer's index pages and the analytics
  // rollups stay in memory. And statistics for the planner, refreshed as SQLite sees fit.
  database.pragma('cache_size = -32768');
  database.pragma('optimize = 0x10002');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return database;
}

export interface CreateDbOptions {
  /** PostgreSQL only: the schema to use (tests isolate themselves in their own schema). */
  searchPath?: string;
  poolSize?: number;
  /**
   * PostgreSQL only: commit without waiting for the WAL to reach the disk. For throw-away test
   * schemas: a loaded machine's fsyncs otherwise dominate the database suite's time.
   */
  asyncCommit?: boolean;
  /** Told of every query and its time (the metrics' db_query_duration_seconds). */
  log?: (event: LogEvent) => void;
}

/** A Kysely handle over a SQLite database opened by openSqlite. */
export function sqliteHandle(database: SQLite.Database, options: CreateDbOptions = {}): DbHandle {
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: portableSqlite(database) }),
    ...(options.log ? { log: options.log } : {}),
  });
  rawSqlite.set(db, database);
  return {
    db,
    dialect: 'sqlite',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** `sqlite:<file>` (or `sqlite::memory:`) or `postgres://…`. */
export function createDb(url: string, options: CreateDbOptions = {}): DbHandle {
  if (url.startsWith('sqlite:')) {
    return sqliteHandle(openSqlite(url.slice('sqlite:'.length) || ':memory:'), options);
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new (postgresDriver().Pool)({
      connectionString: url,
      max: options.poolSize ?? 10,
      ...(options.searchPath || options.asyncCommit
        ? {
            options: [
              options.searchPath ? `-c search_path=${options.searchPath}` : '',
              options.asyncCommit ? '-c synchronous_commit=off' : '',
            ]
              .filter(Boolean)
              .join(' '),
          }
        : {}),
    });
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      ...(options.log ? { log: options.log } : {}),
    });
    pgPools.set(db, pool);
    return {
      db,
      dialect: 'postgres',
      pool,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }
  throw new Error(`Unsupported DATABASE_URL: ${url.split(':')[0] ?? ''}`);
}
