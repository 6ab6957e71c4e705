import type { Worker } from 'node:worker_threads';
import { safeFileName } from '../../../src/file-name.js';
import { BULK_FILE_MAX_BYTES, BULK_MAX_ROWS, type BulkParseAnswer } from '../../../src/qr/bulk.js';
import type { Config } from '../../config.js';
import { appError } from '../../errors.js';
import { startWorkerThread } from '../../worker-thread.js';
import type { SheetAnswer, SheetLimits, SheetRefusal, SheetRequest, SheetWorkerData } from './bulk-sheet.js';

/**
 * POST /api/qr-codes/bulk/parse: a spreadsheet's first sheet as rows of text, read off the event loop.
 * bulk-sheet.ts reads it in a worker thread (bulk-parse.worker.ts, at the lowest priority), so that a
 * sheet that is slow to read, or a small file that unpacks to hundreds of MB, cannot hold up the short
 * links: the probe of issue 27 kept /r/<slug> waiting 8.8 s behind one 409 KB file read on the main
 * thread. Each read has a time limit (then its worker is terminated) and a heap of its own, and an
 * instance reads two files at a time.
 */

/** More columns than any sheet of codes needs; a stray cell at column XFD would otherwise make 16,384. */
export const BULK_MAX_COLUMNS = 200;
/**
 * What an XLSX may unpack to, all its entries together. A sheet of 5,000 codes is a few MB of XML; this
 * bounds what the Excel reader is given (it reads the whole workbook into memory), so a small "zip
 * bomb" is refused after a few MB more than this have been unpacked, without reaching the reader.
 */
const MAX_UNPACKED_BYTES = 48 * 1024 * 1024;
/**
 * The heap of a worker. Measured with workbooks written by ExcelJS: 5,000 rows of 40 columns (1.4 MB)
 * or 20,000 rows of 10 (1.5 MB) are read in 128 MB; 5,000 rows of 100 columns or 50,000 rows of 10
 * (3.5–3.8 MB) need 256. Past it the worker is stopped and the file refused as too large once unpacked
 * (on the main thread, a 2 KB workbook whose one merged range spans the sheet took the server down).
 * Under npm start's --max-old-space-size, which overrides a worker's resourceLimits, the worker watches
 * its heap itself, and the flag's 512 MB bounds what a stretch without a turn of its event loop takes.
 */
const WORKER_HEAP_MB = 128;
/** How a worker that went past WORKER_HEAP_MB (bulk-parse.worker.ts watches it) exits. */
const HEAP_EXIT_CODE = 90;
/** Files read at once by one instance; a third is refused with 429 rather than queued. */
const MAX_READS = 2;
const BUSY_RETRY_AFTER_SECONDS = 5;
/**
 * A worker waits this long for the next file, then ends: a few files in a row (a corrected file, a
 * script) skip its start (under npm start a first small CSV took 56–83 ms, the next 5–9 ms), and an
 * idle server holds no worker (one idle worker: about 8 MiB).
 */
const IDLE_MS = 10_000;

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
  tooSlow: `The file took too long to read: keep it to ${BULK_MAX_ROWS} rows of codes, or save it as CSV`,
  busy: 'Too many spreadsheets are being read right now: try again in a few seconds',
} as const satisfies Record<SheetRefusal, string> & Record<string, string>;

const limits: SheetLimits = {
  maxRows: BULK_MAX_ROWS,
  maxColumns: BULK_MAX_COLUMNS,
  maxUnpackedBytes: MAX_UNPACKED_BYTES,
};

function refused(message: string) {
  return appError('BAD_REQUEST', message, { field: 'file' });
}

// ---------------------------------------------------------------------------------------------------------
// The workers

function startWorker(): Worker {
  const workerData: SheetWorkerData = { heapLimitMb: WORKER_HEAP_MB, heapExitCode: HEAP_EXIT_CODE };
  const options = {
    name: 'bulk-parse',
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  };
  return startWorkerThread(
    import.meta.url,
    { source: './bulk-parse.worker.ts', bundle: './bulk-parse-worker.mjs' },
    options,
  );
}

type Outcome = { answer: SheetAnswer } | { error: Error } | { exited: number } | { timedOut: true };

class SheetReaders {
  private readonly idle = new Map<Worker, NodeJS.Timeout>();
  private readonly live = new Set<Worker>();
  private reading = 0;

  /** Workers alive, reading or idle: one stopped counts until it has exited. */
  get workers(): number {
    return this.live.size;
  }

  async read(request: SheetRequest, timeoutMs: number): Promise<BulkParseAnswer> {
    if (this.reading >= MAX_READS) {
      throw appError('TOO_MANY_REQUESTS', bulkParseMessages.busy, {
        retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
      });
    }
    this.reading += 1;
    try {
      const worker = this.take();
      const outcome = await this.ask(worker, request, timeoutMs);
      if ('timedOut' in outcome) {
        void this.stop(worker);
        throw refused(bulkParseMessages.tooSlow);
      }
      if ('error' in outcome || 'exited' in outcome) {
        void this.stop(worker);
        // Past its heap: the file is too large for the reader, whatever the ZIP declared.
        const code = 'error' in outcome ? (outcome.error as { code?: string }).code : outcome.exited;
        if (code === 'ERR_WORKER_OUT_OF_MEMORY' || code === HEAP_EXIT_CODE) {
          throw refused(bulkParseMessages.unpackedTooLarge);
        }
        throw 'error' in outcome ? outcome.error : new Error(`The spreadsheet reader exited (${code})`);
      }
      this.putBack(worker);
      const { answer } = outcome;
      if ('refused' in answer) throw refused(bulkParseMessages[answer.refused]);
      if ('failed' in answer) throw new Error(`The spreadsheet reader failed: ${answer.failed}`);
      return answer.table;
    } finally {
      this.reading -= 1;
    }
  }

  /** Ends every worker, idle or busy (the app closes): a read under way fails. */
  async close(): Promise<void> {
    await Promise.all([...this.live].map((worker) => this.stop(worker)));
  }

  private take(): Worker {
    const [idle] = this.idle;
    if (idle) {
      const [worker, timer] = idle;
      clearTimeout(timer);
      this.idle.delete(worker);
      worker.ref();
      return worker;
    }
    const worker = startWorker();
    this.live.add(worker);
    // A failure is read by the read under way (ask); without a listener it would be thrown here.
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      this.live.delete(worker);
      clearTimeout(this.idle.get(worker));
      this.idle.delete(worker);
    });
    return worker;
  }

  /** An idle worker keeps no process alive, and ends after IDLE_MS without a file. */
  private putBack(worker: Worker) {
    worker.unref();
    const timer = setTimeout(() => void this.stop(worker), IDLE_MS);
    timer.unref();
    this.idle.set(worker, timer);
  }

  /** Stops a worker at once, whatever it is doing; it leaves `live` when it has exited. */
  private async stop(worker: Worker): Promise<void> {
    clearTimeout(this.idle.get(worker));
    this.idle.delete(worker);
    await worker.terminate();
  }

  /** One file, one answer; the time counts from the request (a new worker's start included). */
  private ask(worker: Worker, request: SheetRequest, timeoutMs: number): Promise<Outcome> {
    return new Promise((resolve) => {
      const done = (outcome: Outcome) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (answer: SheetAnswer) => done({ answer });
      const onError = (error: Error) => done({ error });
      const onExit = (code: number) => done({ exited: code });
      const timer = setTimeout(() => done({ timedOut: true }), timeoutMs);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      // The bytes are the request's own copy: moved to the worker, not copied again.
      worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    });
  }
}

const readers = new SheetReaders();

/** Ends the workers; the app calls it when it closes. */
export function closeSpreadsheetReaders(): Promise<void> {
  return readers.close();
}

/** Workers alive (reading or idle): 0 once the last one has exited. */
export function spreadsheetReaderCount(): number {
  return readers.workers;
}

// ---------------------------------------------------------------------------------------------------------
// The path

/** The name as the client sent it, without folders, control or invisible format characters. */
function cleanFileName(name: string): string {
  return safeFileName(name.split(/[/\\]/).pop() ?? '').slice(0, 255);
}

/**
 * A CSV or XLSX file's first sheet (see bulk-sheet.ts), read in a worker within the configured time;
 * 429 with Retry-After while two other files are being read.
 */
export function parseSpreadsheet(
  bytes: Buffer,
  fileName: string,
  config: Pick<Config, 'bulkParseTimeoutMs'>,
): Promise<BulkParseAnswer> {
  // A copy of its own, moved to the worker: the upload's buffer may share its memory with others.
  const request: SheetRequest = { bytes: new Uint8Array(bytes), fileName: cleanFileName(fileName), limits };
  return readers.read(request, config.bulkParseTimeoutMs);
}
