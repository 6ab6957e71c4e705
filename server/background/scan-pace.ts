import type { ScanRecorderObserver } from '../features/scans/scan-recorder.js';

/**
 * Webhook deliveries and analytics forwarding give way to redirects. Turning a second's scans into signed
 * JSON and posting it costs about as much CPU as answering them did; a low thread priority alone does not
 * keep that work off a core that redirects want, because redirects leave the core idle in short gaps
 * (waiting for their scans' commit) that the background work fills. So while scans are being stored
 * faster than BUSY_SCANS_PER_SECOND, the background turns wait — for at most MAX_DEFER_MS, after which one
 * runs anyway and takes everything that waited (in deliveries of many scans each), so a long rush
 * delays deliveries by seconds and never stops them.
 */
export const BUSY_SCANS_PER_SECOND = 200;
export const MAX_DEFER_MS = 10_000;
/** The rate is measured over at least this long (calls in between reuse the last answer). */
const SAMPLE_MS = 250;

/** A count of stored scans, shared between the request thread (which adds) and a background thread. */
export function newScanCounter(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** Counts the scans the app's recorder stores into `counter`; returns how to stop. */
export function countStoredScans(
  scans: { observe(observer: ScanRecorderObserver): () => void },
  counter: Int32Array,
): () => void {
  return scans.observe({ onBatch: (report) => void Atomics.add(counter, 0, report.stored) });
}

/**
 * Whether a background turn should wait now: scans arrive faster than BUSY_SCANS_PER_SECOND and the turns
 * have not been waiting for MAX_DEFER_MS already. One gate may serve several kinds of turn.
 */
export function scanRushGate(counter: Int32Array, now: () => number = () => performance.now()) {
  let lastCount = Atomics.load(counter, 0);
  let lastAt = now();
  let busy = false;
  let waitingSince: number | null = null;
  return (): boolean => {
    const at = now();
    if (at - lastAt >= SAMPLE_MS) {
      const count = Atomics.load(counter, 0);
      // The counter wraps after 2^31 scans: that step reads as no rush, for one sample.
      busy = ((count - lastCount) * 1000) / (at - lastAt) > BUSY_SCANS_PER_SECOND;
      lastCount = count;
      lastAt = at;
    }
    if (!busy) {
      waitingSince = null;
      return false;
    }
    waitingSince ??= at;
    if (at - waitingSince < MAX_DEFER_MS) return true;
    // Waited long enough: this turn runs, and the next ones wait again.
    waitingSince = at;
    return false;
  };
}
