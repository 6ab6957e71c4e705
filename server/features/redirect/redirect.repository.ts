import type SQLite from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { sqliteConnectionOf } from '../../db/create-db.js';
import type { Db } from '../../db/database.js';

export interface ShortLinkTarget {
  id: number;
  user_id: number;
  name: string;
  type: string;
  content: string;
  slug: string | null;
}

type Lookup = (slug: string) => Promise<ShortLinkTarget | undefined>;
const lookups = new WeakMap<Db, Lookup>();

const SLUG_QUERY =
  'select id, user_id, name, type, content, slug from qr_codes where slug = ? and is_dynamic = 1';
const CACHE_MAX = 10_000;
let sqliteCaches = 0;

/**
 * SQLite: the process owns the database file, so a found code is kept in memory and the whole cache
 * is dropped by temporary triggers whenever any row of qr_codes is inserted, updated or deleted
 * (through any path: the API, a folder or user deletion's cascade, the admin area). An edit
 * therefore still applies to the very next scan. Nothing read inside an open transaction is kept:
 * it may yet be rolled back. Even a prepared native read costs ~5 µs per scan (WAL read lock), a
 * sixth of a redirect's server time, which the cache removes.
 *
 * The triggers must be created outside any transaction (a rollback would drop them with it):
 * `prepareShortLinks` runs at start-up, and a lookup that finds a transaction open before the
 * triggers exist reads without the cache and leaves the set-up for later. The cache only sees writes
 * made through this connection — the app's one connection to its file (operations: one process).
 */
function cachedSqliteLookup(connection: SQLite.Database): Lookup {
  const statement = connection.prepare<[string], ShortLinkTarget>(SLUG_QUERY);
  const cache = new Map<string, ShortLinkTarget>();
  const changed = `qr_codes_changed_${++sqliteCaches}`;
  connection.function(changed, { deterministic: false }, () => {
    cache.clear();
    return null;
  });
  for (const event of ['insert', 'update', 'delete']) {
    connection.exec(
      `create temp trigger if not exists ${changed}_${event} after ${event} on main.qr_codes begin select ${changed}(); end`,
    );
  }
  return (slug) => {
    const hit = cache.get(slug);
    if (hit) return Promise.resolve(hit);
    const row = statement.get(slug);
    if (row && !connection.inTransaction) {
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
      cache.set(slug, row);
    }
    return Promise.resolve(row);
  };
}

function uncachedSqliteLookup(connection: SQLite.Database): Lookup {
  const statement = connection.prepare<[string], ShortLinkTarget>(SLUG_QUERY);
  return (slug) => Promise.resolve(statement.get(slug));
}

/**
 * The public short link's only lookup, run on every scan, so it is prepared once per database: on
 * SQLite as a native statement behind an invalidated cache (above), on PostgreSQL — where other
 * instances may edit a code — as one indexed read, compiled once, never cached.
 */
function compiledLookup(db: Db): Lookup {
  const query: CompiledQuery<ShortLinkTarget> = db
    .selectFrom('qr_codes')
    .select(['id', 'user_id', 'name', 'type', 'content', 'slug'])
    .where('slug', '=', '')
    .where('is_dynamic', '=', true)
    .compile();
  return async (slug) => {
    // Parameters in order: slug, is_dynamic.
    const result = await db.executeQuery<ShortLinkTarget>({ ...query, parameters: [slug, true] });
    return result.rows[0];
  };
}

function lookupOf(db: Db): Lookup {
  const known = lookups.get(db);
  if (known) return known;
  const connection = sqliteConnectionOf(db);
  if (connection?.inTransaction) return uncachedSqliteLookup(connection);
  const lookup = connection ? cachedSqliteLookup(connection) : compiledLookup(db);
  lookups.set(db, lookup);
  return lookup;
}

/** Sets the lookup up before any traffic (on SQLite: its cache triggers, outside any transaction). */
export function prepareShortLinks(db: Db): void {
  lookupOf(db);
}

export function findDynamicCodeBySlug(db: Db, slug: string): Promise<ShortLinkTarget | undefined> {
  return lookupOf(db)(slug);
}
