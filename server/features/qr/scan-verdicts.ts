/**
 * Each code's scan-safety verdict, kept on its row (scan_verdict, scan_reason) so the list, the details
 * page and the REST API can say when a code won't scan.
 *
 * - Saving a code (create, edit) checks it before answering, so the answer carries the verdict; a check
 *   that takes longer than INLINE_WAIT_MS finishes in the background and the answer says null (pending).
 * - Codes never checked (saved before this check existed, or created in bulk) are checked one at a time
 *   in the background by each app's sweeper (startScanCheckSweeper).
 * Checks of one code run in order, so an older design's verdict never overwrites a newer one's.
 */
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { imageDataOf } from '../../../src/qr/qr.schema.js';
import type { ScanCheck } from '../../../src/qr/scan-safety.js';
import type { AppDeps } from '../../app-deps.js';
import { uploadResolverFor } from '../uploads/uploads.service.js';
import type { FastifyBaseLogger } from 'fastify';
import { toQrCode } from './qr.mapper.js';
import { shortLinksFor } from '../domains/short-domains.registry.js';
import { listUncheckedQrCodes, storeScanVerdict } from './qr.repository.js';
import { checkDesign } from './scan-check.js';

const INLINE_WAIT_MS = 2500;

/** The last check queued per code: the next one for the same code waits for it. */
const chains = new Map<number, Promise<unknown>>();
/** Background checks waiting or running, so closing an app can wait for them (tests). */
const background = new Set<Promise<unknown>>();

function inOrder<T>(id: number, task: () => Promise<T>): Promise<T> {
  const previous = chains.get(id) ?? Promise.resolve();
  const next = previous.then(task, task);
  chains.set(id, next);
  void next.finally(() => {
    if (chains.get(id) === next) chains.delete(id);
  });
  return next;
}

async function checkAndStore(deps: AppDeps, code: QrCode): Promise<ScanCheck | null> {
  try {
    const check = await checkDesign(
      imageDataOf(code),
      code.customization,
      uploadResolverFor(deps, code.userId),
    );
    await storeScanVerdict(deps.db, code.userId, code.id, check.verdict, check.reasons[0] ?? '');
    return check;
  } catch {
    // A render or database failure (the app closing, the code deleted meanwhile) leaves the verdict
    // pending; the next save or listing tries again.
    return null;
  }
}

function track<T>(promise: Promise<T>): Promise<T> {
  background.add(promise);
  void promise.finally(() => background.delete(promise));
  return promise;
}

/** Checks a just-saved code and returns it with its verdict (null if the check is still running). */
export async function withScanVerdict(deps: AppDeps, code: QrCode): Promise<QrCode> {
  const running = track(inOrder(code.id, () => checkAndStore(deps, code)));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), INLINE_WAIT_MS);
  });
  const check = await Promise.race([running, timeout]);
  clearTimeout(timer);
  if (check === 'timeout' || check === null) return { ...code, scannable: null };
  return { ...code, scannable: { verdict: check.verdict, reason: check.reasons[0] ?? '' } };
}

/**
 * Each app's sweeper, by the app's database: `wakeScanChecks` is called with a request's context, a copy
 * of the app's deps (keyed by the deps object, a bulk import's wake missed and its codes waited for the
 * ten-minute turn), which shares the app's `db`.
 */
const sweepers = new WeakMap<AppDeps['db'], () => void>();
const SWEEP_BATCH = 20;
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Checks, in the background and one at a time, every code that has no verdict yet: codes saved before
 * the check existed, bulk-created codes, and saves whose inline check ran out of time. It runs a few
 * seconds after start, whenever `wakeScanChecks` pokes it, and every ten minutes; it yields between codes,
 * so redirects keep flowing, and stops with the app. (A GET never writes: listing codes used to queue
 * them, which made a HEAD of the list write.) A code whose check fails is not retried until a restart.
 */
export function startScanCheckSweeper(
  deps: AppDeps,
  log: Pick<FastifyBaseLogger, 'error'>,
  firstRunMs = 5_000,
): () => void {
  let stopped = false;
  let running = false;
  let again = false;
  const failed = new Set<number>();

  const sweep = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        for (;;) {
          if (stopped) return;
          const rows = await listUncheckedQrCodes(deps.db, SWEEP_BATCH, failed);
          if (rows.length === 0) break;
          for (const row of rows) {
            if (stopped) return;
            // Yield between codes, so a long backlog never holds the event loop for long.
            await new Promise((resolve) => setImmediate(resolve));
            const code = toQrCode(row, await shortLinksFor(deps, [row.domain_id]));
            const check = await track(inOrder(code.id, () => checkAndStore(deps, code)));
            if (check === null) failed.add(code.id);
          }
        }
      } while (again && !stopped);
    } catch (error) {
      if (!stopped) log.error({ err: error }, 'background scan checks failed');
    } finally {
      running = false;
    }
  };

  const first = setTimeout(() => void sweep(), firstRunMs);
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  first.unref();
  timer.unref();
  const wake = () => void sweep();
  sweepers.set(deps.db, wake);
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    if (sweepers.get(deps.db) === wake) sweepers.delete(deps.db);
  };
}

/** New codes without a verdict (a bulk import): the app's sweeper checks them now rather than later. */
export function wakeScanChecks(deps: AppDeps): void {
  sweepers.get(deps.db)?.();
}

/** Resolves when every background check has finished (tests, shutdown). */
export async function scanChecksSettled(): Promise<void> {
  while (background.size > 0) await Promise.allSettled([...background]);
}
