import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { checkDesign } from './scan-check.js';
import type { ScanCheckReply, ScanCheckRequest } from './scan-check-thread.js';

/**
 * The scan-safety check's thread (scan-check-thread.ts starts it): one design at a time, each answered
 * with one message. Built to dist/scan-check-worker.mjs beside the server bundle.
 */

if (!parentPort) throw new Error('scan-check.worker.ts runs as a worker thread (see scan-check-thread.ts)');
const port = parentPort;

// A low priority for this thread alone (on Linux a nice value belongs to a thread, named by its id): on a
// busy core the short links get about nine tenths of it and a backlog of checks the rest. Not the lowest
// (19, about 1/70): someone who has just saved a design waits for its verdict too.
try {
  const threadId = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
  os.setPriority(threadId, 10);
} catch {
  // Not Linux: the threads share the cores evenly.
}

// Messages wait in order while one check runs: a chain keeps them one at a time.
let chain = Promise.resolve();
port.on('message', (request: ScanCheckRequest) => {
  chain = chain.then(async () => {
    const { logo } = request;
    const resolveLogo = logo
      ? (url: string) =>
          Promise.resolve(url === logo.url ? { bytes: Buffer.from(logo.bytes), mime: logo.mime } : null)
      : undefined;
    let reply: ScanCheckReply;
    try {
      reply = { id: request.id, check: await checkDesign(request.data, request.customization, resolveLogo) };
    } catch (error) {
      reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
});
