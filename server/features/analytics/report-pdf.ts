import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type PDFKitDocument from 'pdfkit';
import { lazyRequire } from '../../lazy-require.js';
import type { Report, ReportScan } from './report-data.js';
import { hourLabel, NOT_COUNTED, UNIQUE_SCANNERS_LABEL, uniqueScannersNote } from './report-sections.js';

/** Rows of the Scan Activity PDF's scans table; CSV and Excel carry them all. */
export const PDF_SCAN_LIMIT = 500;
/** Longer ranges get a daily table instead of a bar chart (bars would be thinner than a line). */
export const PDF_CHART_MAX_DAYS = 92;

const MARGIN = 48;
const INK = '#1F2937';
const MUTED = '#6B7280';
const LINE = '#D1D5DB';
const GRID = '#E5E7EB';
const STRIPE = '#F3F4F6';
const BAR = '#3B82F6';
const REGULAR = 'Body';
const BOLD = 'Body-Bold';

/**
 * DejaVu Sans, embedded (subset) in every report: unlike the PDF standard fonts, which only draw
 * WinAnsi, it draws Latin, Greek, Cyrillic, Hebrew and Arabic letters, so code and place names print
 * as they are (scripts it lacks, such as CJK, show as empty boxes).
 */
const require = createRequire(import.meta.url);
const FONT_FILES = {
  [REGULAR]: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  [BOLD]: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
};

type Doc = PDFKit.PDFDocument;

/** Text for the PDF: one line, no control characters (tabs and line breaks become spaces). */
export function pdfText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

const thousands = (v: number) => v.toLocaleString('en-US');
/** A unique scanners figure: "—" when it was not counted, never 0. */
const uniques = (v: number | null) => (v === null ? NOT_COUNTED : thousands(v));
const percent = (v: number) => `${v.toFixed(1)}%`;

const loadPdfKit = lazyRequire<typeof PDFKitDocument>('pdfkit');

/** Lets pdfkit's modules go (loaded again by the next PDF). */
export function releasePdfWriter() {
  loadPdfKit.release();
}

class PdfWriter {
  readonly doc: Doc;

  constructor(title: string) {
    const PDFDocument = loadPdfKit();
    this.doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      bufferPages: true,
      info: { Title: title, Creator: 'QR Creator', Producer: 'QR Creator' },
    });
    for (const [name, file] of Object.entries(FONT_FILES)) this.doc.registerFont(name, file);
    this.doc.font(REGULAR).fillColor(INK);
  }

  get width() {
    return this.doc.page.width - 2 * MARGIN;
  }

  get bottom() {
    return this.doc.page.height - MARGIN - 14; // room for the footer
  }

  /** Starts a new page unless `height` more points fit on this one. */
  ensure(height: number) {
    if (this.doc.y + height > this.bottom) {
      this.doc.addPage();
      this.doc.y = MARGIN;
    }
  }

  /** One line cut to `width` with an ellipsis. */
  fit(text: string, width: number): string {
    const safe = pdfText(text);
    if (this.doc.widthOfString(safe) <= width) return safe;
    let lo = 0;
    let hi = safe.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.doc.widthOfString(`${safe.slice(0, mid)}…`) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${safe.slice(0, lo)}…`;
  }

  cell(text: string, x: number, y: number, width: number, align: 'left' | 'right' = 'left') {
    this.doc.text(this.fit(text, width - 8), x + 4, y, { width: width - 8, align, lineBreak: false });
  }

  /** A section title, kept on one page with the first `next` points of what follows. */
  heading(text: string, next = 40) {
    this.ensure(28 + next);
    this.doc.y += 10;
    this.doc.font(BOLD).fontSize(12).fillColor(INK);
    this.doc.text(pdfText(text), MARGIN, this.doc.y, { lineBreak: false });
    this.doc.y += 18;
  }

  note(text: string) {
    this.ensure(16);
    this.doc.font(REGULAR).fontSize(8.5).fillColor(MUTED);
    this.doc.text(pdfText(text), MARGIN, this.doc.y, { width: this.width });
    this.doc.y += 4;
    this.doc.fillColor(INK);
  }

  header(report: Report) {
    const { doc } = this;
    doc.font(BOLD).fontSize(20).fillColor(INK).text(pdfText(report.title), MARGIN, MARGIN);
    doc.moveDown(0.3);
    doc.font(REGULAR).fontSize(10).fillColor(MUTED);
    const bots = report.excludeBots ? ' · bots excluded' : '';
    doc.text(pdfText(`Period: ${report.from} to ${report.to} (${report.tz})${bots}`));
    doc.text(
      pdfText(
        `Generated: ${report.localTime(Date.parse(report.generatedAt))} (${report.tz}) · ${report.generatedAt}`,
      ),
    );
    doc.fillColor(INK);
    doc.y += 6;
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + this.width, doc.y)
      .strokeColor(LINE)
      .lineWidth(0.8)
      .stroke();
    doc.y += 8;
  }

  /** The summary figures as a row of labelled numbers. */
  figures(items: [string, string][]) {
    const { doc } = this;
    const perRow = 3;
    const w = this.width / perRow;
    for (let i = 0; i < items.length; i += perRow) {
      this.ensure(40);
      const y = doc.y;
      items.slice(i, i + perRow).forEach(([label, value], j) => {
        const x = MARGIN + j * w;
        doc.font(REGULAR).fontSize(8.5).fillColor(MUTED);
        doc.text(pdfText(label), x, y, { width: w - 8, lineBreak: false });
        doc.font(BOLD).fontSize(16).fillColor(INK);
        doc.text(pdfText(value), x, y + 12, { width: w - 8, lineBreak: false });
      });
      doc.y = y + 38;
    }
  }

  /** A table with a bold header repeated on every page, striped rows, text cut to its column. */
  table(columns: { header: string; width: number; align?: 'left' | 'right' }[], rows: string[][]) {
    const { doc } = this;
    const rowHeight = 13;
    const total = columns.reduce((s, c) => s + c.width, 0);
    const widths = columns.map((c) => (c.width / total) * this.width);
    const drawHeader = () => {
      const y = doc.y;
      doc.font(BOLD).fontSize(8).fillColor(INK);
      let x = MARGIN;
      columns.forEach((c, i) => {
        this.cell(c.header, x, y + 3, widths[i]!, c.align);
        x += widths[i]!;
      });
      doc
        .moveTo(MARGIN, y + rowHeight + 1)
        .lineTo(MARGIN + this.width, y + rowHeight + 1)
        .strokeColor(LINE)
        .lineWidth(0.8)
        .stroke();
      doc.y = y + rowHeight + 3;
      doc.font(REGULAR).fontSize(8).fillColor(INK);
    };
    this.ensure(rowHeight * 3);
    drawHeader();
    rows.forEach((row, r) => {
      if (doc.y + rowHeight > this.bottom) {
        doc.addPage();
        doc.y = MARGIN;
        drawHeader();
      }
      const y = doc.y;
      if (r % 2 === 1) doc.rect(MARGIN, y, this.width, rowHeight).fill(STRIPE).fillColor(INK);
      let x = MARGIN;
      row.forEach((text, i) => {
        this.cell(text, x, y + 3, widths[i]!, columns[i]?.align);
        x += widths[i]!;
      });
      doc.y = y + rowHeight;
    });
    if (rows.length === 0) this.note('No data.');
    doc.y += 6;
  }

  /**
   * Daily counts as side-by-side Date/Scans/Unique scanners blocks, filling each page column by column
   * (two blocks across: three would leave "Unique scanners" too narrow a column).
   */
  dailyTable(daily: Report['daily']) {
    const { doc } = this;
    const blocks = 2;
    const gap = 16;
    const blockWidth = (this.width - gap * (blocks - 1)) / blocks;
    const rowHeight = 12;
    // Date, Scans, Unique scanners: shares of a block's width.
    const dateW = blockWidth * 0.34;
    const scansW = blockWidth * 0.28;
    const uniquesW = blockWidth - dateW - scansW;
    let i = 0;
    while (i < daily.length) {
      this.ensure(rowHeight * 4);
      const top = doc.y;
      const perBlock = Math.max(1, Math.floor((this.bottom - top - rowHeight - 3) / rowHeight));
      let lowest = top;
      for (let b = 0; b < blocks && i < daily.length; b++) {
        const x = MARGIN + b * (blockWidth + gap);
        doc.font(BOLD).fontSize(8).fillColor(INK);
        this.cell('Date', x, top + 2, dateW);
        this.cell('Scans', x + dateW, top + 2, scansW, 'right');
        this.cell('Unique scanners', x + dateW + scansW, top + 2, uniquesW, 'right');
        doc
          .moveTo(x, top + rowHeight + 1)
          .lineTo(x + blockWidth, top + rowHeight + 1)
          .strokeColor(LINE)
          .lineWidth(0.8)
          .stroke();
        doc.font(REGULAR).fontSize(8).fillColor(INK);
        let y = top + rowHeight + 3;
        for (let r = 0; r < perBlock && i < daily.length; r++, i++) {
          const d = daily[i]!;
          this.cell(d.date, x, y + 2, dateW);
          this.cell(thousands(d.count), x + dateW, y + 2, scansW, 'right');
          this.cell(uniques(d.uniqueScanners), x + dateW + scansW, y + 2, uniquesW, 'right');
          y += rowHeight;
        }
        lowest = Math.max(lowest, y);
      }
      doc.y = lowest + 6;
    }
  }

  /** A bar chart in vector graphics, with a value axis, gridlines, and axis titles. */
  barChart(options: {
    bars: { label: string; value: number }[];
    xTitle: string;
    yTitle: string;
    height?: number;
  }) {
    const { doc } = this;
    const { bars } = options;
    const height = options.height ?? 170;
    this.ensure(height + 10);
    const top = doc.y;
    const left = MARGIN + 40;
    const right = MARGIN + this.width;
    const plotTop = top + 6;
    const plotBottom = top + height - 34;
    const plotHeight = plotBottom - plotTop;
    const max = Math.max(1, ...bars.map((b) => b.value));
    const step = niceStep(max / 4);
    const axisMax = Math.ceil(max / step) * step;

    doc.font(REGULAR).fontSize(7).fillColor(MUTED).lineWidth(0.5);
    for (let v = 0; v <= axisMax; v += step) {
      const y = plotBottom - (v / axisMax) * plotHeight;
      doc.moveTo(left, y).lineTo(right, y).strokeColor(GRID).stroke();
      doc.text(thousands(v), left - 34, y - 3, { width: 30, align: 'right', lineBreak: false });
    }
    const slot = (right - left) / Math.max(1, bars.length);
    const barWidth = Math.max(0.8, slot * 0.72);
    const labelEvery = Math.max(1, Math.ceil(bars.length / 12));
    bars.forEach((bar, i) => {
      const x = left + i * slot + (slot - barWidth) / 2;
      const h = (bar.value / axisMax) * plotHeight;
      if (h > 0) doc.rect(x, plotBottom - h, barWidth, h).fill(BAR);
      if (i % labelEvery === 0) {
        doc.fillColor(MUTED).fontSize(6.5);
        doc.text(pdfText(bar.label), left + i * slot - 20 + slot / 2, plotBottom + 4, {
          width: 40,
          align: 'center',
          lineBreak: false,
        });
      }
    });
    doc
      .moveTo(left, plotTop)
      .lineTo(left, plotBottom)
      .lineTo(right, plotBottom)
      .strokeColor(INK)
      .lineWidth(0.8)
      .stroke();

    doc.font(REGULAR).fontSize(7.5).fillColor(INK);
    doc.text(pdfText(options.xTitle), left, plotBottom + 16, {
      width: right - left,
      align: 'center',
      lineBreak: false,
    });
    doc.save();
    doc.rotate(-90, { origin: [MARGIN, plotBottom] });
    doc.text(pdfText(options.yTitle), MARGIN, plotBottom, {
      width: plotHeight,
      align: 'center',
      lineBreak: false,
    });
    doc.restore();
    doc.y = top + height;
  }

  /** "Page n of m" on every page; then the document is complete. */
  finish(label: string) {
    const { doc } = this;
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const bottomMargin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0; // writing below the margin must not start a new page
      doc.font(REGULAR).fontSize(7.5).fillColor(MUTED);
      doc.text(pdfText(`${label} · page ${i + 1} of ${range.count}`), MARGIN, doc.page.height - MARGIN + 6, {
        width: this.width,
        align: 'right',
        lineBreak: false,
      });
      doc.page.margins.bottom = bottomMargin;
    }
    doc.end();
  }
}

/** 1, 2, 5, 10, 20, 50…: a whole-number axis step near `raw`. */
function niceStep(raw: number): number {
  if (raw <= 1) return 1;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * pow;
}

/** Long ranges list the days in a table (with their unique scanners); shorter ones get a bar chart of scans. */
const dailyAsTable = (report: Report) => report.daily.length > PDF_CHART_MAX_DAYS;

function daily(w: PdfWriter, report: Report) {
  w.heading('Daily scans', dailyAsTable(report) ? 60 : 180);
  if (!dailyAsTable(report)) {
    w.barChart({
      bars: report.daily.map((d) => ({ label: d.date.slice(5), value: d.count })),
      xTitle: `Date (${report.tz})`,
      yTitle: 'Scans',
    });
  } else {
    w.dailyTable(report.daily);
  }
}

const right = 'right' as const;

/**
 * The report as an A4 PDF: title, period, generation time and summary figures, a daily bar chart
 * (or table for long ranges), then the type's tables. Scan Activity lists the first `scans.rows`
 * of `scans.total` scans and says so.
 */
export function pdfReport(report: Report, scans?: { rows: ReportScan[]; total: number }): Readable {
  const w = new PdfWriter(report.title);
  const { summary } = report;
  w.header(report);
  w.figures([
    ['Total scans', thousands(summary.totalScans)],
    [UNIQUE_SCANNERS_LABEL, uniques(summary.uniqueScanners)],
    ['Active QR codes', thousands(summary.activeQrCodes)],
    ['Scans per day (average)', summary.averagePerDay.toLocaleString('en-US', { maximumFractionDigits: 2 })],
    ['Days', thousands(summary.days)],
    ['Device categories', thousands(summary.deviceCategories)],
  ]);
  // Days show their unique scanners in the daily table only, not on the bar chart.
  w.note(uniqueScannersNote(summary, report.type !== 'performance' && dailyAsTable(report)));
  const local = (iso: string | null) => (iso ? report.localTime(Date.parse(iso)).slice(0, 16) : '—');

  if (report.type === 'full') {
    daily(w, report);
    w.heading('Scans by device');
    w.table(
      [
        { header: 'Device', width: 3 },
        { header: 'Scans', width: 1, align: right },
        { header: 'Share', width: 1, align: right },
      ],
      report.devices.map((d) => [d.device, thousands(d.count), percent(d.percent)]),
    );
    w.heading('Top locations');
    w.table(
      [
        { header: 'Location', width: 3 },
        { header: 'Scans', width: 1, align: right },
        { header: 'Share', width: 1, align: right },
      ],
      report.locations.slice(0, 10).map((l) => [l.location, thousands(l.count), percent(l.percent)]),
    );
    if (report.locations.length > 10) w.note(`Top 10 of ${report.locations.length} locations.`);
    w.heading('Scans by hour of day', 160);
    w.barChart({
      bars: report.hourly.map((h) => ({ label: hourLabel(h.hour), value: h.count })),
      xTitle: `Hour of day (${report.tz})`,
      yTitle: 'Scans',
      height: 150,
    });
  }

  if (report.type === 'activity') {
    daily(w, report);
    w.heading('Scans');
    const rows = scans?.rows ?? [];
    const total = Math.max(scans?.total ?? 0, rows.length);
    if (rows.length < total) {
      w.note(`First ${thousands(rows.length)} of ${thousands(total)} scans — use CSV or Excel for all.`);
    }
    w.note(`Newest first; times in ${report.tz}; addresses masked.`);
    w.table(
      [
        { header: 'Local time', width: 2.3 },
        { header: 'QR code', width: 2.6 },
        { header: 'Device', width: 1.2 },
        { header: 'Location', width: 2.2 },
        { header: 'Referrer', width: 2.2 },
        { header: 'IP (masked)', width: 1.5 },
      ],
      rows.map((s) => [
        s.localTime,
        s.qrCodeName,
        s.device,
        s.location ?? '',
        s.referrer ?? '',
        s.ipAddress ?? '',
      ]),
    );
  }

  w.heading('QR code performance');
  if (report.type === 'performance') {
    w.table(
      [
        { header: 'QR code', width: 2.6 },
        { header: 'Type', width: 0.9 },
        { header: 'Kind', width: 1.1 },
        { header: 'Created', width: 1.9 },
        { header: 'Scans', width: 0.9, align: right },
        { header: 'Unique', width: 0.9, align: right },
        { header: 'Share', width: 0.9, align: right },
        { header: 'Last scan', width: 1.9 },
      ],
      report.performance.map((r) => [
        r.name,
        r.type,
        r.isDynamic ? 'Dynamic' : 'Static',
        local(r.created),
        thousands(r.count),
        uniques(r.uniqueScanners),
        percent(r.percent),
        local(r.lastScanAt),
      ]),
    );
    w.note(`Times in ${report.tz}; last scan within the period.`);
  } else {
    w.table(
      [
        { header: 'QR code', width: 4 },
        { header: 'Type', width: 1.2 },
        { header: 'Scans', width: 1, align: right },
        { header: 'Unique', width: 1, align: right },
        { header: 'Share', width: 1, align: right },
      ],
      report.performance.map((r) => [
        r.name,
        r.type,
        thousands(r.count),
        uniques(r.uniqueScanners),
        percent(r.percent),
      ]),
    );
  }

  w.finish(`${report.title} · ${report.from} to ${report.to}`);
  return w.doc;
}
