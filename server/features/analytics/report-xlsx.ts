import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { lazyRequire } from '../../lazy-require.js';
import type { Cell, Section } from './report-sections.js';

/** Excel times have no zone: a local wall time is written as that wall time. */
function wallDate(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`);
}

/**
 * One style object per kind of cell, shared by every cell of that kind: exceljs caches a style's id
 * by object identity, so 250,000 rows cost a lookup each instead of a style comparison per cell.
 */
const STYLES = {
  plain: {},
  date: { numFmt: 'yyyy-mm-dd' },
  time: { numFmt: 'yyyy-mm-dd hh:mm:ss' },
  percent: { numFmt: '0.0%' },
} satisfies Record<string, Partial<ExcelJS.Style>>;

function valueOf(cell: Cell): { value: ExcelJS.CellValue; style: Partial<ExcelJS.Style> } {
  if (cell === null || typeof cell === 'string' || typeof cell === 'number')
    return { value: cell, style: STYLES.plain };
  if ('date' in cell) return { value: wallDate(`${cell.date} 00:00:00`), style: STYLES.date };
  if ('time' in cell) return { value: wallDate(cell.time), style: STYLES.time };
  return { value: cell.percent / 100, style: STYLES.percent };
}

function writeRow(sheet: ExcelJS.Worksheet, cells: readonly Cell[]) {
  const values = cells.map(valueOf);
  const row = sheet.addRow(values.map((v) => v.value));
  values.forEach((v, i) => {
    row.getCell(i + 1).style = v.style;
  });
  row.commit();
}

class Aborted extends Error {}

/**
 * exceljs's streaming writer pushes each sheet's XML into the zip without waiting (its StreamBuf
 * ignores backpressure), so a fast producer — SQLite answers synchronously — would queue the whole
 * sheet in memory ahead of the compressor (measured: ~90 MB queued at 250,000 rows). Between pages
 * we wait while more than MAX_QUEUED bytes wait in the zip's input stream for the sheet, and while
 * the response is full. That input stream is reached through exceljs internals
 * (`sheet.stream.pipes`, exceljs 4.4); without them this still waits for the response.
 * Node streams have `writableLength`; the readable-stream 2 copy inside archiver only keeps the state.
 */
type Pipe = Writable & { _writableState?: { length?: number } };
const queued = (pipe: Pipe) => pipe.writableLength ?? pipe._writableState?.length ?? 0;
/** XML allowed to wait for the compressor: enough to keep it busy while the next page is made. */
const MAX_QUEUED = 4 * 1024 * 1024;

/** Waits for `stream` to drain; gives up (Aborted) when the download is closed meanwhile. */
async function drained(stream: NodeJS.EventEmitter, out: PassThrough) {
  if (out.destroyed) throw new Aborted('the download was cancelled');
  const closed = new AbortController();
  const onClose = () => closed.abort();
  out.once('close', onClose);
  try {
    await once(stream, 'drain', { signal: closed.signal });
  } catch (error) {
    throw closed.signal.aborted ? new Aborted('the download was cancelled') : error;
  } finally {
    out.off('close', onClose);
  }
}

async function breathe(sheet: ExcelJS.Worksheet, out: PassThrough) {
  if (out.destroyed) throw new Aborted('the download was cancelled');
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown } }).stream?.pipes;
  for (const pipe of Array.isArray(pipes) ? (pipes as Pipe[]) : []) {
    if (queued(pipe) > MAX_QUEUED) await drained(pipe, out);
  }
  await new Promise((resolve) => setImmediate(resolve));
  if (out.writableNeedDrain) await drained(out, out);
}

/**
 * Only the streaming writer: the package's entry also loads the readers (unzipper, jszip, fast-csv and
 * their dependencies), 670 modules in all against 210, for twice the memory.
 */
const loadWorkbookWriter = lazyRequire<typeof ExcelJS.stream.xlsx.WorkbookWriter>(
  'exceljs/lib/stream/xlsx/workbook-writer.js',
);

/** Lets the Excel writer's modules go (loaded again by the next workbook). */
export function releaseXlsxWriter() {
  loadWorkbookWriter.release();
}

/** An .xlsx workbook, one worksheet per section, written row by row to the returned stream. */
export function xlsxReport(sections: readonly Section[], meta: { title: string; created: Date }): Readable {
  const out = new PassThrough();
  const WorkbookWriter = loadWorkbookWriter();
  const workbook = new WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'QR Creator';
  workbook.title = meta.title;
  workbook.created = meta.created;

  const write = async () => {
    for (const section of sections) {
      const sheet = workbook.addWorksheet(section.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = section.columns.map((c) => ({ width: c.width }));
      const header = sheet.addRow(section.columns.map((c) => c.header));
      header.font = { bold: true };
      header.commit();
      if (Array.isArray(section.rows)) {
        for (const cells of section.rows) writeRow(sheet, cells);
      } else {
        for await (const page of section.rows()) {
          for (const cells of page) writeRow(sheet, cells);
          await breathe(sheet, out);
        }
      }
      sheet.commit();
    }
    await workbook.commit();
  };
  write().catch((error: unknown) => {
    if (!out.destroyed) out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}
