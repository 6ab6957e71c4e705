import Papa from 'papaparse';
import { IMPORT_MAX_LINKS, importMessages } from '../../../../src/imports/import.schema.js';
import { isBitlyCsvHeader, readBitlyCsv } from './bitly-csv.js';
import { isShlinkCsvHeader, readShlinkCsv } from './shlink-csv.js';
import { SourceError, type SourceFile, type SourceLink } from './source.js';
import { isYourlsCsvHeader, looksLikeSqlDump, readYourlsCsv, readYourlsDump } from './yourls-dump.js';

/**
 * An uploaded export read into links (and visits, for a YOURLS dump with its log table): a Shlink CSV
 * export, a YOURLS SQL dump or CSV of its url table, a Bitly CSV export. Each format and where it is
 * documented: shlink-csv.ts, yourls-dump.ts, bitly-csv.ts.
 */

export type FileSource = 'auto' | 'shlink' | 'yourls' | 'bitly';

/** The bytes as text: UTF-8 (its BOM dropped), or UTF-16 when a BOM says so. */
function decode(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  // TextDecoder drops a UTF-8 BOM; invalid bytes become U+FFFD.
  return new TextDecoder('utf-8').decode(bytes);
}

/** The delimiter of the header line: the most frequent of , ; and tab outside quotes. */
function delimiterOf(text: string): string {
  const end = text.search(/\r|\n/);
  const line = end < 0 ? text : text.slice(0, end);
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c in counts) counts[c]!++;
  }
  let best = ',';
  for (const d of [';', '\t']) if (counts[d]! > counts[best]!) best = d;
  return best;
}

type CsvKind = 'shlink' | 'yourls' | 'bitly';

/** Which export a CSV header is: Shlink's first (its shortUrl/longUrl would also pass for Bitly's). */
function kindOf(header: string[]): CsvKind | null {
  if (isShlinkCsvHeader(header)) return 'shlink';
  if (isYourlsCsvHeader(header)) return 'yourls';
  if (isBitlyCsvHeader(header)) return 'bitly';
  return null;
}

function checked(file: SourceFile): SourceFile {
  if (file.links.length === 0) throw new SourceError(importMessages.empty);
  if (file.links.length > IMPORT_MAX_LINKS) throw new SourceError(importMessages.tooMany);
  return file;
}

function readDump(text: string, source: FileSource): SourceFile {
  if (source !== 'auto' && source !== 'yourls') throw new SourceError(importMessages.unknownFormat);
  const dump = readYourlsDump(text);
  return checked({ source: 'yourls', ...dump });
}

function read(bytes: Buffer, fileName: string, source: FileSource): SourceFile {
  const text = decode(bytes);
  if (text.trim() === '') throw new SourceError(importMessages.empty);
  // A binary file (an archive, a spreadsheet, a UTF-16 file without its BOM).
  if (text.slice(0, 65_536).includes('\0')) throw new SourceError(importMessages.unknownFormat);
  if (looksLikeSqlDump(text)) return readDump(text, source);

  const parsed = Papa.parse<string[]>(text, { delimiter: delimiterOf(text), skipEmptyLines: 'greedy' });
  const [first, ...rows] = parsed.data;
  const header = (first ?? []).map((name) => String(name).trim());
  const kind = kindOf(header);
  if (!kind) {
    // A dump whose first statement was not recognized, named for what it is.
    if (/\.sql$/i.test(fileName.trim())) return readDump(text, source);
    throw new SourceError(importMessages.unknownFormat);
  }
  if (source !== 'auto' && source !== kind) throw new SourceError(importMessages.unknownFormat);
  let links: SourceLink[];
  if (kind === 'shlink') links = readShlinkCsv(header, rows);
  else if (kind === 'yourls') links = readYourlsCsv(header, rows);
  else links = readBitlyCsv(header, rows);
  return checked({ source: kind, links });
}

/**
 * Reads an import file. `source` 'auto': the format is told from the content (an SQL script: a YOURLS
 * dump; a CSV: Shlink, YOURLS or Bitly by its header); otherwise the file must be that source's.
 * Throws SourceError only: importMessages.unknownFormat when it is none of them, .empty with no link,
 * .tooMany past IMPORT_MAX_LINKS.
 */
export function readImportFile(bytes: Buffer, fileName: string, source: FileSource): SourceFile {
  try {
    return read(bytes, fileName, source);
  } catch (error) {
    if (error instanceof SourceError) throw error;
    // Whatever else a malformed file trips over is still a file we cannot read.
    throw new SourceError(importMessages.unknownFormat);
  }
}
