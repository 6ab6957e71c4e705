import { Readable } from 'node:stream';
import type { ExportInput, ReportFormat } from '../../../src/analytics/analytics.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { csvReport } from './report-csv.js';
import { loadReport, type ReportScan } from './report-data.js';
import { jsonReport } from './report-json.js';
import { PDF_SCAN_LIMIT, pdfReport } from './report-pdf.js';
import { sectionsOf } from './report-sections.js';
import { xlsxReport } from './report-xlsx.js';

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
 * A report of the caller's own codes for the inclusive local dates `from`..`to` in `tz`. Input is
 * checked first and the figures are read before anything is sent, so a bad request or a failing
 * query still answers a JSON error; only the raw scans are read while the file streams.
 */
export async function exportReport(deps: AppDeps, user: User, input: ExportInput): Promise<ReportFile> {
  const report = await loadReport(deps, user, input);
  const fileName = `qr-analytics-${input.type}-${input.from}-to-${input.to}.${input.format}`;
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
        xlsxReport(sectionsOf(report), { title: report.title, created: new Date(report.generatedAt) }),
      );
    case 'pdf': {
      let scans: { rows: ReportScan[]; total: number } | undefined;
      if (report.type === 'activity') {
        const rows: ReportScan[] = [];
        for await (const page of report.scans({ limit: PDF_SCAN_LIMIT })) rows.push(...page);
        scans = { rows, total: report.summary.totalScans };
      }
      return file(pdfReport(report, scans));
    }
  }
}
