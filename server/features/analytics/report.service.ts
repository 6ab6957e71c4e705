import { finished, Readable } from 'node:stream';
import {
  reportFileName,
  type ExportInput,
  type ReportFormat,
} from '../../../src/analytics/analytics.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { csvReport } from './report-csv.js';
import { loadReport, type ReportScan } from './report-data.js';
import { jsonReport } from './report-json.js';
import { ExportQueue } from './export-queue.js';
import { PDF_SCAN_LIMIT, pdfReport, releasePdfWriter } from './report-pdf.js';
import { sectionsOf } from './report-sections.js';
import { releaseXlsxWriter, xlsxReport } from './report-xlsx.js';

export const REPORT_CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  json: 'application/json; charset=utf-8',
};

export interface ReportFile {
  fileName: string;
  contentType: string;
  /** Written while it is read: the raw scans are fetched page by page as the client takes them. */
  body: Readable;
}

/**
 * PDF and Excel files are written one at a time, and only the library of the one under way is kept
 * (pdfkit holds about 7 MiB of heap once loaded, the Excel writer 4): the other is let go when its
 * turn starts, and both a few seconds after the last export, as a server that exports now and then
 * should not hold them. Loading one again takes 0.1–0.3 s.
 */
const heavyExports = new ExportQueue({
  maxWaitMs: 60_000,
  idleMs: 2_000,
  release: { pdf: releasePdfWriter, xlsx: releaseXlsxWriter },
});

/** Runs `write` in its turn of the queue, which ends when its file has been sent or abandoned. */
async function inTurn(kind: 'pdf' | 'xlsx', write: () => Readable | Promise<Readable>): Promise<Readable> {
  const end = await heavyExports.turn(kind);
  try {
    const body = await write();
    finished(body, end);
    return body;
  } catch (error) {
    end();
    throw error;
  }
}

/**
 * A report of the caller's own codes for the inclusive local dates `from`..`to` in `tz`. Input is
 * checked first and the figures are read before anything is sent, so a bad request or a failing
 * query still answers a JSON error; only the raw scans are read while the file streams.
 */
export async function exportReport(deps: AppDeps, user: User, input: ExportInput): Promise<ReportFile> {
  const report = await loadReport(deps, user, input);
  const fileName = reportFileName(input);
  const file = (body: Readable): ReportFile => ({
    fileName,
    contentType: REPORT_CONTENT_TYPES[input.format],
    body,
  });

  switch (input.format) {
    case 'csv':
      return file(Readable.from(csvReport(sectionsOf(report)), { objectMode: false }));
    case 'json':
      return file(Readable.from(jsonReport(report), { objectMode: false }));
    case 'xlsx':
      return file(
        await inTurn('xlsx', () =>
          xlsxReport(sectionsOf(report), { title: report.title, created: new Date(report.generatedAt) }),
        ),
      );
    case 'pdf':
      return file(
        await inTurn('pdf', async () => {
          let scans: { rows: ReportScan[]; total: number } | undefined;
          if (report.type === 'activity') {
            const rows: ReportScan[] = [];
            for await (const page of report.scans({ limit: PDF_SCAN_LIMIT })) rows.push(...page);
            scans = { rows, total: report.summary.totalScans };
          }
          return pdfReport(report, scans);
        }),
      );
  }
}
