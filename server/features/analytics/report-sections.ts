import type { Report, ReportScan, ReportSummary } from './report-data.js';

/**
 * A report as titled tables, the one layout the CSV (sections) and Excel (worksheets) files share.
 * A cell says what it is, so each format writes it natively: Excel dates as dates, percentages
 * as fractions formatted with %, text as text.
 */
export type Cell =
  | string
  | number
  | null
  /** A local date, YYYY-MM-DD. */
  | { date: string }
  /** A local wall time, "YYYY-MM-DD HH:mm:ss". */
  | { time: string }
  /** 0–100. */
  | { percent: number };

export interface Column {
  header: string;
  /** Excel column width, in characters. */
  width: number;
}

export interface Section {
  title: string;
  /** Worksheet name (at most 31 characters). */
  sheet: string;
  columns: Column[];
  /** Fixed rows, or pages of rows read while the file is written. */
  rows: Cell[][] | (() => AsyncIterable<Cell[][]>);
}

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

/** A unique scanners figure that was not counted (its scans came before unique scanners were), as the app shows it. */
export const NOT_COUNTED = '—';
export const UNIQUE_SCANNERS_LABEL = 'Unique scanners (daily-unique)';

/** A unique scanners figure as a cell: the number, or "—" when unknown (never 0). */
export const uniqueCell = (uniques: number | null): Cell => uniques ?? NOT_COUNTED;

/**
 * What the summary's unique scanners figure means, in the Overview's words, and what it leaves out.
 * `perDay`: the report lists the days (a day not counted shows "—" there).
 */
export function uniqueScannersNote(summary: ReportSummary, perDay: boolean): string {
  const note =
    'Unique scanners are daily-unique, per code: a person scanning on two days, or two codes, counts twice; bots never count.';
  if (summary.uniqueScanners === null)
    return `${note} Not counted (${NOT_COUNTED}): the range's scans were recorded before unique scanners were counted.`;
  if (summary.uniqueScannersPartial) {
    const days = perDay ? ` (their days show ${NOT_COUNTED})` : '';
    return `${note} Scans recorded before unique scanners were counted are left out${days}.`;
  }
  return note;
}

/** `perDay`: the report has a daily table (see `uniqueScannersNote`). */
function summarySection(report: Report, perDay: boolean): Section {
  const { summary } = report;
  return {
    title: 'Summary',
    sheet: 'Summary',
    columns: [
      { header: 'Metric', width: 30 },
      { header: 'Value', width: 32 },
    ],
    rows: [
      ['Report', report.title],
      ['From', { date: report.from }],
      ['To', { date: report.to }],
      ['Time zone', report.tz],
      ['Bots excluded', yesNo(report.excludeBots)],
      ['Generated (local time)', { time: report.localTime(Date.parse(report.generatedAt)) }],
      ['Generated (UTC)', report.generatedAt],
      ['Total scans', summary.totalScans],
      [UNIQUE_SCANNERS_LABEL, uniqueCell(summary.uniqueScanners)],
      ['About unique scanners', uniqueScannersNote(summary, perDay)],
      ['Active QR codes', summary.activeQrCodes],
      ['Days', summary.days],
      ['Average scans per day', summary.averagePerDay],
      ['Device categories', summary.deviceCategories],
    ],
  };
}

function dailySection(report: Report): Section {
  return {
    title: 'Daily scans',
    sheet: 'Daily scans',
    columns: [
      { header: 'Date', width: 12 },
      { header: 'Scans', width: 10 },
      { header: 'Unique scanners', width: 16 },
    ],
    rows: report.daily.map((d) => [{ date: d.date }, d.count, uniqueCell(d.uniqueScanners)]),
  };
}

function devicesSection(report: Report): Section {
  return {
    title: 'Scans by device',
    sheet: 'Devices',
    columns: [
      { header: 'Device', width: 14 },
      { header: 'Scans', width: 10 },
      { header: 'Share (%)', width: 10 },
    ],
    rows: report.devices.map((d) => [d.device, d.count, { percent: d.percent }]),
  };
}

function locationsSection(report: Report): Section {
  return {
    title: 'Top locations',
    sheet: 'Locations',
    columns: [
      { header: 'Location', width: 32 },
      { header: 'Scans', width: 10 },
      { header: 'Share (%)', width: 10 },
    ],
    rows: report.locations.map((l) => [l.location, l.count, { percent: l.percent }]),
  };
}

/** "12 AM", "1 AM" … "12 PM" … "11 PM", as the Overview chart labels hours. */
export function hourLabel(hour: number): string {
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h} ${hour < 12 ? 'AM' : 'PM'}`;
}

function hourlySection(report: Report): Section {
  return {
    title: 'Scans by hour of day',
    sheet: 'Hours',
    columns: [
      { header: 'Hour', width: 8 },
      { header: 'Label', width: 8 },
      { header: 'Scans', width: 10 },
    ],
    rows: report.hourly.map((h) => [h.hour, hourLabel(h.hour), h.count]),
  };
}

function performanceSection(report: Report, detailed: boolean): Section {
  const local = (iso: string | null) => (iso ? { time: report.localTime(Date.parse(iso)) } : null);
  return {
    title: 'QR code performance',
    sheet: 'Performance',
    columns: detailed
      ? [
          { header: 'QR code', width: 32 },
          { header: 'Type', width: 10 },
          { header: 'Kind', width: 10 },
          { header: 'Created (local time)', width: 20 },
          { header: 'Scans', width: 10 },
          { header: 'Unique scanners', width: 16 },
          { header: 'Share (%)', width: 10 },
          { header: 'Last scan (local time)', width: 20 },
        ]
      : [
          { header: 'QR code', width: 32 },
          { header: 'Type', width: 10 },
          { header: 'Scans', width: 10 },
          { header: 'Unique scanners', width: 16 },
          { header: 'Share (%)', width: 10 },
        ],
    rows: report.performance.map((r) =>
      detailed
        ? [
            r.name,
            r.type,
            r.isDynamic ? 'Dynamic' : 'Static',
            local(r.created),
            r.count,
            uniqueCell(r.uniqueScanners),
            { percent: r.percent },
            local(r.lastScanAt),
          ]
        : [r.name, r.type, r.count, uniqueCell(r.uniqueScanners), { percent: r.percent }],
    ),
  };
}

export const scanRow = (s: ReportScan): Cell[] => [
  s.timestamp,
  { time: s.localTime },
  s.qrCodeName,
  s.device,
  s.location,
  s.referrer,
  s.ipAddress,
];

function scansSection(report: Report): Section {
  return {
    title: 'Scans',
    sheet: 'Scans',
    columns: [
      { header: 'Time (UTC, ISO 8601)', width: 26 },
      { header: `Local time (${report.tz})`, width: 20 },
      { header: 'QR code', width: 28 },
      { header: 'Device', width: 10 },
      { header: 'Location', width: 24 },
      { header: 'Referrer', width: 30 },
      { header: 'IP address (masked)', width: 18 },
    ],
    rows: async function* () {
      for await (const page of report.scans()) yield page.map(scanRow);
    },
  };
}

/** The tables of each report type, in order. */
export function sectionsOf(report: Report): Section[] {
  switch (report.type) {
    case 'full':
      return [
        summarySection(report, true),
        dailySection(report),
        devicesSection(report),
        locationsSection(report),
        hourlySection(report),
        performanceSection(report, false),
      ];
    case 'activity':
      return [summarySection(report, true), dailySection(report), scansSection(report)];
    case 'performance':
      return [summarySection(report, false), performanceSection(report, true)];
  }
}
