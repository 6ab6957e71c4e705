import { Worker } from 'node:worker_threads';
import type { Customization } from '../../../src/qr/customization.js';
import type { ScanCheck } from '../../../src/qr/scan-safety.js';
import { checkDesign } from './scan-check.js';
import type { ResolveLogo } from './qr-image.js';

/**
 * The scan-safety check (scan-check.ts) on a thread of its own. A check renders the design (styled-qr-code
 * in jsdom), rasterises it three or four times (resvg) and decodes each raster (zxing): 30–40 ms of CPU
 * a code, and jsdom's first load about 0.3 s more. On the request thread every short link waited behind
 * that — after an upgrade or a bulk import the background sweep checks codes one after another. On this
 * thread, at a low priority (scan-check.worker.ts), redirects go first.
 *
 * The logo, when the design names an own upload, is read here (it is in the database) and sent along:
 * the thread never touches the database. One check at a time, in order; a thread idle for IDLE_MS ends
 * (it holds jsdom: tens of MB), and the next check starts another.
 */

export interface ScanCheckRequest {
  id: number;
  data: string;
  customization: Customization;
  logo: { url: string; bytes: Uint8Array; mime: string } | null;
}
export type ScanCheckReply = { id: number; check: ScanCheck } | { id: number; error: string };

/** A thread with nothing to check ends after this long. */
const IDLE_MS = 30_000;
/** A check that has not answered by then is given up, and its thread ended (a render that hangs). */
const CHECK_TIMEOUT_MS = 60_000;

/**
 * The worker's file: beside the server bundle (dist/scan-check-worker.mjs, built with dist/server.mjs by
 * scripts/build/build-if-needed.mjs), or the TypeScript source (tests, the tsx scripts).
 */
const fromSource = import.meta.url.endsWith('.ts');
const workerFile = new URL(
  fromSource ? './scan-check.worker.ts' : './scan-check-worker.mjs',
  import.meta.url,
);
/** tsx's API, named through a variable: package.mjs ships any quoted name after `.resolve(` as a package. */
const TSX_API = 'tsx/esm/api';

function startWorker(): Worker {
  const options = { name: 'scan-check' };
  if (!fromSource) return new Worker(workerFile, options);
  // Node 20 loads a worker's entry file before any --import hook: a bootstrap has tsx load the source.
  const bootstrap =
    `import(${JSON.stringify(import.meta.resolve(TSX_API))})` +
    `.then(({ tsImport }) => tsImport(${JSON.stringify(workerFile.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}

export interface ScanCheckThread {
  check(data: string, customization: Customization, resolveLogo?: ResolveLogo): Promise<ScanCheck>;
  /** Whether a thread is running now (tests). */
  running(): boolean;
  /** Ends the thread; checks waiting are refused. */
  close(): Promise<void>;
}

export function startScanCheckThread(options: { idleMs?: number } = {}): ScanCheckThread {
  const idleMs = options.idleMs ?? IDLE_MS;
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (check: ScanCheck) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();

  /** The thread is gone: its checks fail, the next check starts another. */
  const lost = (w: Worker, error: Error) => {
    if (worker !== w) return;
    worker = null;
    clearTimeout(idleTimer);
    for (const { reject, timer } of pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    pending.clear();
  };

  const stopWhenIdle = () => {
    clearTimeout(idleTimer);
    if (pending.size > 0 || !worker) return;
    const w = worker;
    idleTimer = setTimeout(() => {
      if (worker === w && pending.size === 0) {
        worker = null;
        void w.terminate();
      }
    }, idleMs);
    idleTimer.unref();
  };

  function running(): Worker {
    clearTimeout(idleTimer);
    if (worker) return worker;
    const w = startWorker();
    w.on('message', (reply: ScanCheckReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      clearTimeout(waiting.timer);
      if ('check' in reply) waiting.resolve(reply.check);
      else waiting.reject(new Error(reply.error));
      stopWhenIdle();
    });
    w.on('error', (error) => lost(w, error));
    w.on('exit', (code) => lost(w, new Error(`The scan check's thread stopped (exit code ${code})`)));
    // Not a reason to keep the process alive.
    w.unref();
    worker = w;
    return w;
  }

  return {
    async check(data, customization, resolveLogo) {
      const url = customization.logo?.url?.trim() ?? '';
      const found = resolveLogo && url.startsWith('/api/uploads/') ? await resolveLogo(url) : null;
      const logo = found ? { url, bytes: new Uint8Array(found.bytes), mime: found.mime } : null;
      const w = running();
      const id = nextId++;
      return new Promise<ScanCheck>((resolve, reject) => {
        const timer = setTimeout(() => {
          if (!pending.delete(id)) return;
          reject(new Error('The scan check took too long'));
          // A render that hangs holds the thread: end it, and the checks queued behind it with it.
          if (worker === w) lost(w, new Error('The scan check took too long'));
          void w.terminate();
        }, CHECK_TIMEOUT_MS);
        timer.unref();
        pending.set(id, { resolve, reject, timer });
        w.postMessage({ id, data, customization, logo } satisfies ScanCheckRequest);
      });
    },
    running: () => worker !== null,
    async close() {
      const w = worker;
      if (!w) return;
      lost(w, new Error('The scan check thread was closed'));
      await w.terminate();
    },
  };
}

let shared: ScanCheckThread | null = null;

/**
 * The verdict on a design, as checkDesign gives it: the background sweep's checks (scan-verdicts.ts).
 * The built server checks on the shared thread; run from source (tests, npm run dev), on this thread, as
 * before — scan-check-thread.test.ts runs the thread itself against the same designs.
 */
export function checkDesignOffThread(
  data: string,
  customization: Customization,
  resolveLogo?: ResolveLogo,
): Promise<ScanCheck> {
  if (fromSource) return checkDesign(data, customization, resolveLogo);
  shared ??= startScanCheckThread();
  return shared.check(data, customization, resolveLogo);
}
