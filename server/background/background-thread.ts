import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { startWorkerThread } from '../worker-thread.js';

/**
 * Webhook deliveries and analytics forwarding (the scan feed's consumers) on a thread of their own, at the
 * low CPU priority (nice 10), for a SQLite database in a file: reading a second's scans back, making their JSON,
 * signing and posting it costs about as much CPU as the redirects that stored them, and on the request
 * thread it took that time from them. On its own thread, reniced, it runs when redirects leave the core
 * idle (waiting for a commit, between bursts) and on another core when there is one; a busy moment
 * delays deliveries by seconds, never a redirect (and while scans rush in, its turns wait: scan-pace.ts). The thread has its own connection to the file, as the
 * scan writer's thread has. PostgreSQL keeps them on the request thread (its pool is the app's).
 */

export interface BackgroundData {
  config: Config;
  /** The app's stored scans, counted as they are written: the thread's turns wait while they rush in. */
  scansStored: Int32Array;
}

/** What the thread tells its host: a line for the app's log. */
export interface BackgroundLogLine {
  kind: 'log';
  level: 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}
export type BackgroundRequest = { kind: 'close' };
export type BackgroundReply = BackgroundLogLine | { kind: 'closed' };

/**
 * Starts the thread; the function it answers stops it: the turn in progress ends (a delivery being sent is
 * finished or sent again later: at least once), the connection closes, and the thread exits.
 */
export function startBackgroundThread(
  config: Config,
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
  /** The app's stored scans, counted (background/scan-pace.ts): the thread's turns wait while they rush in. */
  scansStored: Int32Array,
): () => Promise<void> {
  const data: BackgroundData = { config, scansStored };
  const worker = startWorkerThread(
    import.meta.url,
    { source: './background.worker.ts', bundle: './background-worker.mjs' },
    { name: 'background', workerData: data },
  );
  let closed: (() => void) | null = null;
  worker.on('message', (reply: BackgroundReply) => {
    if (reply.kind === 'closed') closed?.();
    else log[reply.level](reply.fields, reply.message);
  });
  worker.on('error', (error) => log.error({ err: error }, 'the background thread stopped'));
  // Not a reason to keep the process alive: the stop function ends it on shutdown.
  worker.unref();
  return async () => {
    const done = new Promise<void>((resolve) => {
      closed = resolve;
      worker.once('exit', () => resolve());
    });
    worker.postMessage({ kind: 'close' } satisfies BackgroundRequest);
    // A thread that does not finish its turn in 10 s is ended.
    const timer = setTimeout(() => void worker.terminate(), 10_000);
    await done;
    clearTimeout(timer);
    await worker.terminate();
  };
}
