/**
 * Each code's scan-safety verdict, kept on its row (scan_verdict, scan_reason) so the list, the details
 * page and the REST API can say when a code won't scan.
 *
 * - Saving a code (create, edit) checks it before answering, so the answer carries the verdict; a check
 *   that takes longer than INLINE_WAIT_MS finishes in the background and the answer says null (pending).
 * - Codes never checked (saved before this check existed, or created in bulk) are queued when their owner
 *   lists them and checked one at a time in the background.
 * Checks of one code run in order, so an older design's verdict never overwrites a newer one's.
 */
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { imageDataOf } from '../../../src/qr/qr.schema.js';
import type { ScanCheck } from '../../../src/qr/scan-safety.js';
import type { AppDeps } from '../../app-deps.js';
import { uploadResolverFor } from '../uploads/uploads.service.js';
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
    await deps.db
      .updateTable('qr_codes')
      .set({ scan_verdict: check.verdict, scan_reason: check.reasons[0] ?? '' })
      .where('id', '=', code.id)
      .where('user_id', '=', code.userId)
      .execute();
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

const queued = new Set<number>();
/** Background checks run one after another (a bulk import queues hundreds). */
let lane: Promise<unknown> = Promise.resolve();

/** Queues codes without a verdict for a background check (each code once until it is checked). */
export function queueScanChecks(deps: AppDeps, codes: QrCode[]): void {
  for (const code of codes) {
    if (code.scannable !== null || queued.has(code.id)) continue;
    queued.add(code.id);
    const task = lane.then(() =>
      inOrder(code.id, async () => {
        // Yield between codes, so a long queue never holds the event loop for long.
        await new Promise((resolve) => setImmediate(resolve));
        await checkAndStore(deps, code);
      }).finally(() => queued.delete(code.id)),
    );
    lane = task;
    void track(task);
  }
}

/** Resolves when every background check has finished (tests, shutdown). */
export async function scanChecksSettled(): Promise<void> {
  while (background.size > 0) await Promise.allSettled([...background]);
}
