import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readImportFile } from './read-file.js';
import { isShlinkCsvHeader, readShlinkCsv } from './shlink-csv.js';

// Fixture: Shlink web client's export (see ../fixtures/README.md for where the format is documented).
const fixture = readFileSync(new URL('../fixtures/shlink-short-urls.csv', import.meta.url));

describe('Shlink CSV export', () => {
  const file = readImportFile(fixture, 'short_urls.csv', 'shlink');

  it('reads every field of its rows', () => {
    expect(file.source).toBe('shlink');
    expect(file.visits).toBeUndefined();
    expect(file.links).toHaveLength(5);
    expect(file.links[0]).toEqual({
      slug: 'Spring24',
      destination: 'https://shop.example.com/sale?utm_source=qr&utm_medium=print',
      title: 'Spring sale, 20% off "everything"',
      createdAt: Date.UTC(2023, 3, 2, 7, 15, 27),
      tags: ['promo', 'spring', 'print'],
      domain: 's.example.com',
      visitCount: 1342,
      shortUrl: 'https://s.example.com/Spring24',
    });
    expect(file.links[1]).toEqual({
      slug: 'abc12',
      destination: 'https://example.com/docs/getting-started',
      title: null,
      createdAt: Date.UTC(2023, 4, 11, 18, 2, 0),
      tags: [],
      domain: 's.example.com',
      visitCount: 0,
      shortUrl: 'https://s.example.com/abc12',
    });
  });

  it('decodes a non-ASCII short code, which the export writes percent-encoded', () => {
    expect(file.links[2]).toMatchObject({
      slug: 'café',
      destination: 'https://example.org/menu/café-crème?lang=fr',
      title: 'Menü – Café Crème ☕',
      createdAt: Date.UTC(2023, 6, 1, 3, 59, 59),
      domain: 'go.example.org',
      shortUrl: 'https://go.example.org/caf%C3%A9',
    });
  });

  it('keeps the case of slugs, multi-segment slugs and a | in a title', () => {
    expect(file.links.map((l) => l.slug)).toEqual(['Spring24', 'abc12', 'café', 'ABC12', 'docs/v2/intro']);
    expect(file.links[3]!.title).toBe('Pricing | Plans');
    expect(file.links[3]!.tags).toEqual([]);
    expect(file.links[4]!.tags).toEqual(['docs', 'v2']);
  });

  it('tells its header from others, whatever the case', () => {
    expect(
      isShlinkCsvHeader([
        'createdAt',
        'domain',
        'shortCode',
        'shortUrl',
        'longUrl',
        'title',
        'tags',
        'visits',
      ]),
    ).toBe(true);
    expect(isShlinkCsvHeader(['SHORTCODE', 'LONGURL'])).toBe(true);
    expect(isShlinkCsvHeader(['keyword', 'url'])).toBe(false);
    expect(isShlinkCsvHeader(['Bitlink', 'Long URL'])).toBe(false);
  });

  it('takes the slug from the short URL when the short code is blank, and skips blank rows', () => {
    const links = readShlinkCsv(
      ['shortUrl', 'longUrl', 'shortCode', 'visits', 'createdAt'],
      [
        ['https://s.example.com/Fallback', 'https://example.com/x', '', '', 'not a date'],
        ['', '', '', '', ''],
      ],
    );
    expect(links).toEqual([
      {
        slug: 'Fallback',
        destination: 'https://example.com/x',
        title: null,
        createdAt: null,
        tags: [],
        domain: 's.example.com',
        visitCount: null,
        shortUrl: 'https://s.example.com/Fallback',
      },
    ]);
  });
});
