import { parentPort, workerData } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../app-deps.js';
import { systemClock } from '../clock.js';
import { openSqlite, sqliteConnectionOf, sqliteHandle } from '../db/create-db.js';
import { REFRESH_MS, reloadShortDomains } from '../features/domains/short-domains.registry.js';
import { startForwarding } from '../features/forwarding/forwarding.service.js';
import { withMailQueue } from '../features/mail/mail-queue.service.js';
import { createMailer, withMailLog } from '../features/mail/mailer.js';
import { startWebhooks } from '../features/webhooks/webhooks.service.js';
import { startPeriodic } from '../periodic.js';
import type { BackgroundData, BackgroundReply, BackgroundRequest } from './background-thread.js';
import { scanRushGate } from './scan-pace.js';
import { backgroundPriority, withPriorityCeiling } from './thread-priority.js';

/**
 * The background thread (background-thread.ts starts it): webhook deliveries and analytics forwarding with
 * their own connection to the database file, at a low CPU priority. Built to dist/background-worker.mjs
 * beside the server bundle.
 */

if (!parentPort) throw new Error('background.worker.ts runs as a worker thread (see background-thread.ts)');
const port = parentPort;
const { config, scansStored } = workerData as BackgroundData;

/** The app's log, through the host: an error's message and stack, since an Error does not cross as one. */
function line(level: 'info' | 'warn' | 'error') {
  return (fields: unknown, message?: string) => {
    const plain: Record<string, unknown> = {};
    for (const [key, value] of Object.entries((fields ?? {}) as Record<string, unknown>))
      plain[key] = value instanceof Error ? { message: value.message, stack: value.stack } : value;
    port.postMessage({ kind: 'log', level, fields: plain, message: message ?? '' } satisfies BackgroundReply);
  };
}
const log = { info: line('info'), warn: line('warn'), error: line('error') } as unknown as Pick<
  FastifyBaseLogger,
  'info' | 'warn' | 'error'
>;

// A low CPU priority (nice 10), except while a statement runs or a transaction is open (thread-priority.ts).
const priority = backgroundPriority();
const connection = openSqlite(config.databaseUrl.slice('sqlite:'.length));
const handle = sqliteHandle(priority ? withPriorityCeiling(connection, priority) : connection);
const base = { db: handle.db, config, clock: systemClock };
const deps: AppDeps = {
  ...base,
  // As the app's: written to the mail log, queued for the app's retrier when the first attempt fails.
  mailer: withMailQueue(
    withMailLog(createMailer(config, log), handle.db, config.smtpUrl ? 'smtp' : 'outbox', () =>
      systemClock.now(),
    ),
    { ...base, log: () => log },
  ),
};
// Events name codes by their short links: this connection's registry of short domains, kept fresh as the app's.
await reloadShortDomains(handle.db);
// Deliveries and forwarding wait while the app stores scans in a rush (for seconds at most).
const rush = scanRushGate(scansStored);
const stops = [
  startPeriodic(() => reloadShortDomains(handle.db), {
    firstRunMs: REFRESH_MS,
    everyMs: REFRESH_MS,
    onError: (error) => log.error({ err: error }, 'short domains could not be read'),
  }),
  // The WAL copied back into the database file here, every second, rather than by the scan writer's
  // connection in the middle of a batch (scan-writer-thread.ts): PASSIVE waits for no one and blocks no one.
  startPeriodic(() => Promise.resolve(sqliteConnectionOf(handle.db)?.pragma('wal_checkpoint(PASSIVE)')), {
    firstRunMs: 1_000,
    everyMs: 1_000,
    onError: (error) => log.error({ err: error }, 'the WAL checkpoint failed'),
  }),
  startWebhooks(deps, log, rush),
  ...(config.analyticsForwarding ? [startForwarding(deps, log, rush)] : []),
];

port.on('message', (request: BackgroundRequest) => {
  if (request.kind !== 'close') return;
  for (const stop of stops) stop();
  void handle.close().finally(() => {
    port.postMessage({ kind: 'closed' } satisfies BackgroundReply);
    port.close();
  });
});
