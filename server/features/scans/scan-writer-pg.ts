import type { Db } from '../../db/database.js';
import { refusedOf } from './refused-scans.js';
import {
  categoryOf,
  DAY_MS,
  hasVisitor,
  QUARTER_MS,
  rollupsOf,
  timeOf,
  type ScanToStore,
} from './rollup-model.js';
import {
  collectDictionaryIds,
  DictionaryCache,
  deviceCodeOf,
  type DictionaryColumn,
  type DictionaryIds,
} from './scan-columns.js';
import { inKeyOrder } from './scan-rollups.js';
import { runPgScanBatch, type PgScanBatch } from './scans.repository.js';

/**
 * # The PostgreSQL scan writer: a batch in one statement
 *
 * The recorder's batches on PostgreSQL (scan-recorder.ts). The Kysely writer (`writeScansWithRollups`
 * in scan-rollups.ts) takes a dozen round trips a batch — dictionaries, visitors, raw scans, each
 * rollup table — plus BEGIN and COMMIT, and holds the rollup rows it has locked for all of them: two
 * instances then queue up behind each other on a popular code's rows. Here the batch is summed in
 * JavaScript as there (the same `rollupsOf`, key order and refused counts), handed to ONE statement
 * (pgScanBatchQuery, scans.repository.ts) as arrays and JSON, and run on its own: one round trip,
 * prepared once per connection, its locks held only while it runs and commits. It writes exactly the
 * rows the Kysely writer does (scan-writer-pg.test.ts compares them table by table).
 *
 * What the Kysely writer decides between its statements is decided inside this one: which dictionary
 * values are new (their ids come back and are remembered, the statement being committed when it
 * answers), and which scans are a visitor's first sighting (the rows `scan_code_day_visitors` really
 * took, added to the unique scanners of their quarter hour and day).
 */

const dictionaryColumns: DictionaryColumn[] = ['user_agent', 'referrer', 'location'];

/** A raw scan as the statement reads it: each dictionary column a known id, or else its value. */
interface ScanParam {
  qr_code_id: number;
  at: number;
  user_agent_id: number | null;
  user_agent: string | null;
  referrer_id: number | null;
  referrer: string | null;
  location_id: number | null;
  location: string | null;
  ip_address: string | null;
  device: number;
  refused: number | null;
  visitor: number | null;
  rule: number | null;
}

/** A visitor's first scan of a code and UTC day in the batch: maybe a first sighting. */
interface Candidate {
  qr_code_id: number;
  day: number;
  visitor: number;
  user_id: number;
  bucket: number;
}

function scanParam(row: ScanToStore, ids: DictionaryIds): ScanParam {
  const param: ScanParam = {
    qr_code_id: row.qr_code_id,
    at: timeOf(row.timestamp),
    user_agent_id: null,
    user_agent: null,
    referrer_id: null,
    referrer: null,
    location_id: null,
    location: null,
    ip_address: row.ip_address ?? null,
    device: deviceCodeOf[categoryOf(row.device)],
    refused: row.refused || null,
    visitor: row.visitor ?? null,
    rule: row.rule ?? null,
  };
  for (const column of dictionaryColumns) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    const id = ids[column].get(value);
    // Not in the cache: the statement inserts the value (or finds it) and uses its id.
    if (id === undefined) param[column] = value;
    else param[`${column}_id`] = id;
  }
  return param;
}

/**
 * The first scan of each visitor of a code and UTC day in the batch (the batch is in time order), in
 * key order: as `insertFirstSightings` (unique-scanners.ts) picks them.
 */
function candidatesOf(rows: readonly ScanToStore[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const row of rows) {
    if (!hasVisitor(row)) continue;
    const ms = timeOf(row.timestamp);
    const day = Math.floor(ms / DAY_MS);
    const key = `${row.qr_code_id}:${day}:${row.visitor}`;
    if (seen.has(key)) continue;
    seen.set(key, {
      qr_code_id: row.qr_code_id,
      day,
      visitor: row.visitor,
      user_id: row.owner_id,
      bucket: Math.floor(ms / QUARTER_MS),
    });
  }
  return [...seen.values()].sort(
    (a, b) => a.qr_code_id - b.qr_code_id || a.day - b.day || a.visitor - b.visitor,
  );
}

/** A batch as the statement takes it (PgScanBatch, scans.repository.ts). */
export function pgScanBatchOf(rows: readonly ScanToStore[], cache?: DictionaryCache): PgScanBatch {
  const { ids, missing } = collectDictionaryIds(rows, cache);
  const owners = new Set<number>();
  const codes = new Set<number>();
  const scans: ScanParam[] = [];
  for (const row of rows) {
    owners.add(row.owner_id);
    codes.add(row.qr_code_id);
    if (!row.throttled) scans.push(scanParam(row, ids));
  }
  // Unique scanners without this batch's first sightings (0, or null when unknown): the statement adds those.
  const r = rollupsOf(rows);
  const refused = refusedOf(rows);
  const numerically = (a: number, b: number) => a - b;
  const anyNew = dictionaryColumns.some((column) => missing[column].size > 0);
  return {
    owners: [...owners].sort(numerically),
    codes: [...codes].sort(numerically),
    // Sorted as resolveDictionaryIds sorts them: every writer inserts new values in one order.
    newValues: anyNew
      ? {
          user_agent: [...missing.user_agent].sort(),
          referrer: [...missing.referrer].sort(),
          location: [...missing.location].sort(),
        }
      : null,
    candidates: JSON.stringify(candidatesOf(rows)),
    scans: JSON.stringify(scans),
    userQuarters: JSON.stringify(inKeyOrder(r.userQuarters.values(), ['user_id', 'bucket'])),
    codeQuarters: JSON.stringify(inKeyOrder(r.codeQuarters.values(), ['qr_code_id', 'bucket'])),
    codeDays: JSON.stringify(inKeyOrder(r.codeDays.values(), ['qr_code_id', 'day'])),
    codeDayLocations: JSON.stringify(
      inKeyOrder(r.codeDayLocations.values(), ['qr_code_id', 'day', 'location']),
    ),
    userDayLocations: JSON.stringify(inKeyOrder(r.userDayLocations.values(), ['user_id', 'day', 'location'])),
    codePlaces: JSON.stringify(inKeyOrder(r.codePlaces.values(), ['qr_code_id', 'place'])),
    throttled:
      r.codeThrottled.size > 0
        ? JSON.stringify(inKeyOrder(r.codeThrottled.values(), ['qr_code_id', 'day']))
        : null,
    refused: refused.length > 0 ? JSON.stringify(refused) : null,
  };
}

/**
 * A writer of batches for the recorder on PostgreSQL: each batch one statement, committed on its own
 * (call it outside any transaction). Dictionary ids are remembered once committed.
 */
export function createPgScanWriter(db: Db): (rows: readonly ScanToStore[]) => Promise<void> {
  const cache = new DictionaryCache();
  return async (rows) => {
    if (rows.length === 0) return;
    const created = await runPgScanBatch(db, pgScanBatchOf(rows, cache));
    for (const { kind, id, value } of created) cache.set(kind, value, Number(id));
  };
}
