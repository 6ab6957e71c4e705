import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isBitlyCsvHeader, parseBitlyDate, readBitlyCsv } from './bitly-csv.js';
import { readImportFile } from './read-file.js';

// Fixture: Bitly's links export (see ../fixtures/README.md and bitly-csv.ts for the columns' sources).
const fixture = readFileSync(new URL('../fixtures/bitly-links.csv', import.meta.url));

describe('Bitly CSV export', () => {
  const file = readImportFile(fixture, 'bitly_links.csv', 'bitly');

  it('reads every field of its rows, the custom back-half first', () => {
    expect(file.source).toBe('bitly');
    expect(file.visits).toBeUndefined();
    expect(file.links).toHaveLength(4);
    expect(file.links[0]).toEqual({
      slug: 'Spring-Sale',
      destination: 'https://shop.example.com/sale?utm_source=bitly&utm_medium=social',
      title: 'Spring sale, 20% off',
      createdAt: Date.UTC(2024, 2, 15, 14, 23, 12),
      tags: ['promo', 'spring'],
      domain: 'go.brand.example',
      visitCount: 1204,
      shortUrl: 'https://go.brand.example/Spring-Sale',
    });
    expect(file.links[1]).toEqual({
      slug: '4qRsTuV',
      destination: 'https://example.com/docs',
      title: null,
      createdAt: Date.UTC(2024, 3, 2, 9, 0, 0),
      tags: [],
      domain: 'bit.ly',
      visitCount: 0,
      shortUrl: 'https://bit.ly/4qRsTuV',
    });
  });

  it('reads quotes and unicode in titles, links without a scheme and counts with a thousands separator', () => {
    expect(file.links[2]).toMatchObject({ slug: '3CafeXY', title: 'Café "Crème" ☕', visitCount: 37 });
    expect(file.links[3]).toMatchObject({
      slug: 'Q3-Report',
      domain: 'bit.ly',
      shortUrl: 'https://bit.ly/Q3-Report',
      visitCount: 1530,
      tags: ['reports'],
    });
  });

  it('reads the older export columns (Bitlink, Long URL, Custom Bitlinks…) in any case', () => {
    const header = [
      'BITLINK',
      'Long URL',
      'custom bitlinks',
      'Date Created',
      'Total Engagements',
      'Title',
      'Tags',
    ];
    expect(isBitlyCsvHeader(header)).toBe(true);
    const links = readBitlyCsv(header, [
      ['bit.ly/3abcDEF', 'https://example.com/a', '', '2024-03-15T14:23:12+0000', '12', 'A', 'x | y'],
      [
        'https://bit.ly/3ghiJKL',
        'https://example.com/b',
        'brand.co/First, brand.co/Second',
        '3/15/2024 2:05 PM',
        '',
        '',
        '',
      ],
    ]);
    expect(links[0]).toEqual({
      slug: '3abcDEF',
      destination: 'https://example.com/a',
      title: 'A',
      createdAt: Date.UTC(2024, 2, 15, 14, 23, 12),
      tags: ['x', 'y'],
      domain: 'bit.ly',
      visitCount: 12,
      shortUrl: 'https://bit.ly/3abcDEF',
    });
    expect(links[1]).toMatchObject({
      slug: 'First',
      domain: 'brand.co',
      createdAt: Date.UTC(2024, 2, 15, 14, 5, 0),
      visitCount: null,
    });
  });

  it("reads the API's field names too", () => {
    const header = ['link', 'long_url', 'title', 'created_at', 'tags', 'custom_bitlinks'];
    expect(isBitlyCsvHeader(header)).toBe(true);
    const [link] = readBitlyCsv(header, [
      ['https://bit.ly/3x', 'https://example.com', 'T', '2024-01-02T03:04:05Z', 'a', ''],
    ]);
    expect(link).toMatchObject({ slug: '3x', createdAt: Date.UTC(2024, 0, 2, 3, 4, 5), tags: ['a'] });
  });

  it('needs a destination and a short link column', () => {
    expect(isBitlyCsvHeader(['Title', 'Long URL'])).toBe(false);
    expect(isBitlyCsvHeader(['Bitlink', 'Title'])).toBe(false);
    expect(isBitlyCsvHeader(['Custom link', 'Destination URL'])).toBe(true);
  });

  it('reads the date formats an export may have, as UTC when no offset is given', () => {
    expect(parseBitlyDate('2024-03-15 14:23:12')).toBe(Date.UTC(2024, 2, 15, 14, 23, 12));
    expect(parseBitlyDate('2024-03-15T14:23:12-0500')).toBe(Date.UTC(2024, 2, 15, 19, 23, 12));
    expect(parseBitlyDate('2024-03-15 14:23:12 UTC')).toBe(Date.UTC(2024, 2, 15, 14, 23, 12));
    expect(parseBitlyDate('2024-03-15')).toBe(Date.UTC(2024, 2, 15));
    expect(parseBitlyDate('03/15/24')).toBe(Date.UTC(2024, 2, 15));
    expect(parseBitlyDate('12/01/2024 12:30 AM')).toBe(Date.UTC(2024, 11, 1, 0, 30));
    expect(parseBitlyDate('March 15, 2024')).toBe(Date.UTC(2024, 2, 15));
    expect(parseBitlyDate('')).toBeNull();
    expect(parseBitlyDate('soon')).toBeNull();
  });
});
