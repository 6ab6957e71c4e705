import { describe, expect, it } from 'vitest';
import { BUSY_SCANS_PER_SECOND, MAX_DEFER_MS, newScanCounter, scanRushGate } from './scan-pace.js';

describe('the scan rush gate', () => {
  it('lets turns run while scans trickle in, holds them in a rush for at most MAX_DEFER_MS, then again', () => {
    const counter = newScanCounter();
    let now = 0;
    const wait = scanRushGate(counter, () => now);
    const scansPerSecond = (rate: number, ms: number) => {
      Atomics.add(counter, 0, Math.round((rate * ms) / 1000));
      now += ms;
    };
    // A quiet server: every turn runs.
    scansPerSecond(BUSY_SCANS_PER_SECOND / 2, 1000);
    expect(wait()).toBe(false);
    // A rush: turns wait...
    scansPerSecond(BUSY_SCANS_PER_SECOND * 50, 1000);
    expect(wait()).toBe(true);
    scansPerSecond(BUSY_SCANS_PER_SECOND * 50, MAX_DEFER_MS - 1000);
    expect(wait()).toBe(true);
    // ...until they have waited MAX_DEFER_MS: one runs, and the next ones wait again.
    scansPerSecond(BUSY_SCANS_PER_SECOND * 50, 1000);
    expect(wait()).toBe(false);
    scansPerSecond(BUSY_SCANS_PER_SECOND * 50, 1000);
    expect(wait()).toBe(true);
    // The rush over: at once.
    scansPerSecond(0, 1000);
    expect(wait()).toBe(false);
  });

  it('answers calls closer than its sample the same, so several kinds of turn can share it', () => {
    const counter = newScanCounter();
    let now = 0;
    const wait = scanRushGate(counter, () => now);
    Atomics.add(counter, 0, 10_000);
    now += 1000;
    expect(wait()).toBe(true);
    // 10 ms later no scan came: too short a time to say the rush is over.
    now += 10;
    expect(wait()).toBe(true);
  });
});
