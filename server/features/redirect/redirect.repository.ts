import type SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import {
  compileRedirect,
  needsScanCount,
  readSmartRedirect,
  type RedirectDecider,
  type SmartRedirect,
} from '../../../src/qr/smart-redirect.js';
import { postgresPoolOf, sqliteConnectionOf } from '../../db/create-db.js';
import type { Db } from '../../db/database.js';
import { servedScanCounts } from '../scans/scan-counts.js';
import { servedScansSql } from '../scans/scans.repository.js';

/** A dynamic code's row as its short link reads it. */
export interface ShortLinkRow {
  id: number;
  user_id: number;
  name: string;
  type: string;
  content: string;
  slug: string | null;
  redirect_options: string | null;
  password_hash: string | null;
  /** The short domain of its link (null: the app's own address); the code answers there too. */
  domain_id: number | null;
  /** PostgreSQL only: the code's served scans, read by the same statement when its options need them. */
  served_scans?: number | string | null;
}

/** What the short link needs of a code: its row, its options parsed, and (when they need it) its scan count. */
export interface ShortLinkTarget extends ShortLinkRow {
  /** The smart-redirect options (src/qr/smart-redirect.ts), parsed once; null: nothing on. */
  options: SmartRedirect | null;
  /** `decideRedirect` for these options, prepared once (null: no options). */
  decide: RedirectDecider | null;
  /** Served scans of the code before this one (scan-counts.ts); 0 when the options do not need them. */
  servedScans(): number;
}

type Lookup = (slug: string) => Promise<ShortLinkTarget | undefined>;
const lookups = new WeakMap<Db, Lookup>();

const COLUMNS = [
  'id',
  'user_id',
  'name',
  'type',
  'content',
  'slug',
  'redirect_options',
  'password_hash',
  'domain_id',
] as const;
const SLUG_QUERY = `select ${COLUMNS.join(', ')} from qr_codes where slug = ? and is_dynamic = 1`;
const QUALIFIED = COLUMNS.map((c) => `qr_codes.${c}`).join(', ');

/**
 * A slug that is no code's exact slug (issue 35): a back-half asked for in other case (`/r/Menu` for a
 * chosen one, kept in lower case; `/r/promo4` for an imported `Promo4`, kept as its source had it: both
 * through the index on lower(slug)), or a slug a code had before and still answers at (an alias: as
 * given, or in lower case). Read only when the exact slug finds nothing, so a scan of a code's own slug
 * costs no more; the found row carries the code's current slug.
 */
const OTHER_SLUG_QUERY = (param: string, extra = '', isDynamic = '1') =>
  `select ${QUALIFIED}${extra} from qr_codes
     where lower(qr_codes.slug) = lower(${param}) and qr_codes.is_dynamic = ${isDynamic}
   union all
   select ${QUALIFIED}${extra} from qr_slug_aliases join qr_codes on qr_codes.id = qr_slug_aliases.qr_code_id
     where qr_slug_aliases.slug in (${param}, lower(${param})) and qr_codes.is_dynamic = ${isDynamic}
   limit 1`;
const CACHE_MAX = 10_000;
let sqliteCaches = 0;

/** Options parsed (and checked) once per distinct stored text, not per scan. */
const OPTIONS_MAX = 1000;
interface ParsedOptions {
  options: SmartRedirect | null;
  decide: RedirectDecider | null;
  counted: boolean;
}
const NO_OPTIONS: ParsedOptions = { options: null, decide: null, counted: false };
const parsedOptions = new Map<string, ParsedOptions>();

function optionsOf(stored: string | null): ParsedOptions {
  if (!stored) return NO_OPTIONS;
  let parsed = parsedOptions.get(stored);
  if (parsed === undefined) {
    const options = readSmartRedirect(stored);
    parsed = options
      ? { options, decide: compileRedirect(options), counted: needsScanCount(options) }
      : NO_OPTIONS;
    if (parsedOptions.size >= OPTIONS_MAX) parsedOptions.clear();
    parsedOptions.set(stored, parsed);
  }
  return parsed;
}

/** SQLite: the code a slug names, by its exact slug first, then by another of its slugs (OTHER_SLUG_QUERY). */
function sqliteRowOf(connection: SQLite.Database): (slug: string) => ShortLinkRow | undefined {
  const exact = connection.prepare<[string], ShortLinkRow>(SLUG_QUERY);
  const other = connection.prepare<[{ slug: string }], ShortLinkRow>(OTHER_SLUG_QUERY('@slug'));
  return (slug) => exact.get(slug) ?? other.get({ slug });
}

/**
 * SQLite: the process owns the database file, so a found code is kept in memory and the whole cache
 * is dropped by temporary triggers whenever any row of qr_codes is inserted, updated or deleted
 * (through any path: the API, a folder or user deletion's cascade, the admin area). An edit
 * therefore still applies to the very next scan. Nothing read inside an open transaction is kept:
 * it may yet be rolled back. Even a prepared native read costs ~5 µs per scan (WAL read lock), a
 * sixth of a redirect's server time, which the cache removes.
 *
 * The cached entry carries the code's smart-redirect options, parsed, and — for options with a scan
 * limit or an "after N scans" rule — reaches the code's served-scan count kept in memory beside it
 * (scan-counts.ts: read once from the rollups, then counted up by the scan service), so deciding a scan
 * reads nothing. A deleted code's count is forgotten by the delete trigger.
 *
 * The triggers must be created outside any transaction (a rollback would drop them with it):
 * `prepareShortLinks` runs at start-up, and a lookup that finds a transaction open before the
 * triggers exist reads without the cache and leaves the set-up for later. The cache only sees writes
 * made through this connection — the app's one connection to its file (operations: one process).
 */
function cachedSqliteLookup(connection: SQLite.Database): Lookup {
  const rowOf = sqliteRowOf(connection);
  const counts = servedScanCounts(connection);
  const cache = new Map<string, ShortLinkTarget>();
  const changed = `qr_codes_changed_${++sqliteCaches}`;
  connection.function(changed, { deterministic: false }, () => {
    cache.clear();
    return null;
  });
  connection.function(`${changed}_deleted`, { deterministic: false }, (id: unknown) => {
    counts.forget(Number(id));
    return null;
  });
  for (const event of ['insert', 'update', 'delete']) {
    const forget = event === 'delete' ? ` select ${changed}_deleted(old.id);` : '';
    connection.exec(
      `create temp trigger if not exists ${changed}_${event} after ${event} on main.qr_codes begin select ${changed}();${forget} end`,
    );
    // An old slug given up or taken back changes what a cached slug names too.
    connection.exec(
      `create temp trigger if not exists ${changed}_alias_${event} after ${event} on main.qr_slug_aliases begin select ${changed}(); end`,
    );
  }
  const targetOf = (row: ShortLinkRow): ShortLinkTarget => {
    const { options, decide, counted } = optionsOf(row.redirect_options);
    return { ...row, options, decide, servedScans: counted ? () => counts.get(row.id) : () => 0 };
  };
  return (slug) => {
    const hit = cache.get(slug);
    if (hit) return Promise.resolve(hit);
    const row = rowOf(slug);
    if (!row) return Promise.resolve(undefined);
    const target = targetOf(row);
    if (!connection.inTransaction) {
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
      cache.set(slug, target);
    }
    return Promise.resolve(target);
  };
}

function uncachedSqliteLookup(connection: SQLite.Database): Lookup {
  const rowOf = sqliteRowOf(connection);
  const counts = servedScanCounts(connection);
  return (slug) => {
    const row = rowOf(slug);
    if (!row) return Promise.resolve(undefined);
    const { options, decide, counted } = optionsOf(row.redirect_options);
    return Promise.resolve({
      ...row,
      options,
      decide,
      servedScans: counted ? () => counts.get(row.id) : () => 0,
    });
  };
}

/**
 * PostgreSQL: whether the stored options need the scan count, judged on their JSON text (written by
 * `JSON.stringify` of the checked options, so `"maxScans":null` and `"kind":"scans"` appear exactly so,
 * and never inside a string value, where every `"` is escaped). Only then is the count summed.
 */
const NEEDS_COUNT = `redirect_options is not null and (redirect_options not like '%"maxScans":null%' or redirect_options like '%"kind":"scans"%')`;

/** PostgreSQL: the lookup of a set of slugs, with each found code's served scans when needed. */
const PG_SERVED_SCANS = `case when ${NEEDS_COUNT} then ${servedScansSql('qr_codes.id')} end as served_scans`;
const PG_SLUGS_QUERY = `select ${COLUMNS.join(', ')}, ${PG_SERVED_SCANS}
  from qr_codes where slug = any($1::text[]) and is_dynamic = true`;
/** A slug no code has exactly: another of a code's slugs (OTHER_SLUG_QUERY), with the same served scans. */
const PG_OTHER_SLUG_QUERY = OTHER_SLUG_QUERY('$1::text', `, ${PG_SERVED_SCANS}`, 'true');

interface Waiter {
  resolve: (target: ShortLinkTarget | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * The public short link's only lookup, run on every scan, so it is prepared once per database: on
 * SQLite as a native statement behind an invalidated cache (above); on PostgreSQL — where other
 * instances may edit a code — as one indexed read, never cached. On PostgreSQL the same statement also
 * sums the code's served scans when its options need them (a correlated subquery on two tables keyed by
 * code first: scan-counts.ts), so a rule or a limit adds no round trip.
 *
 * PostgreSQL, gathered: one lookup query at a time (`slug = any($1)`, a named statement prepared once
 * per connection) reads the slugs of every scan that arrived since the previous one was sent, so a busy
 * server reads the codes of many scans in one round trip instead of one each (under `bench:redirect`:
 * about ten scans a query, and PostgreSQL's CPU per scan from about 150 µs to 35 µs with the one-statement
 * scan writer: docs/scaling.md). A lookup never joins a query already sent — it waits for the next
 * one — so every read starts after its scan arrived and sees every edit committed before it, by any
 * instance: an edit applies to the very next scan, as it did with a query per scan. An idle server
 * sends a lone scan's query at the next turn of the event loop.
 */
function gatheredLookup(db: Db): Lookup {
  const pool = postgresPoolOf(db);
  const query = async (name: string, text: string, value: unknown): Promise<ShortLinkRow[]> =>
    pool
      ? (await pool.query<ShortLinkRow>({ name, text, values: [value] })).rows
      : ((await db.executeQuery(CompiledQuery.raw(text, [value]))).rows as ShortLinkRow[]);
  /** The codes of `slugs`: by exact slug in one query; a slug not found so, by its other slugs (rare). */
  const read = async (slugs: string[]): Promise<Map<string, ShortLinkRow>> => {
    const found = new Map(
      (await query('qr_short_links', PG_SLUGS_QUERY, slugs)).map((row) => [row.slug as string, row]),
    );
    const missed = slugs.filter((slug) => !found.has(slug));
    const others = await Promise.all(
      missed.map(async (slug) => (await query('qr_short_links_other', PG_OTHER_SLUG_QUERY, slug))[0]),
    );
    missed.forEach((slug, i) => {
      const row = others[i];
      if (row) found.set(slug, row);
    });
    return found;
  };
  const targetOf = (row: ShortLinkRow): ShortLinkTarget => {
    const served = Number(row.served_scans ?? 0);
    const { options, decide } = optionsOf(row.redirect_options);
    return { ...row, options, decide, servedScans: () => served };
  };
  /** Scans waiting for the next query, by slug. */
  let waiting = new Map<string, Waiter[]>();
  let scheduled = false;
  let reading = false;
  function send() {
    scheduled = false;
    if (reading || waiting.size === 0) return;
    const batch = waiting;
    waiting = new Map();
    reading = true;
    read([...batch.keys()])
      .then(
        (found) => {
          for (const [slug, waiters] of batch) {
            const row = found.get(slug);
            for (const waiter of waiters) waiter.resolve(row ? targetOf(row) : undefined);
          }
        },
        (error: unknown) => {
          for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
        },
      )
      .finally(() => {
        reading = false;
        schedule();
      });
  }
  function schedule() {
    if (scheduled || reading || waiting.size === 0) return;
    scheduled = true;
    setImmediate(send);
  }
  return (slug) =>
    new Promise((resolve, reject) => {
      const waiters = waiting.get(slug);
      if (waiters) waiters.push({ resolve, reject });
      else waiting.set(slug, [{ resolve, reject }]);
      schedule();
    });
}

function lookupOf(db: Db): Lookup {
  const known = lookups.get(db);
  if (known) return known;
  const connection = sqliteConnectionOf(db);
  if (connection?.inTransaction) return uncachedSqliteLookup(connection);
  const lookup = connection ? cachedSqliteLookup(connection) : gatheredLookup(db);
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

/** Stores a server secret unless one of that name exists (password-gate.ts). */
export function insertServerSecretIfAbsent(db: Db, name: string, value: string) {
  return db
    .insertInto('server_secrets')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export function findServerSecret(db: Db, name: string) {
  return db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
}
