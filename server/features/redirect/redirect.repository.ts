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

const CACHE_MAX = 10_000;
let sqliteCaches = 0;

/**
 * SQLite: the process owns the database file, so a found code is kept in memory and the whole cache
 * is dropped by temporary triggers whenever any row of qr_codes is inserted, updated or deleted
 * (through any path: the API, a folder or user deletion's cascade, the admin area). An edit
 * therefore still applies to the very next scan. Nothing read inside an open transaction is kept:
 * it may yet be rolled back. Even a prepared native read costs ~5 µs per scan (WAL read lock), a
 * sixth of a redirect's server time, which the cache removes.
 */
function cachedSqliteLookup(connection: SQLite.Database): Lookup {
  const statement = connection.prepare<[string], ShortLinkTarget>(
    'select id, user_id, name, type, content, slug from qr_codes where slug = ? and is_dynamic = 1',
  );
  const cache = new Map<string, ShortLinkTarget>();
  const changed = `qr_codes_changed_${++sqliteCaches}`;
  connection.function(changed, { deterministic: false }, () => {
    cache.clear();
    return null;
  });
  for (const event of ['insert', 'update', 'delete']) {
    connection.exec(
      `create temp trigger ${changed}_${event} after ${event} on main.qr_codes begin select ${changed}(); end`,
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

/**
 * The public short link's only lookup, run on every scan, so it is prepared once per database: on
 * SQLite as a native statement behind an invalidated cache (above), on PostgreSQL — where other
 * instances may edit a code — as one indexed read, compiled once, never cached.
 */
function lookupFor(db: Db): Lookup {
  const connection = sqliteConnectionOf(db);
  if (connection) return cachedSqliteLookup(connection);
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

export function findDynamicCodeBySlug(db: Db, slug: string): Promise<ShortLinkTarget | undefined> {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = lookupFor(db);
    lookups.set(db, lookup);
  }
  return lookup(slug);
}
