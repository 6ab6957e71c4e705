import type { Db, NewQrScanRow } from '../../db/database.js';

export interface ScanRecorder {
  /** Resolves once the scan is committed (answered scans are never lost). */
  record(row: NewQrScanRow): Promise<void>;
  /** Commits what is queued and stops accepting (graceful shutdown). */
  close(): Promise<void>;
}

/** Rows per INSERT: 8 columns × 500 stays far below SQLite's and PostgreSQL's parameter limits. */
const MAX_BATCH = 500;

/**
 * Group commit: scans that arrive together share one transaction instead of one each. The first scan
 * of a burst schedules a flush for the next turn of the event loop; everything queued by then goes
 * in one multi-row INSERT, and every waiting request is answered when that transaction commits.
 * While a flush runs, new scans queue up for the next one, so a busy server commits in large batches
 * and an idle one commits each scan at once.
 */
export function createScanRecorder(db: Db): ScanRecorder {
  let queue: { row: NewQrScanRow; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let flushing: Promise<void> | null = null;
  let scheduled = false;
  let closed = false;

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      try {
        await db.transaction().execute((trx) =>
          trx
            .insertInto('qr_scans')
            .values(batch.map((b) => b.row))
            .execute(),
        );
        for (const item of batch) item.resolve();
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
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
    },
  };
}
