import type SQLite from 'better-sqlite3';
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { DeviceCategory } from '../../../src/analytics/analytics.schema.js';
import type { Database } from '../../db/database.js';
import { categoryOf, timeOf, type ScanToStore } from './rollup-model.js';
import {
  findDictionaryIds,
  insertDictionaryValues,
  prepareDictionaryStatements,
} from './scans.repository.js';

/**
 * How a raw scan is stored lean (migrations/2026-11-25T2000-lean-scans.ts): its time as ms since the
 * epoch, its device category as a small code, and its user agent, referrer and location as ids of
 * dictionary tables that hold each distinct value once. The writers turn a `ScanToStore` into such a
 * row here; the readers (analytics.repository.ts) join the dictionaries back.
 */

/*
 * The columns of migrations/2026-11-28T0900-scan-outcomes.ts, declared beside their writers (merged
 * into server/db/database.ts's tables).
 */
declare module '../../db/database.js' {
  interface QrScanTable {
    /**
     * The redirect rule that served the scan (1 = first), 0 the code's own destination; null for a scan
     * not served (see `refused`) or stored before outcomes were recorded (src/qr/scan-outcome.ts).
     */
    rule: Generated<number | null>;
  }
  interface RefusedScanTable {
    /** Of `scans`, those of people that got the short link's password form. */
    password_forms: ColumnType<number, number | undefined, number>;
  }
}

/** A device category's code in `qr_scans.device`. */
export const deviceCodeOf: Record<DeviceCategory, number> = {
  Unknown: 0,
  Mobile: 1,
  Tablet: 2,
  Desktop: 3,
  Bot: 4,
};
export const BOT_DEVICE_CODE = deviceCodeOf.Bot;
const categoryOfCode = Object.fromEntries(
  Object.entries(deviceCodeOf).map(([name, code]) => [code, name as DeviceCategory]),
) as Record<number, DeviceCategory>;

/** The category a stored device code stands for (an unknown code is Unknown). */
export function deviceOfCode(code: number | null | undefined): DeviceCategory {
  return categoryOfCode[Number(code)] ?? 'Unknown';
}

/** The columns kept in a dictionary, and the table of each. */
export const dictionaryTables = {
  user_agent: 'scan_user_agents',
  referrer: 'scan_referrers',
  location: 'scan_locations',
} as const;
export type DictionaryColumn = keyof typeof dictionaryTables;
const dictionaryColumns = Object.keys(dictionaryTables) as DictionaryColumn[];

/** Value → id, per dictionary column. */
export type DictionaryIds = Record<DictionaryColumn, Map<string, number>>;

const emptyIds = (): DictionaryIds => ({ user_agent: new Map(), referrer: new Map(), location: new Map() });

/**
 * Ids of dictionary values already committed, so a busy server looks each user agent up once, not per
 * scan. Only ids read outside any transaction that could still roll back are remembered.
 */
export class DictionaryCache {
  private readonly ids = emptyIds();
  constructor(private readonly limit = 20_000) {}
  get(column: DictionaryColumn, value: string): number | undefined {
    return this.ids[column].get(value);
  }
  set(column: DictionaryColumn, value: string, id: number): void {
    const map = this.ids[column];
    // Bounded: a flood of made-up user agents must not grow the heap without end.
    if (map.size >= this.limit) map.clear();
    map.set(value, id);
  }
}

/**
 * The ids of a batch's values that the cache holds (copied, so a cache cleared meanwhile loses
 * nothing), and the distinct values it does not.
 */
export function collectDictionaryIds(rows: readonly ScanToStore[], cache?: DictionaryCache) {
  const ids = emptyIds();
  const missing = { user_agent: new Set<string>(), referrer: new Set<string>(), location: new Set<string>() };
  for (const row of rows) {
    if (row.throttled) continue;
    for (const column of dictionaryColumns) {
      const value = row[column];
      if (value === null || value === undefined || ids[column].has(value)) continue;
      const id = cache?.get(column, value);
      if (id === undefined) missing[column].add(value);
      else ids[column].set(value, id);
    }
  }
  return { ids, missing };
}

/**
 * The ids a batch needs: from the cache, or inserted when new and read back. Pass the cache only
 * when `db` is not inside a transaction (an id is remembered only once its row is committed).
 */
export async function resolveDictionaryIds(
  db: Kysely<Database>,
  rows: readonly ScanToStore[],
  cache?: DictionaryCache,
): Promise<DictionaryIds> {
  const { ids, missing } = collectDictionaryIds(rows, cache);
  for (const column of dictionaryColumns) {
    // Sorted: two instances inserting the same new values lock them in the same order.
    const values = [...missing[column]].sort();
    const table = dictionaryTables[column];
    for (let i = 0; i < values.length; i += 500) {
      const chunk = values.slice(i, i + 500);
      await insertDictionaryValues(db, table, chunk);
      const found = await findDictionaryIds(db, table, chunk);
      for (const { id, value } of found) {
        ids[column].set(value, Number(id));
        cache?.set(column, value, Number(id));
      }
    }
  }
  return ids;
}

/** The same on SQLite's connection, synchronously (the recorder's fast path, outside a transaction). */
export function nativeDictionaryResolver(
  connection: SQLite.Database,
  cache: DictionaryCache,
): (rows: readonly ScanToStore[]) => DictionaryIds {
  const statements = Object.fromEntries(
    dictionaryColumns.map((column) => [
      column,
      prepareDictionaryStatements(connection, dictionaryTables[column]),
    ]),
  ) as Record<DictionaryColumn, { insert: SQLite.Statement; find: SQLite.Statement }>;
  return (rows) => {
    const { ids, missing } = collectDictionaryIds(rows, cache);
    for (const column of dictionaryColumns) {
      const { insert, find } = statements[column];
      for (const value of missing[column]) {
        insert.run(value);
        const id = Number(find.get(value));
        ids[column].set(value, id);
        cache.set(column, value, id);
      }
    }
    return ids;
  };
}

/** A dictionary value's id from the batch's ids (null for no value). */
function idOf(column: DictionaryColumn, value: string | null | undefined, ids: DictionaryIds): number | null {
  if (value === null || value === undefined) return null;
  const id = ids[column].get(value);
  if (id === undefined) throw new Error(`No ${column} id resolved for a scan`);
  return id;
}

/** The lean row of a scan, its dictionary ids resolved. */
export function leanRow(row: ScanToStore, ids: DictionaryIds) {
  return {
    qr_code_id: row.qr_code_id,
    at: timeOf(row.timestamp),
    user_agent_id: idOf('user_agent', row.user_agent, ids),
    referrer_id: idOf('referrer', row.referrer, ids),
    location_id: idOf('location', row.location, ids),
    ip_address: row.ip_address ?? null,
    device: deviceCodeOf[categoryOf(row.device)],
    refused: row.refused || null,
    visitor: row.visitor ?? null,
    rule: row.rule ?? null,
  };
}
