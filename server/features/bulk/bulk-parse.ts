import type ExcelJS from 'exceljs';
import { Unzip, UnzipInflate } from 'fflate';
import Papa from 'papaparse';
import { BULK_FILE_MAX_BYTES, BULK_MAX_ROWS, type BulkParseAnswer } from '../../../src/qr/bulk.js';
import { lazyRequire } from '../../lazy-require.js';
import { appError } from '../../trpc/errors.js';
import { ExportQueue } from '../analytics/export-queue.js';

/**
 * A spreadsheet's first sheet as rows of text (POST /api/qr-codes/bulk/parse): CSV (any usual
 * delimiter and encoding) or XLSX, told apart by their bytes, not by the file's name.
 */

/** More columns than any sheet of codes needs; a stray cell at column XFD would otherwise make 16,384. */
export const BULK_MAX_COLUMNS = 200;
/**
 * What an XLSX may unpack to. A sheet of 5,000 codes is a few MB of XML; this bounds what the Excel
 * reader holds (it reads the whole workbook into memory), so a small "zip bomb" cannot exhaust it.
 */
const MAX_UNPACKED_BYTES = 48 * 1024 * 1024;

export const bulkParseMessages = {
  tooLarge: `The file must be at most ${BULK_FILE_MAX_BYTES / 1024 / 1024} MB`,
  empty: 'The file is empty',
  noRows: 'The file has only a header row: add one row per QR code below it',
  notSpreadsheet: 'The file is not a spreadsheet: upload a CSV or an Excel (.xlsx) file',
  xls: 'Excel 97-2003 files (.xls) cannot be read: save the sheet as .xlsx or CSV',
  unreadableXlsx: 'The Excel file could not be read: save it again as .xlsx, or as CSV',
  noSheet: 'The Excel file has no worksheet',
  unpackedTooLarge: `The Excel file is too large once unpacked: keep it to ${BULK_MAX_ROWS} rows of codes, or save it as CSV`,
  tooManyColumns: `The file has more than ${BULK_MAX_COLUMNS} columns: keep only the columns the codes need`,
} as const;

function refused(message: string) {
  return appError('BAD_REQUEST', message, { field: 'file' });
}

// ---------------------------------------------------------------------------------------------------------
// The table both formats end in

function lastFilled(cells: readonly string[]): number {
  for (let i = cells.length - 1; i >= 0; i--) if (cells[i]!.trim() !== '') return i;
  return -1;
}

/**
 * The header and data rows: blank rows left out, every row as wide as the widest (blank header cells
 * named 'Column N'), at most BULK_MAX_ROWS data rows.
 */
export function tableOf(raw: readonly string[][], fileName: string): BulkParseAnswer {
  const filled = raw.filter((cells) => lastFilled(cells) >= 0);
  const [header, ...data] = filled;
  if (!header) throw refused(bulkParseMessages.empty);
  if (data.length === 0) throw refused(bulkParseMessages.noRows);
  const kept = data.slice(0, BULK_MAX_ROWS);
  const width = Math.max(lastFilled(header), ...kept.map(lastFilled)) + 1;
  if (width > BULK_MAX_COLUMNS) throw refused(bulkParseMessages.tooManyColumns);
  const columns = Array.from({ length: width }, (_, i) => header[i]?.trim() || `Column ${i + 1}`);
  const rows = kept.map((cells) => Array.from({ length: width }, (_, i) => cells[i] ?? ''));
  return { fileName, columns, rows, truncated: data.length > BULK_MAX_ROWS };
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

export function parseCsv(bytes: Uint8Array, fileName: string): BulkParseAnswer {
  if (BINARY_MAGIC.some((magic) => magic.every((b, i) => bytes[i] === b))) {
    throw refused(bulkParseMessages.notSpreadsheet);
  }
  const text = decodeText(bytes);
  if (text.includes('\u0000') || (text.match(BINARY_CHARS)?.length ?? 0) > text.length / 100) {
    throw refused(bulkParseMessages.notSpreadsheet);
  }
  const parsed = Papa.parse<string[]>(text, {
    // Guessed from the first rows: comma, semicolon (Excel in much of Europe), tab or pipe.
    delimiter: '',
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: 'greedy',
  });
  return tableOf(parsed.data, fileName);
}

// ---------------------------------------------------------------------------------------------------------
// XLSX

/**
 * The Excel reader, without the package's writers. Loaded on the first XLSX file and let go a few
 * seconds after the last one, as the report writers are (see report.service.ts): a server that seldom
 * reads spreadsheets should not hold it.
 */
const loadWorkbook = lazyRequire<typeof ExcelJS.Workbook>('exceljs/lib/doc/workbook.js');

/** One workbook read at a time: each holds its whole sheet in memory while it is read. */
const readers = new ExportQueue({
  maxWaitMs: 30_000,
  idleMs: 2_000,
  release: { xlsx: () => loadWorkbook.release() },
});

/**
 * The ZIP's entry names, unpacking it (and throwing the bytes away) to measure it; tooLarge when it
 * unpacks to more than `max` bytes. The entries' declared sizes are not trusted: they can lie.
 */
function zipEntries(bytes: Uint8Array, max: number): { names: string[]; tooLarge: boolean } {
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
  unzip.push(bytes, true);
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

export async function parseXlsx(bytes: Buffer, fileName: string): Promise<BulkParseAnswer> {
  let entries: { names: string[]; tooLarge: boolean };
  try {
    entries = zipEntries(bytes, MAX_UNPACKED_BYTES);
  } catch {
    throw refused(bulkParseMessages.unreadableXlsx);
  }
  if (entries.tooLarge) throw refused(bulkParseMessages.unpackedTooLarge);
  // Cut off before its first entry ended.
  if (entries.names.length === 0) throw refused(bulkParseMessages.unreadableXlsx);
  if (!entries.names.some((name) => name.replace(/^\//, '') === 'xl/workbook.xml')) {
    // A ZIP, but no workbook (an .ods, a .docx, photos).
    throw refused(bulkParseMessages.notSpreadsheet);
  }
  const done = await readers.turn('xlsx');
  try {
    const Workbook = loadWorkbook();
    const workbook = new Workbook();
    try {
      // exceljs declares its own Buffer type; a Node Buffer is what it reads.
      await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    } catch {
      throw refused(bulkParseMessages.unreadableXlsx);
    }
    const sheets = workbook.worksheets;
    const sheet = sheets.find((s) => s.state === 'visible') ?? sheets[0];
    if (!sheet) throw refused(bulkParseMessages.noSheet);
    const raw: string[][] = [];
    sheet.eachRow((row) => {
      // Header and one row more than kept, so that `truncated` is known.
      if (raw.length > BULK_MAX_ROWS + 1) return;
      const values = row.values as ExcelJS.CellValue[];
      const width = Math.min(values.length, BULK_MAX_COLUMNS + 2);
      const cells: string[] = [];
      for (let column = 1; column < width; column++) cells.push(cellText(values[column]));
      raw.push(cells);
    });
    return tableOf(raw, fileName);
  } finally {
    done();
  }
}

// ---------------------------------------------------------------------------------------------------------
// The path

/** The name as the client sent it, without folders or control characters. */
function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return (name.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255);
}

/** A CSV or XLSX file's first sheet, decided by its bytes (an XLSX is a ZIP: PK\x03\x04). */
export async function parseSpreadsheet(bytes: Buffer, fileName: string): Promise<BulkParseAnswer> {
  const name = cleanFileName(fileName);
  // A file of blank lines is empty too: tableOf finds no row.
  if (bytes.length === 0) throw refused(bulkParseMessages.empty);
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    return parseXlsx(bytes, name);
  }
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw refused(bulkParseMessages.xls);
  }
  return parseCsv(bytes, name);
}
