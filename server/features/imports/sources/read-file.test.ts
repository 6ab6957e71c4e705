import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_LINKS, importMessages } from '../../../../src/imports/import.schema.js';
import { bitlyCsvOf, shlinkCsvOf, yourlsDumpOf } from '../stand-ins.test-helpers.js';
import { readImportFile, type FileSource } from './read-file.js';
import { SourceError } from './source.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
const fixtures = {
  shlink: fixture('shlink-short-urls.csv'),
  dump: fixture('yourls-dump.sql'),
  yourlsCsv: fixture('yourls-url.csv'),
  bitly: fixture('bitly-links.csv'),
};

/** The refusal readImportFile throws, or null when it reads the file. */
function refusal(bytes: Buffer, source: FileSource = 'auto', name = 'export.csv'): string | null {
  try {
    readImportFile(bytes, name, source);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(SourceError);
    return (error as SourceError).message;
  }
}

describe('readImportFile', () => {
  it('tells each format from its content', () => {
    expect(readImportFile(fixtures.shlink, 'a.csv', 'auto').source).toBe('shlink');
    expect(readImportFile(fixtures.dump, 'a.txt', 'auto').source).toBe('yourls');
    expect(readImportFile(fixtures.yourlsCsv, 'a.csv', 'auto').source).toBe('yourls');
    expect(readImportFile(fixtures.bitly, 'a.csv', 'auto').source).toBe('bitly');
  });

  it('reads a file saved with a BOM and CRLF line ends the same', () => {
    for (const bytes of [fixtures.shlink, fixtures.bitly, fixtures.yourlsCsv, fixtures.dump]) {
      const windows = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(bytes.toString('utf8').replace(/\r?\n/g, '\r\n')),
      ]);
      const plain = readImportFile(bytes, 'a', 'auto');
      const read = readImportFile(windows, 'a', 'auto');
      expect(read.source).toBe(plain.source);
      // The dump's multi-line title keeps its escaped \n; CSV rows end at CRLF.
      expect(read.links).toEqual(plain.links);
    }
  });

  it('reads UTF-16 with its BOM, and semicolon-separated CSV', () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(fixtures.shlink.toString('utf8'), 'utf16le'),
    ]);
    expect(readImportFile(utf16, 'a.csv', 'auto').links).toHaveLength(5);
    const semicolons =
      'keyword;url;title;timestamp;ip;clicks\nab;https://e.com/x,y;A, b;2020-01-01 00:00:00;1.2.3.4;2\n';
    expect(readImportFile(Buffer.from(semicolons), 'a.csv', 'auto').links[0]).toMatchObject({
      slug: 'ab',
      destination: 'https://e.com/x,y',
      title: 'A, b',
      visitCount: 2,
    });
  });

  it('refuses a file of another source than the one chosen', () => {
    expect(refusal(fixtures.shlink, 'bitly')).toBe(importMessages.unknownFormat);
    expect(refusal(fixtures.bitly, 'shlink')).toBe(importMessages.unknownFormat);
    expect(refusal(fixtures.dump, 'shlink')).toBe(importMessages.unknownFormat);
    expect(refusal(fixtures.yourlsCsv, 'bitly')).toBe(importMessages.unknownFormat);
    expect(refusal(fixtures.dump, 'yourls')).toBeNull();
  });

  it('refuses what is none of the formats', () => {
    expect(refusal(Buffer.from('name,email\nAda,ada@example.com\n'))).toBe(importMessages.unknownFormat);
    expect(refusal(Buffer.from('{"links": []}'))).toBe(importMessages.unknownFormat);
    expect(refusal(Buffer.from('PK\u0003\u0004\u0000\u0000binary'))).toBe(importMessages.unknownFormat);
    expect(refusal(Buffer.from('SELECT 1;'))).toBe(importMessages.unknownFormat);
    // Named .sql but not a YOURLS dump.
    expect(refusal(Buffer.from('hello'), 'auto', 'dump.sql')).toBe(importMessages.unknownFormat);
  });

  it('refuses a file with no link', () => {
    expect(refusal(Buffer.alloc(0))).toBe(importMessages.empty);
    expect(refusal(Buffer.from('\ufeff \r\n'))).toBe(importMessages.empty);
    expect(
      refusal(Buffer.from('"createdAt","domain","shortCode","shortUrl","longUrl","title","tags","visits"\n')),
    ).toBe(importMessages.empty);
    expect(refusal(Buffer.from('CREATE TABLE `yourls_url` (`keyword` varchar(100));'))).toBe(
      importMessages.empty,
    );
  });

  it('refuses more links than an import holds', () => {
    expect(refusal(Buffer.from(shlinkCsvOf(IMPORT_MAX_LINKS + 1)))).toBe(importMessages.tooMany);
    expect(refusal(Buffer.from(bitlyCsvOf(IMPORT_MAX_LINKS + 1)))).toBe(importMessages.tooMany);
    expect(refusal(Buffer.from(yourlsDumpOf(IMPORT_MAX_LINKS + 1)), 'yourls')).toBe(importMessages.tooMany);
    expect(readImportFile(Buffer.from(shlinkCsvOf(IMPORT_MAX_LINKS)), 'a.csv', 'shlink').links).toHaveLength(
      IMPORT_MAX_LINKS,
    );
  });

  it('reads the generated files the service tests use', () => {
    const shlink = readImportFile(Buffer.from(shlinkCsvOf(1000, 3)), 'short_urls.csv', 'auto');
    expect(shlink.links).toHaveLength(1000);
    expect(shlink.links[9]).toMatchObject({ slug: 'link-10', domain: 'links.example.org', visitCount: 3 });
    expect(shlink.links[6]).toMatchObject({ title: 'Page 7, "special" édition' });
    const yourls = readImportFile(Buffer.from(yourlsDumpOf(1000, 2)), 'yourls.sql', 'auto');
    expect(yourls.links).toHaveLength(1000);
    expect(yourls.visits!.size).toBe(1000);
    const bitly = readImportFile(Buffer.from(bitlyCsvOf(30)), 'bitly.csv', 'auto');
    expect(bitly.links[2]).toMatchObject({ slug: 'link-3', domain: 'go.brand.example' });
  });

  it('throws nothing but SourceError for random bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom<FileSource>('auto', 'shlink', 'yourls', 'bitly'),
        (bytes, source) => {
          refusal(Buffer.from(bytes), source);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('throws nothing but SourceError for mangled exports: cut short, bytes changed', () => {
    const samples = Object.values(fixtures);
    fc.assert(
      fc.property(
        fc.nat(samples.length - 1),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), {
          maxLength: 8,
        }),
        (which, cutAt, changes) => {
          const bytes = Buffer.from(samples[which]!);
          for (const [at, value] of changes) bytes[Math.floor(at * (bytes.length - 1))] = value;
          refusal(bytes.subarray(0, Math.floor(cutAt * bytes.length)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses a dump cut short in its url table, and reads one cut after it', () => {
    const text = fixtures.dump.toString('utf8');
    const inUrlTable = text.indexOf("('gh',");
    expect(refusal(Buffer.from(text.slice(0, inUrlTable + 20)), 'auto', 'yourls.sql')).toBe(
      importMessages.unknownFormat,
    );
    const afterUrlTable = text.indexOf('/*!40000 ALTER TABLE `yourls_url` ENABLE KEYS');
    expect(
      readImportFile(Buffer.from(text.slice(0, afterUrlTable)), 'yourls.sql', 'auto').links,
    ).toHaveLength(6);
  });
});
