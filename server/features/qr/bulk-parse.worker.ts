import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { answerOf, type SheetRequest, type SheetWorkerData } from './bulk-sheet.js';

/**
 * The thread that reads uploaded spreadsheets (bulk-parse.ts starts it): one file at a time, each
 * answered with one message. Built to dist/bulk-parse-worker.mjs beside the server bundle.
 */

if (!parentPort) throw new Error('bulk-parse.worker.ts runs as a worker thread (see bulk-parse.ts)');
const port = parentPort;
const { heapLimitMb, heapExitCode } = workerData as SheetWorkerData;

// The lowest priority for this thread alone (on Linux a nice value belongs to a thread, named by its
// id): two files read at once would otherwise take both cores of a small server from the short links.
try {
  const threadId = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
  os.setPriority(threadId, 19);
} catch {
  // Not Linux: the threads share the cores evenly.
}

// The heap is also watched here while a file is read: npm start's --max-old-space-size=512 holds for
// every isolate of the process and overrides the worker's resourceLimits (measured: workbooks that stop
// at 128 MB without the flag grew a worker to 600 MB with it). The Excel reader yields often enough to
// be watched; a long stretch without a turn of the event loop meets only that process-wide bound.
function watchHeap(): NodeJS.Timeout {
  const limit = heapLimitMb * 1024 * 1024;
  return setInterval(() => {
    if (v8.getHeapStatistics().used_heap_size > limit) process.exit(heapExitCode);
  }, 20);
}

port.on('message', (request: SheetRequest) => {
  const watch = watchHeap();
  void answerOf(request).then((answer) => {
    clearInterval(watch);
    port.postMessage(answer);
  });
});
