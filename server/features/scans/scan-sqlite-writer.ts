import type SQLite from 'better-sqlite3';
import type { ScanToStore } from './rollup-model.js';
import { DictionaryCache, nativeDictionaryResolver } from './scan-columns.js';
import { nativeScanWriter } from './scan-rollups.js';

/**
 * SQLite's batch writer: prepared statements run inside one synchronous transaction — no SQL text that
 * changes with the batch size, no await between statements. New user agents, referrers and locations
 * are committed first (each an insert of its own), so the ids remembered never belong to a batch that
 * rolls back. Runs on the request thread (scan-recorder.ts) or on the scan writer's own thread
 * (scan-writer.worker.ts), each with its own connection and dictionary cache.
 */
export function createNativeSqliteWriter(
  connection: SQLite.Database,
  cache: DictionaryCache = new DictionaryCache(),
): (rows: readonly ScanToStore[]) => void {
  const resolve = nativeDictionaryResolver(connection, cache);
  const writeAll = connection.transaction(nativeScanWriter(connection));
  return (rows) => {
    writeAll(rows, resolve(rows));
  };
}
