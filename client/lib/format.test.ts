import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatWords,
  formatPercent,
  hourLabel,
  lastScanLabel,
  localIsoDate,
  middleTruncate,
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

describe('middleTruncate', () => {
  it('leaves text that fits alone', () => {
    expect(middleTruncate('https://example.com/menu', 40)).toBe('https://example.com/menu');
    expect(middleTruncate('', 5)).toBe('');
  });

  it('keeps the origin and the end of a URL, cut at a path boundary', () => {
    const url = 'https://example.com/restaurants/downtown/tables/spring-menu';
    const cut = middleTruncate(url, 36);
    expect(cut).toBe('https://example.com/…/spring-menu');
    expect(cut.length).toBeLessThanOrEqual(36);
  });

  it('tells twenty similar URLs apart by their ends', () => {
    const urls = Array.from(
      { length: 20 },
      (_, i) => `https://example.com/restaurant/tables/table-${String(i + 1).padStart(2, '0')}`,
    );
    const cuts = urls.map((u) => middleTruncate(u, 32));
    expect(new Set(cuts).size).toBe(20);
    expect(cuts[6]).toBe('https://example.com/…/table-07');
    for (const c of cuts) expect(c.length).toBeLessThanOrEqual(32);
  });

  it('cuts a long last segment mid-way and keeps its end', () => {
    const cut = middleTruncate('https://example.com/a-very-long-final-segment-that-goes-on', 34);
    expect(cut).toBe('https://example.com/…-that-goes-on');
    expect(cut.length).toBe(34);
  });

  it('keeps the end of a query string', () => {
    expect(middleTruncate('https://shop.example/p?id=1234567890&ref=poster-a', 36)).toBe(
      'https://shop.example/…0&ref=poster-a',
    );
  });

  it('cuts other text (and a URL whose origin leaves no room) around the middle', () => {
    expect(middleTruncate('Free coffee on Fridays for every regular guest', 21)).toBe(
      'Free coff…gular guest',
    );
    const host = `https://${'a'.repeat(40)}.example/page`;
    const cut = middleTruncate(host, 30);
    expect(cut.length).toBe(30);
    expect(cut.startsWith('https://')).toBe(true);
    expect(cut.endsWith('.example/page')).toBe(true);
  });

  it('never splits an emoji and handles tiny widths', () => {
    expect(middleTruncate('🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕', 5)).toBe('🍕…🍕🍕🍕');
    expect(middleTruncate('abcdef', 1)).toBe('…');
  });
});

describe('lastScanLabel', () => {
  const now = Date.parse('2026-06-10T12:00:00Z');
  it.each([
    [null, 'Never'],
    ['2026-06-10T11:59:30Z', 'just now'],
    ['2026-06-10T11:55:00Z', '5 min ago'],
    ['2026-06-10T10:00:00Z', '2 h ago'],
    ['2026-06-07T12:00:00Z', '3 d ago'],
    ['2026-02-10T12:00:00Z', '4 mo ago'],
    ['2024-06-01T12:00:00Z', '2 y ago'],
    ['not a date', 'Unknown'],
  ])('%s → %s', (iso, text) => expect(lastScanLabel(iso, now)).toBe(text));
});

describe('the words of the formats', () => {
  it('carry the ids Lingui generates for their message and context, as the catalogs know them', () => {
    for (const { id, message, context } of formatWords) expect(id).toBe(generateMessageId(message, context));
  });
});
