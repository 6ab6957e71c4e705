import type SQLite from 'better-sqlite3';
import { dialectOf, sqliteConnectionOf } from '../../db/create-db.js';
import type { Db } from '../../db/database.js';
import type { ScanToStore } from './rollup-model.js';
import { DictionaryCache, resolveDictionaryIds } from './scan-columns.js';
import { writeScansWithRollups } from './scan-rollups.js';
import { createNativeSqliteWriter } from './scan-sqlite-writer.js';
import { createPgScanWriter } from './scan-writer-pg.js';
import { startScanWriterThread } from './scan-writer-thread.js';

/** One written batch, as an observer (the metrics) learns of it. */
export interface ScanBatchReport {
  /** Scans in the batch. */
  size: number;
  /** Of those, scans committed (the others were refused, each on its own retry). */
  stored: number;
  /** Time spent writing the batch, retries included. */
  seconds: number;
  /** The rows committed (throttled and refused scans among them, by their flags): read, never kept. */
  rows: readonly ScanToStore[];
}

/** Told of every batch after its requests are answered; whatever it does, the recorder goes on. */
export interface ScanRecorderObserver {
  onBatch(report: ScanBatchReport): void;
}

export interface ScanRecorder {
  /** Resolves once the scan is committed (answered scans are never lost). */
  record(row: ScanToStore): Promise<void>;
  /** Commits what is queued and stops accepting (graceful shutdown). */
  close(): Promise<void>;
  /** Scans accepted and not yet answered: queued, or in the batch being written. */
  queueDepth(): number;
  /** Adds an observer of the batches written from now on; returns the function that removes it. */
  observe(observer: ScanRecorderObserver): () => void;
}

/** Scans per transaction at most; a busier moment simply takes several. */
const MAX_BATCH = 500;

/**
 * Group commit: scans that arrive together share one transaction instead of one each. The first scan
 * of a burst schedules a flush for the next turn of the event loop; everything queued by then is
 * written — raw rows and their rollups (scan-rollups.ts) — in one transaction, and every waiting
 * request is answered when that transaction commits. While a flush runs, new scans queue up for the
 * next one, so a busy server commits in large batches and an idle one commits each scan at once.
 *
 * Where the batch is written:
 * - a SQLite database in a file: on the scan writer's own thread (scan-writer-thread.ts), so the
 *   request thread goes on answering redirects while a batch commits, on another core;
 * - SQLite in memory (tests): on this thread, with the same prepared statements
 *   (scan-sqlite-writer.ts). That fast path refuses while Kysely has a transaction open on the same
 *   connection, so a batch never becomes part of someone else's transaction (and its rollback);
 *   the batch then goes through Kysely, after that transaction;
 * - PostgreSQL: the batch as one statement (scan-writer-pg.ts).
 */
function inlineSqliteWriter(connection: SQLite.Database, cache: DictionaryCache) {
  const write = createNativeSqliteWriter(connection, cache);
  return (rows: ScanToStore[]): boolean => {
    if (connection.inTransaction) return false;
    write(rows);
    return true;
  };
}

export interface ScanRecorderOptions {
  /**
   * SQLite in a file: write on a thread of its own (the default) or on the request thread (false).
   * Ignored for SQLite in memory, which no other thread can open, and for PostgreSQL.
   */
  writerThread?: boolean;
  /** The writer's thread leaves checkpoints to the background thread (see ScanWriterData). */
  checkpointElsewhere?: boolean;
}

export function createScanRecorder(db: Db, options: ScanRecorderOptions = {}): ScanRecorder {
  const connection = sqliteConnectionOf(db);
  const dictionary = new DictionaryCache();
  const thread =
    connection && !connection.memory && options.writerThread !== false
      ? startScanWriterThread(connection.name, { checkpointElsewhere: options.checkpointElsewhere ?? false })
      : null;
  const writeNatively = connection && !thread ? inlineSqliteWriter(connection, dictionary) : null;
  const writePg = dialectOf(db) === 'postgres' ? createPgScanWriter(db) : null;
  let queue: { row: ScanToStore; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let flushing: Promise<void> | null = null;
  let scheduled = false;
  let closed = false;
  /** Scans of the batch being written (taken off the queue, not yet answered). */
  let writing = 0;
  const observers = new Set<ScanRecorderObserver>();

  function report(size: number, rows: readonly ScanToStore[], started: number) {
    if (observers.size === 0) return;
    const seconds = (performance.now() - started) / 1000;
    const batch: ScanBatchReport = { size, stored: rows.length, seconds, rows };
    for (const observer of observers) {
      try {
        observer.onBatch(batch);
      } catch {
        // An observer's failure is its own: the scans are written and answered all the same.
      }
    }
  }

  async function write(rows: ScanToStore[]) {
    if (thread) return thread.write(rows);
    if (writeNatively?.(rows)) return;
    // PostgreSQL: the batch as one statement (scan-writer-pg.ts).
    if (writePg) return writePg(rows);
    // On SQLite this runs only while Kysely holds a transaction on the connection: the ids are then
    // resolved inside the batch's transaction and not remembered.
    const ids = connection ? undefined : await resolveDictionaryIds(db, rows, dictionary);
    await db.transaction().execute((trx) => writeScansWithRollups(trx, rows, ids));
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      writing = batch.length;
      const started = performance.now();
      const rows = batch.map((b) => b.row);
      let stored = rows;
      try {
        await write(rows);
        for (const item of batch) item.resolve();
      } catch (error) {
        stored = [];
        if (batch.length === 1) {
          batch[0]!.reject(error);
        } else {
          // One bad row (say, a code deleted a moment ago) must not fail everyone else's scan:
          // retry the batch row by row and reject only the rows that fail again.
          for (const item of batch) {
            try {
              await write([item.row]);
              item.resolve();
              stored.push(item.row);
            } catch (rowError) {
              item.reject(rowError);
            }
          }
        }
      }
      writing = 0;
      report(batch.length, stored, started);
    }
  }

  function schedule() {
    if (scheduled || flushing) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      flushing = flush().finally(() => {
        flushing = null;
        if (queue.length > 0) schedule();
      });
    });
  }

  return {
    record(row) {
      if (closed) return Promise.reject(new Error('The scan recorder is closed'));
      return new Promise<void>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        schedule();
      });
    },
    async close() {
      closed = true;
      // Yield to the event loop so a scheduled flush runs, then wait for the flush in progress.
      while (flushing || scheduled || queue.length > 0) {
        if (flushing) await flushing;
        else await new Promise((resolve) => setImmediate(resolve));
      }
      await thread?.close();
    },
    queueDepth: () => queue.length + writing,
    observe(observer) {
      observers.add(observer);
      return () => {
        observers.delete(observer);
      };
    },
  };
}
