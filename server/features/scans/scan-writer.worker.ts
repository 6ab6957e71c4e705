import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../../db/create-db.js';
import {
  unpackScans,
  type ScanWriterData,
  type ScanWriterReply,
  type ScanWriterRequest,
} from './scan-writer-thread.js';
import { createNativeSqliteWriter } from './scan-sqlite-writer.js';

/**
 * The scan writer's thread (scan-writer-thread.ts starts it): its own connection to the database file,
 * writing each batch it is sent in one transaction and answering once it has committed. Built to
 * dist/scan-writer-worker.mjs beside the server bundle.
 */

if (!parentPort) throw new Error('scan-writer.worker.ts runs as a worker thread (see scan-writer-thread.ts)');
const port = parentPort;
const { file, busyTimeoutMs, checkpointElsewhere } = workerData as ScanWriterData;

const connection = openSqlite(file);
// The request thread may hold the write lock for a while (a bulk import's transaction): a batch waits
// for it rather than failing its scans.
connection.pragma(`busy_timeout = ${busyTimeoutMs}`);
// Only past 128 MB of WAL (the background thread gone or starved for long): a bound, not the usual path.
if (checkpointElsewhere) connection.pragma('wal_autocheckpoint = 32768');
const write = createNativeSqliteWriter(connection);

port.on('message', (request: ScanWriterRequest) => {
  if (request.kind === 'close') {
    connection.close();
    port.close();
    return;
  }
  let reply: ScanWriterReply;
  try {
    write(unpackScans(request.rows));
    reply = { id: request.id };
  } catch (error) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    reply = {
      id: request.id,
      error: { message: String(message ?? error), ...(typeof code === 'string' ? { code } : {}) },
    };
  }
  port.postMessage(reply);
});
