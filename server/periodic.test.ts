import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPeriodic } from './periodic.js';

describe('startPeriodic', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs first after firstRunMs, then every everyMs, never twice at once, until stopped', async () => {
    vi.useFakeTimers();
    let runs = 0;
    let release: () => void = () => undefined;
    const job = () => {
      runs += 1;
      return new Promise<void>((resolve) => (release = resolve));
    };
    const stop = startPeriodic(job, { firstRunMs: 1_000, everyMs: 5_000, onError: () => undefined });
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    // Still running when the next turn is due: that turn is skipped.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(2);
    release();
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
  });

  it('hands a failure to onError and tries again next turn', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let runs = 0;
    const stop = startPeriodic(
      () => {
        runs += 1;
        return Promise.reject(new Error(`run ${runs}`));
      },
      { firstRunMs: 0, everyMs: 100, onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(100);
    stop();
    expect(runs).toBe(2);
    expect(errors.map((e) => (e as Error).message)).toEqual(['run 1', 'run 2']);
  });
});
