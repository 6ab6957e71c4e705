import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatPercent,
  hourLabel,
  localIsoDate,
  relativeTime,
  shortDateLabel,
  weekdayLabel,
} from './format';

describe('weekdayLabel', () => {
  it.each([
    ['2026-06-08', 'Mon'],
    ['2026-06-14', 'Sun'],
    ['2024-02-29', 'Thu'],
  ])('%s is a %s whatever the browser zone', (date, day) => expect(weekdayLabel(date)).toBe(day));

  it('shortDateLabel names the month and day', () => expect(shortDateLabel('2026-01-05')).toBe('Jan 5'));
});

describe('hourLabel', () => {
  it('labels the 24 hours from 12 AM to 11 PM', () => {
    const labels = Array.from({ length: 24 }, (_, h) => hourLabel(h));
    expect(labels.slice(0, 3)).toEqual(['12 AM', '1 AM', '2 AM']);
    expect(labels.slice(11, 14)).toEqual(['11 AM', '12 PM', '1 PM']);
    expect(labels[23]).toBe('11 PM');
    expect(new Set(labels).size).toBe(24);
  });
});

describe('relativeTime', () => {
  const now = Date.parse('2026-06-10T12:00:00Z');
  it.each([
    ['2026-06-10T12:00:00Z', 'just now'],
    ['2026-06-10T12:00:03Z', 'just now'],
    ['2026-06-10T11:59:30Z', '30 seconds ago'],
    ['2026-06-10T11:57:00Z', '3 minutes ago'],
    ['2026-06-10T11:00:00Z', '1 hour ago'],
    ['2026-06-08T11:00:00Z', '2 days ago'],
    ['2026-03-10T12:00:00Z', '3 months ago'],
    ['2024-06-10T12:00:00Z', '2 years ago'],
  ])('%s → %s', (iso, text) => expect(relativeTime(iso, now)).toBe(text));
});

describe('formatPercent', () => {
  it.each([
    [0, 0, '0%'],
    [1, 3, '33%'],
    [1, 40, '2.5%'],
    [1, 5000, '<0.1%'],
    [7, 7, '100%'],
  ])('%i of %i → %s', (count, total, text) => expect(formatPercent(count, total)).toBe(text));
});

describe('small formats', () => {
  it('formats bytes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12_595)).toBe('12.3 KB');
    expect(formatBytes(4_300_000)).toBe('4.1 MB');
  });
  it('writes a local date as YYYY-MM-DD', () => {
    expect(localIsoDate(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});
