/**
 * Runs `job` once `firstRunMs` after start and then every `everyMs`, never two runs at once (a run
 * still going when the next is due is left to finish, and that turn is skipped). A failed run goes to
 * `onError` and the next turn tries again. The timers do not keep the process alive. Answers the
 * function that stops it.
 */
export function startPeriodic(
  job: () => Promise<unknown>,
  options: { firstRunMs: number; everyMs: number; onError: (error: unknown) => void },
): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await job();
    } catch (error) {
      options.onError(error);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), options.firstRunMs);
  const every = setInterval(() => void run(), options.everyMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
