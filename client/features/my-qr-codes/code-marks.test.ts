import { describe, expect, it } from 'vitest';
import type { DestinationIssue } from '../../../src/qr/destination-check.schema';
import { defaultSmartRedirect, type SmartRedirect } from '../../../src/qr/smart-redirect';
import { codeMarks, destinationIssueText, destinationMark, withDestinationMark } from './code-marks';

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

describe('destination marks', () => {
  const issue = (patch: Partial<DestinationIssue> = {}): DestinationIssue => ({
    codeId: 7,
    codeName: 'Menu',
    url: 'https://example.com/menu',
    label: 'Destination',
    state: 'down',
    problem: 'Opens a 404',
    httpStatus: 404,
    // Two days before `now`.
    since: '2026-11-18T09:00:00.000Z',
    checkedAt: '2026-11-20T09:00:00.000Z',
    usingFallback: false,
    ...patch,
  });

  it('marks a down destination in red with what it does and since when', () => {
    const mark = destinationMark([issue()], now);
    expect(mark).toEqual({
      kind: 'destination',
      label: 'Opens a 404 since 2 days',
      stopped: false,
      alert: true,
    });
  });

  it('says when scans go to the fallback URL meanwhile', () => {
    expect(destinationMark([issue({ usingFallback: true })], now)?.label).toBe(
      'Opens a 404 since 2 days · scans go to the fallback URL',
    );
  });

  it('names the URL when it is not the main destination', () => {
    expect(destinationIssueText(issue({ label: 'Rule 2: Destination' }), now)).toBe(
      'Rule 2: Destination opens a 404 since 2 days',
    );
    expect(
      destinationIssueText(issue({ label: 'Fallback URL', problem: 'Server error 503', since: null }), now),
    ).toBe('Fallback URL: server error 503');
    expect(destinationIssueText(issue({ problem: 'Does not answer in time', since: daysAgo(0) }), now)).toBe(
      'Does not answer in time since today',
    );
    // Several down URLs of one code: one mark naming each.
    expect(destinationMark([issue(), issue({ label: 'Fallback URL', problem: null })], now)?.label).toBe(
      'Opens a 404 since 2 days; Fallback URL fails since 2 days',
    );
  });

  it('gives no mark to a URL that failed once only (not confirmed yet)', () => {
    expect(destinationMark([issue({ state: 'failing' })], now)).toBeNull();
    expect(destinationMark([], now)).toBeNull();
    expect(destinationMark(undefined, now)).toBeNull();
    const marks = codeMarks(dynamic({ paused: true }), now, 'UTC');
    expect(withDestinationMark(marks, [issue({ state: 'failing' })], now)).toBe(marks);
  });

  it('comes first, before the code’s other marks', () => {
    const marks = withDestinationMark(codeMarks(dynamic({ paused: true }), now, 'UTC'), [issue()], now);
    expect(marks.map((m) => m.kind)).toEqual(['destination', 'paused']);
  });
});

function daysAgo(daysBefore: number): string {
  return new Date(now - daysBefore * 86_400_000).toISOString();
}
