import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_LINKS, importMessages } from '../../../../src/imports/import.schema.js';
import { yourlsDumpOf } from '../stand-ins.test-helpers.js';
import { readImportFile } from './read-file.js';
import { SourceError } from './source.js';
import { looksLikeSqlDump, parseSqlTime, readYourlsDump } from './yourls-dump.js';

// Fixtures: a mysqldump of YOURLS's tables and phpMyAdmin's CSV of its url table (see ../fixtures/README.md).
const dump = readFileSync(new URL('../fixtures/yourls-dump.sql', import.meta.url));
const csv = readFileSync(new URL('../fixtures/yourls-url.csv', import.meta.url));

describe('YOURLS SQL dump', () => {
  const file = readImportFile(dump, 'yourls.sql', 'yourls');

  it('reads every field of its links, columns in the order of its CREATE TABLE', () => {
    expect(file.source).toBe('yourls');
    expect(file.links.map((l) => l.slug)).toEqual(['1', 'gh', 'oreilly', 'MixedCase', 'tokyo', 'nt']);
    expect(file.links[0]).toEqual({
      slug: '1',
      destination: 'https://yourls.org/',
      title: 'YOURLS: Your Own URL Shortener',
      createdAt: Date.UTC(2023, 0, 14, 10, 3, 55),
      tags: [],
      domain: null,
      visitCount: 2,
      shortUrl: null,
    });
    expect(file.links[1]).toEqual({
      slug: 'gh',
      destination: 'https://github.com/YOURLS/YOURLS',
      title: 'GitHub - YOURLS/YOURLS, the self-hosted shortener 🔗',
      createdAt: Date.UTC(2023, 0, 14, 10, 5, 12),
      tags: [],
      domain: null,
      visitCount: 1,
      shortUrl: null,
    });
  });

  it('undoes MySQL string escapes and reads NULL, empty titles and separators inside strings', () => {
    expect(file.links[2]).toMatchObject({
      destination: 'https://www.oreilly.com/search/?q=php%20"short urls"',
      title: 'Books by O\'Reilly, "the animal ones" \\ a backslash',
    });
    expect(file.links[3]).toMatchObject({ destination: "https://example.com/a,b;c),('x'", title: null });
    expect(file.links[4]).toMatchObject({
      destination: 'https://例え.jp/パス',
      title: '日本語のタイトル\nsecond line',
    });
    expect(file.links[5]).toMatchObject({ title: null, visitCount: 0 });
  });

  it('reads the log table as the visits of each link', () => {
    const visits = file.visits!;
    expect(visits).toBeInstanceOf(Map);
    expect(visits.get(0)).toEqual([
      {
        at: Date.UTC(2023, 0, 15, 12, 0, 0),
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0',
        referrer: null,
        location: 'Germany',
        ipAddress: '203.0.113.50',
        bot: false,
      },
      {
        at: Date.UTC(2023, 0, 15, 12, 30, 0),
        userAgent: expect.stringContaining('iPhone') as string,
        referrer: 'https://news.ycombinator.com/item?id=1',
        location: 'United States',
        ipAddress: '198.51.100.9',
        bot: false,
      },
    ]);
    // No country ('') and an unknown code: no location.
    expect(visits.get(1)![0]).toMatchObject({
      referrer: 'https://t.co/AbC123',
      location: null,
      ipAddress: '2001:db8::7',
    });
    expect(visits.get(3)![0]).toMatchObject({ location: null });
    expect(visits.get(2)![0]).toMatchObject({
      referrer: 'https://example.com/?q="quoted"&x=it\'s',
      userAgent: 'Mozilla/5.0 (compatible; "Quoted" Agent)',
      location: 'France',
    });
    // The click of a keyword no longer in the url table is dropped; links without clicks have no entry.
    expect([...visits.keys()].sort()).toEqual([0, 1, 2, 3]);
    expect([...visits.values()].flat()).toHaveLength(5);
  });

  it("reads phpMyAdmin's statements: column lists, another prefix, doubled quotes, no CREATE TABLE", () => {
    const sql = [
      '-- phpMyAdmin SQL Dump',
      'SET SQL_MODE = "NO_AUTO_VALUE_ON_ZERO";',
      'START TRANSACTION;',
      'INSERT INTO `short_log` (`click_id`, `click_time`, `shorturl`, `referrer`, `user_agent`, `ip_address`, `country_code`) VALUES',
      "(1, '2022-12-01 10:00:00', 'Ab', 'direct', 'UA', '192.0.2.9', 'de');",
      'INSERT INTO `short_url` (`url`, `keyword`, `clicks`, `title`, `timestamp`, `ip`) VALUES',
      "('https://example.com/it''s', 'Ab', 1, 'It''s here', '2022-11-30 23:59:59', '192.0.2.1'),",
      "('https://example.com/b', 'b', 0, '', '2022-11-30 00:00:00', '192.0.2.1');",
      'COMMIT;',
    ].join('\n');
    const read = readYourlsDump(sql);
    expect(read.links).toEqual([
      {
        slug: 'Ab',
        destination: "https://example.com/it's",
        title: "It's here",
        createdAt: Date.UTC(2022, 10, 30, 23, 59, 59),
        tags: [],
        domain: null,
        visitCount: 1,
        shortUrl: null,
      },
      expect.objectContaining({ slug: 'b', title: null, visitCount: 0 }),
    ]);
    expect(read.visits!.get(0)).toEqual([
      {
        at: Date.UTC(2022, 11, 1, 10),
        userAgent: 'UA',
        referrer: null,
        location: 'Germany',
        ipAddress: '192.0.2.9',
        bot: false,
      },
    ]);
  });

  it('reads rows without a column list in the install order, the title-less order of old releases too', () => {
    const six = "INSERT INTO yourls_url VALUES ('k','https://e.com','T','2020-01-01 00:00:00','1.2.3.4',3);";
    expect(readYourlsDump(six).links[0]).toMatchObject({ slug: 'k', title: 'T', visitCount: 3 });
    const five = "INSERT INTO `yourls_url` VALUES ('k','https://e.com','2020-01-01 00:00:00','1.2.3.4',3);";
    expect(readYourlsDump(five).links[0]).toMatchObject({
      slug: 'k',
      title: null,
      createdAt: Date.UTC(2020, 0, 1),
      visitCount: 3,
    });
    // No log table: no visit history.
    expect(readYourlsDump(five).visits).toBeUndefined();
  });

  it('reads binary columns, charset introducers, hex literals and the other escapes', () => {
    const sql =
      'INSERT IGNORE INTO `db`.`yourls_url` (`keyword`,`url`,`title`,`timestamp`,`ip`,`clicks`) VALUES ' +
      "(_binary 'x1', 0x68747470733A2F2F652E636F6D, _utf8mb4'tab\\there\\0\\Z', '0000-00-00 00:00:00', '', '7');";
    expect(readYourlsDump(sql).links[0]).toEqual({
      slug: 'x1',
      destination: 'https://e.com',
      title: 'tab\there\0\x1a',
      createdAt: null,
      tags: [],
      domain: null,
      visitCount: 7,
      shortUrl: null,
    });
  });

  it('passes over other tables, even broken ones, and refuses a cut-short url table', () => {
    const other =
      "INSERT INTO `wp_posts` VALUES (1, oops);\nINSERT INTO `yourls_url` VALUES ('a','https://e.com','','2020-01-01 00:00:00','',0);";
    expect(readYourlsDump(other).links).toHaveLength(1);
    const text = dump.toString('utf8');
    const cut = text.slice(0, text.indexOf("'tokyo'") + 10);
    expect(() => readYourlsDump(cut)).toThrow(new SourceError(importMessages.unknownFormat));
  });

  it('refuses a dump without a url table', () => {
    expect(() =>
      readYourlsDump('CREATE TABLE `wp_posts` (`id` int);\nINSERT INTO `wp_posts` VALUES (1);'),
    ).toThrow(importMessages.unknownFormat);
  });

  it('tells an SQL script from other text', () => {
    expect(looksLikeSqlDump('-- comment\n/* more */\n# and more\nINSERT INTO x VALUES (1);')).toBe(true);
    expect(looksLikeSqlDump('"keyword","url"\n"a","b"')).toBe(false);
    expect(looksLikeSqlDump('-- only a comment')).toBe(false);
  });

  it('reads its times as UTC', () => {
    expect(parseSqlTime('2023-01-14 10:03:55')).toBe(Date.UTC(2023, 0, 14, 10, 3, 55));
    expect(parseSqlTime('2023-01-14')).toBe(Date.UTC(2023, 0, 14));
    expect(parseSqlTime('0000-00-00 00:00:00')).toBeNull();
    expect(parseSqlTime('yesterday')).toBeNull();
    expect(parseSqlTime(null)).toBeNull();
  });

  it('reads a generated dump of 1,000 links and their visits, and refuses one over the limit', () => {
    const big = readYourlsDump(yourlsDumpOf(1000, 4));
    expect(big.links).toHaveLength(1000);
    expect([...big.visits!.values()].every((v) => v.length === 4)).toBe(true);
    expect(big.links[3]).toMatchObject({ slug: 'Promo4', destination: 'https://example.com/page-4' });
    expect(() => readYourlsDump(yourlsDumpOf(IMPORT_MAX_LINKS + 1))).toThrow(importMessages.tooMany);
  });
});

describe('YOURLS url table CSV', () => {
  const file = readImportFile(csv, 'yourls_url.csv', 'auto');

  it('reads every field of its rows', () => {
    expect(file.source).toBe('yourls');
    expect(file.visits).toBeUndefined();
    expect(file.links.map((l) => l.slug)).toEqual(['1', 'gh', 'oreilly', 'MixedCase', 'tokyo']);
    expect(file.links[0]).toEqual({
      slug: '1',
      destination: 'https://yourls.org/',
      title: 'YOURLS: Your Own URL Shortener',
      createdAt: Date.UTC(2023, 0, 14, 10, 3, 55),
      tags: [],
      domain: null,
      visitCount: 42,
      shortUrl: null,
    });
    expect(file.links[2]).toEqual({
      slug: 'oreilly',
      destination: 'https://www.oreilly.com/search/?q=php%20"short urls"',
      title: 'Books by O\'Reilly, "the animal ones"',
      createdAt: Date.UTC(2023, 1, 1, 8),
      tags: [],
      domain: null,
      visitCount: 0,
      shortUrl: null,
    });
    expect(file.links[3]).toMatchObject({ destination: 'https://example.com/a,b;c', title: null });
    expect(file.links[4]).toMatchObject({ title: '日本語のタイトル' });
  });
});
