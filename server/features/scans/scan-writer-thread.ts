import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../worker-thread.js';
import { timeOf, type ScanToStore } from './rollup-model.js';

/**
 * The scans' writes on a thread of their own, for a SQLite database in a file: the request thread
 * answers redirects while the writer commits the previous batch on another core. Each batch is one
 * message and one transaction; its promise resolves once the transaction has committed (a scan is
 * answered only then, as on the request thread), or rejects with the database's error (its `code`
 * kept, so a deleted code's foreign-key refusal is still told apart).
 *
 * Two connections to one file now write: the request thread's (everything else) and this one (scan
 * rows, their rollups and dictionaries). SQLite lets one write at a time; each waits for the other with
 * its busy timeout, a batch for up to `busyTimeoutMs`, since the other side's transactions are short.
 */

export interface ScanWriterData {
  file: string;
  busyTimeoutMs: number;
  /**
   * Another connection checkpoints the WAL (the background thread, every second): this one only past 128 MB
   * of it, so that no batch waits for a checkpoint's copy and sync of the WAL (a redirect's slowest moment).
   */
  checkpointElsewhere: boolean;
}
export type ScanWriterRequest = { kind: 'write'; id: number; rows: PackedScans } | { kind: 'close' };

/**
 * A batch as one flat array, FIELDS values a scan: cloning it to the other thread writes no property
 * names, about half the work of cloning the row objects.
 */
export type PackedScans = (string | number | boolean | null | undefined)[];
const FIELDS = 12;

export function packScans(rows: readonly ScanToStore[]): PackedScans {
  const out: PackedScans = new Array<PackedScans[number]>(rows.length * FIELDS);
  let i = 0;
  for (const r of rows) {
    out[i++] = r.qr_code_id;
    out[i++] = r.owner_id;
    out[i++] = timeOf(r.timestamp);
    out[i++] = r.throttled ?? false;
    out[i++] = r.user_agent;
    out[i++] = r.ip_address;
    out[i++] = r.referrer;
    out[i++] = r.location;
    out[i++] = r.device;
    out[i++] = r.visitor;
    out[i++] = r.refused;
    out[i++] = r.rule;
  }
  return out;
}

export function unpackScans(packed: PackedScans): ScanToStore[] {
  const rows: ScanToStore[] = [];
  for (let i = 0; i < packed.length; i += FIELDS) {
    rows.push({
      qr_code_id: packed[i] as number,
      owner_id: packed[i + 1] as number,
      timestamp: packed[i + 2] as number,
      throttled: packed[i + 3] as boolean,
      user_agent: packed[i + 4] as string | null | undefined,
      ip_address: packed[i + 5] as string | null | undefined,
      referrer: packed[i + 6] as string | null | undefined,
      location: packed[i + 7] as string | null | undefined,
      device: packed[i + 8] as string | null | undefined,
      visitor: packed[i + 9] as number | null | undefined,
      refused: packed[i + 10] as number | null | undefined,
      rule: packed[i + 11] as number | null | undefined,
    });
  }
  return rows;
}
export interface ScanWriterReply {
  id: number;
  error?: { message: string; code?: string };
}

export interface ScanWriterThread {
  write(rows: readonly ScanToStore[]): Promise<void>;
  /** Lets the batches sent finish, then closes the connection and ends the thread. */
  close(): Promise<void>;
}

function startWorker(data: ScanWriterData): Worker {
  return startWorkerThread(
    import.meta.url,
    { source: './scan-writer.worker.ts', bundle: './scan-writer-worker.mjs' },
    { name: 'scan-writer', workerData: data },
  );
}

class DatabaseError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export function startScanWriterThread(
  file: string,
  {
    busyTimeoutMs = 30_000,
    checkpointElsewhere = false,
  }: { busyTimeoutMs?: number; checkpointElsewhere?: boolean } = {},
): ScanWriterThread {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>();

  /** The thread is gone (an uncaught error, or killed): its batches fail, the next write starts anew. */
  const lost = (w: Worker, error: unknown) => {
    if (worker !== w) return;
    worker = null;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  function running(): Worker {
    if (worker) return worker;
    const w = startWorker({ file, busyTimeoutMs, checkpointElsewhere });
    w.on('message', (reply: ScanWriterReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if (reply.error) waiting.reject(new DatabaseError(reply.error.message, reply.error.code));
      else waiting.resolve();
    });
    w.on('error', (error) => lost(w, error));
    w.on('exit', (code) => lost(w, new Error(`The scan writer's thread stopped (exit code ${code})`)));
    // Not a reason to keep the process alive: close() ends it on shutdown.
    w.unref();
    worker = w;
    return w;
  }

  return {
    write(rows) {
      const w = running();
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.postMessage({ kind: 'write', id, rows: packScans(rows) } satisfies ScanWriterRequest);
      });
    },
    async close() {
      const w = worker;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      // Messages are handled in order: every batch sent before is committed first.
      w.postMessage({ kind: 'close' } satisfies ScanWriterRequest);
      await exited;
    },
  };
}
