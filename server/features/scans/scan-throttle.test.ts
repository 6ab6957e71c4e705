import { describe, expect, it } from 'vitest';
import { createScanThrottle } from './scan-throttle.js';

describe('createScanThrottle', () => {
  const at = 1_800_000_000_000;

  it('counts one client (code, address, user agent) apart from every other', () => {
    const throttle = createScanThrottle(2);
    const excess = (code: number, address: string, ua: string | null) =>
      throttle.isExcess(code, address, ua, at);
    expect([excess(1, '203.0.113.7', 'A'), excess(1, '203.0.113.7', 'A')]).toEqual([false, false]);
    expect(excess(1, '203.0.113.7', 'A')).toBe(true);
    // Another user agent, address or code is another client.
    expect(excess(1, '203.0.113.7', 'B')).toBe(false);
    expect(excess(1, '203.0.113.8', 'A')).toBe(false);
    expect(excess(2, '203.0.113.7', 'A')).toBe(false);
    // No user agent is a client of its own, not one with an empty or numbered one.
    expect([excess(1, '203.0.113.7', null), excess(1, '203.0.113.7', null)]).toEqual([false, false]);
    expect(excess(1, '203.0.113.7', null)).toBe(true);
    expect(excess(1, '203.0.113.7', '0')).toBe(false);
  });

  it('starts a client afresh a minute after its first scan', () => {
    const throttle = createScanThrottle(1);
    expect(throttle.isExcess(1, '203.0.113.7', 'A', at)).toBe(false);
    expect(throttle.isExcess(1, '203.0.113.7', 'A', at + 59_999)).toBe(true);
    expect(throttle.isExcess(1, '203.0.113.7', 'A', at + 60_000)).toBe(false);
  });

  it('tells clients apart by user agent past the numbered ones too', () => {
    const throttle = createScanThrottle(1);
    for (let i = 0; i < 2_500; i++) expect(throttle.isExcess(1, '203.0.113.7', `agent ${i}`, at)).toBe(false);
    expect(throttle.isExcess(1, '203.0.113.7', 'agent 2499', at)).toBe(true);
    expect(throttle.isExcess(1, '203.0.113.7', 'agent 2500', at)).toBe(false);
    expect(throttle.isExcess(1, '203.0.113.7', 'agent 2', at)).toBe(true);
  });

  it('is off at 0', () => {
    const throttle = createScanThrottle(0);
    for (let i = 0; i < 10; i++) expect(throttle.isExcess(1, '203.0.113.7', 'A', at)).toBe(false);
  });
});
