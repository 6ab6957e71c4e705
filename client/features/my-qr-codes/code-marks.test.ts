import { describe, expect, it } from 'vitest';
import { defaultSmartRedirect, type SmartRedirect } from '../../../src/qr/smart-redirect';
import { codeMarks } from './code-marks';

const now = Date.parse('2026-11-20T12:00:00Z');
const rule = {
  conditions: [{ kind: 'os' as const, os: ['ios' as const] }],
  destination: 'https://apps.apple.com/app',
};

function dynamic(options: Partial<SmartRedirect> | null, hasPassword = false) {
  return {
    isDynamic: true,
    hasPassword,
    redirectOptions: options === null ? null : { ...defaultSmartRedirect, ...options },
  };
}
const labels = (code: ReturnType<typeof dynamic>) => codeMarks(code, now, 'UTC').map((m) => m.label);

describe('codeMarks', () => {
  it('gives a plain or static code no marks', () => {
    expect(codeMarks(dynamic(null), now)).toEqual([]);
    expect(codeMarks(dynamic({}), now)).toEqual([]);
    expect(codeMarks({ isDynamic: false, hasPassword: false, redirectOptions: null }, now)).toEqual([]);
  });

  it('names the password, the rules and the pause', () => {
    const marks = codeMarks(dynamic({ rules: [rule, rule], paused: true }, true), now, 'UTC');
    expect(marks.map((m) => m.label)).toEqual(['Password protected', '2 redirect rules', 'Paused']);
    expect(marks.find((m) => m.kind === 'rules')?.short).toBe('2');
    expect(marks.map((m) => m.stopped)).toEqual([false, false, true]);
    expect(labels(dynamic({ rules: [rule] }))).toEqual(['1 redirect rule']);
  });

  it('says when a schedule starts and ends', () => {
    expect(labels(dynamic({ activeFrom: '2026-12-01T09:00:00.000Z' }))).toEqual(['Scheduled: starts 1 Dec']);
    expect(
      labels(dynamic({ activeFrom: '2026-12-01T09:00:00.000Z', activeUntil: '2027-01-06T00:00:00.000Z' })),
    ).toEqual(['Scheduled: starts 1 Dec, ends 6 Jan 2027']);
    expect(labels(dynamic({ activeUntil: '2026-12-24T18:00:00.000Z' }))).toEqual(['Scheduled: ends 24 Dec']);
    expect(labels(dynamic({ activeUntil: '2026-11-01T00:00:00.000Z' }))).toEqual(['Schedule ended 1 Nov']);
    // Started and open-ended: nothing left to say.
    expect(labels(dynamic({ activeFrom: '2026-11-01T00:00:00.000Z' }))).toEqual([]);
    const waiting = codeMarks(dynamic({ activeFrom: '2026-12-01T09:00:00.000Z' }), now, 'UTC')[0];
    expect(waiting?.stopped).toBe(true);
  });

  it('names a scan limit', () => {
    expect(labels(dynamic({ maxScans: 1500 }))).toEqual(['Scan limit: 1,500']);
  });
});
