import type ExcelJS from 'exceljs';
import { Unzip, UnzipInflate } from 'fflate';
import Papa from 'papaparse';
import type { BulkParseAnswer } from '../../../src/qr/bulk.js';
import { lazyRequire } from '../../lazy-require.js';

/**
 * A spreadsheet's first sheet as rows of text: CSV (any usual delimiter and encoding) or XLSX, told apart
 * by their bytes, not by the file's name. Runs in the bulk parse worker (bulk-parse.worker.ts), so it
 * imports nothing of the app but types: its limits come with each request and its refusals go back as
 * the keys of bulk-parse.ts's messages.
 */

/** What bounds a read: rows kept, columns allowed, bytes an XLSX may unpack to. */
export interface SheetLimits {
  maxRows: number;
  maxColumns: number;
  maxUnpackedBytes: number;
}

/** What the worker is sent: the file (its own copy, transferred), its cleaned name and the limits. */
export interface SheetRequest {
  bytes: Uint8Array;
  fileName: string;
  limits: SheetLimits;
}

/** Why a file is refused: each is a message of bulkParseMessages (bulk-parse.ts). */
export type SheetRefusal =
  | 'empty'
  | 'noRows'
  | 'notSpreadsheet'
  | 'xls'
  | 'unreadableXlsx'
  | 'noSheet'
  | 'unpackedTooLarge'
  | 'tooManyColumns';

/**
 * What the worker is started with: the heap it may use, and the exit code that says it used more (it
 * watches its heap itself: see bulk-parse.worker.ts).
 */
export interface SheetWorkerData {
  heapLimitMb: number;
  heapExitCode: number;
}

/** What the worker answers: the table, a refusal, or an unexpected failure (its stack, for the log). */
export type SheetAnswer = { table: BulkParseAnswer } | { refused: SheetRefusal } | { failed: string };

/** An expected refusal; the worker turns it into `{ refused }`. */
export class SheetRefused extends Error {
  constructor(readonly refusal: SheetRefusal) {
    super(refusal);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The table both formats end in

function lastFilled(cells: readonly string[]): number {
  for (let i = cells.length - 1; i >= 0; i--) if (cells[i]!.trim() !== '') return i;
  return -1;
}

/**
 * The header and data rows: blank rows left out, every row as wide as the widest (blank header cells
 * named 'Column N'), at most `maxRows` data rows.
 */
export function tableOf(raw: readonly string[][], fileName: string, limits: SheetLimits): BulkParseAnswer {
  const filled = raw.filter((cells) => lastFilled(cells) >= 0);
  const [header, ...data] = filled;
  if (!header) throw new SheetRefused('empty');
  if (data.length === 0) throw new SheetRefused('noRows');
  const kept = data.slice(0, limits.maxRows);
  const width = Math.max(lastFilled(header), ...kept.map(lastFilled)) + 1;
  if (width > limits.maxColumns) throw new SheetRefused('tooManyColumns');
  const columns = Array.from({ length: width }, (_, i) => header[i]?.trim() || `Column ${i + 1}`);
  const rows = kept.map((cells) => Array.from({ length: width }, (_, i) => cells[i] ?? ''));
  return { fileName, columns, rows, truncated: data.length > limits.maxRows };
}

// ---------------------------------------------------------------------------------------------------------
// CSV

/** Signatures of files that are surely no text (images, PDF, archives), for a plain message. */
const BINARY_MAGIC = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x1f, 0x8b], // gzip
  [0x52, 0x61, 0x72, 0x21], // Rar!
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
];

/** The text of a CSV file: UTF-8 (BOM or not), UTF-16 with its BOM (Excel's "Unicode text"), else Windows-1252. */
function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Excel's "CSV" on Windows writes the system's code page, most often Windows-1252.
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Control characters other than tab, line breaks and form feed: a text file has (almost) none. */
// eslint-disable-next-line no-control-regex
const BINARY_CHARS = /[\u0000-\u0008\u000e-\u001f]/g;

export function parseCsv(bytes: Uint8Array, fileName: string, limits: SheetLimits): BulkParseAnswer {
  if (BINARY_MAGIC.some((magic) => magic.every((b, i) => bytes[i] === b))) {
    throw new SheetRefused('notSpreadsheet');
  }
  const text = decodeText(bytes);
  if (text.includes('\u0000') || (text.match(BINARY_CHARS)?.length ?? 0) > text.length / 100) {
    throw new SheetRefused('notSpreadsheet');
  }
  const parsed = Papa.parse<string[]>(text, {
    // Guessed from the first rows: comma, semicolon (Excel in much of Europe), tab or pipe.
    delimiter: '',
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: 'greedy',
  });
  return tableOf(parsed.data, fileName, limits);
}

// ---------------------------------------------------------------------------------------------------------
// XLSX

/** The Excel reader, without the package's writers: loaded by the worker's first XLSX file. */
const loadWorkbook = lazyRequire<typeof ExcelJS.Workbook>('exceljs/lib/doc/workbook.js');

/**
 * The ZIP handed to the inflater this many bytes at a time. Deflate packs at most about 1,032:1, so one
 * push unpacks at most about 4 MB: the count below stops a "zip bomb" a few MB past the limit. Pushed
 * whole, its one entry came out in one piece, 400 MB of a 409 KB file before any byte was counted.
 */
const ZIP_CHUNK_BYTES = 4096;

/**
 * The ZIP's entry names, unpacking it (and throwing the bytes away) to measure it; tooLarge when all its
 * entries together unpack to more than `max` bytes, found as soon as they pass it. The entries' declared
 * sizes are not trusted: they can lie.
 */
export function zipEntries(bytes: Uint8Array, max: number): { names: string[]; tooLarge: boolean } {
  const names: string[] = [];
  let total = 0;
  let tooLarge = false;
  const unzip = new Unzip((file) => {
    names.push(file.name);
    if (tooLarge) return;
    file.ondata = (error, chunk) => {
      if (error) throw error;
      total += chunk.length;
      if (total > max && !tooLarge) {
        tooLarge = true;
        file.terminate();
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  for (let at = 0; at < bytes.length && !tooLarge; at += ZIP_CHUNK_BYTES) {
    unzip.push(bytes.subarray(at, at + ZIP_CHUNK_BYTES), at + ZIP_CHUNK_BYTES >= bytes.length);
  }
  return { names, tooLarge };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * An Excel date has no zone: its wall time, as ISO 8601 without an offset ('2026-12-24T18:00:00'), or
 * the day alone at midnight ('2026-12-24'). bulkRow reads it in the row's time zone.
 */
function dateText(date: Date): string {
  if (!Number.isFinite(date.getTime())) return '';
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const h = date.getUTCHours();
  const m = date.getUTCMinutes();
  const s = date.getUTCSeconds();
  return h === 0 && m === 0 && s === 0 ? day : `${day}T${pad(h)}:${pad(m)}:${pad(s)}`;
}

/** A hyperlink cell: its text when that is the link itself (or its address), else the address. */
function hyperlinkText(text: string, address: string): string {
  const shown = text.trim();
  if (shown === '') return address;
  const bare = address.replace(/^(mailto|tel|sms):/i, '');
  return shown === address || shown === bare || /^https?:\/\//i.test(shown) ? shown : address;
}

/** A cell's value as text: numbers as written, dates ISO, hyperlinks their link, rich text joined, formulas their result. */
export function cellText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('hyperlink' in value) {
    // The text may itself be rich text, whatever the typings say.
    return hyperlinkText(cellText(value.text), String(value.hyperlink ?? ''));
  }
  if ('formula' in value || 'sharedFormula' in value) {
    return cellText(value.result);
  }
  if ('error' in value) return String(value.error);
  return '';
}

export async function parseXlsx(
  bytes: Uint8Array,
  fileName: string,
  limits: SheetLimits,
): Promise<BulkParseAnswer> {
  let entries: { names: string[]; tooLarge: boolean };
  try {
    entries = zipEntries(bytes, limits.maxUnpackedBytes);
  } catch {
    throw new SheetRefused('unreadableXlsx');
  }
  if (entries.tooLarge) throw new SheetRefused('unpackedTooLarge');
  // Cut off before its first entry ended.
  if (entries.names.length === 0) throw new SheetRefused('unreadableXlsx');
  if (!entries.names.some((name) => name.replace(/^\//, '') === 'xl/workbook.xml')) {
    // A ZIP, but no workbook (an .ods, a .docx, photos).
    throw new SheetRefused('notSpreadsheet');
  }
  const Workbook = loadWorkbook();
  const workbook = new Workbook();
  try {
    // exceljs declares its own Buffer type; a Node Buffer is what it reads.
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await workbook.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  } catch {
    throw new SheetRefused('unreadableXlsx');
  }
  const sheets = workbook.worksheets;
  const sheet = sheets.find((s) => s.state === 'visible') ?? sheets[0];
  if (!sheet) throw new SheetRefused('noSheet');
  const raw: string[][] = [];
  sheet.eachRow((row) => {
    // Header and one row more than kept, so that `truncated` is known.
    if (raw.length > limits.maxRows + 1) return;
    const values = row.values as ExcelJS.CellValue[];
    const width = Math.min(values.length, limits.maxColumns + 2);
    const cells: string[] = [];
    for (let column = 1; column < width; column++) cells.push(cellText(values[column]));
    raw.push(cells);
  });
  return tableOf(raw, fileName, limits);
}

// ---------------------------------------------------------------------------------------------------------
// The file

/** A CSV or XLSX file's first sheet, decided by its bytes (an XLSX is a ZIP: PK\x03\x04). */
export async function readSpreadsheet({ bytes, fileName, limits }: SheetRequest): Promise<BulkParseAnswer> {
  // A file of blank lines is empty too: tableOf finds no row.
  if (bytes.length === 0) throw new SheetRefused('empty');
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    return parseXlsx(bytes, fileName, limits);
  }
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw new SheetRefused('xls');
  }
  return parseCsv(bytes, fileName, limits);
}

/** readSpreadsheet's outcome as the worker posts it: never a throw. */
export async function answerOf(request: SheetRequest): Promise<SheetAnswer> {
  try {
    return { table: await readSpreadsheet(request) };
  } catch (error) {
    if (error instanceof SheetRefused) return { refused: error.refusal };
    return { failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}
