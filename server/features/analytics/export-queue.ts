/**
 * Exports that load a large library (PDF, Excel) run one at a time: each holds tens of MiB while it
 * is written, so two at once would add up. A second one waits for the first to finish (the page shows
 * its progress meanwhile), but no longer than `maxWaitMs`: a download read slowly must not hold the
 * others back indefinitely. Only the library of the export under way is kept: the others are let go
 * when its turn starts, and all of them once none has run for `idleMs`.
 */
export class ExportQueue<Kind extends string> {
  private last: Promise<void> = Promise.resolve();
  private pending = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      maxWaitMs: number;
      idleMs: number;
      /** Lets each kind's library go (loaded again by its next export). */
      release: Record<Kind, () => void>;
    },
  ) {}

  /** Waits for this export's turn; the function it resolves to ends the turn (once; later calls do nothing). */
  async turn(kind: Kind): Promise<() => void> {
    clearTimeout(this.idleTimer);
    this.pending += 1;
    const previous = this.last;
    let finish!: () => void;
    this.last = new Promise<void>((resolve) => (finish = resolve));
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([
      previous,
      new Promise<void>((resolve) => {
        waited = setTimeout(resolve, this.options.maxWaitMs);
      }),
    ]);
    clearTimeout(waited);
    this.releaseAll(kind);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      finish();
      this.pending -= 1;
      if (this.pending === 0) {
        this.idleTimer = setTimeout(() => this.releaseAll(), this.options.idleMs);
        this.idleTimer.unref();
      }
    };
  }

  private releaseAll(except?: Kind) {
    for (const [kind, release] of Object.entries<() => void>(this.options.release)) {
      if (kind !== except) release();
    }
  }
}
