import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect } from 'vitest';
import type { ReportFormat, ReportType } from '../../../src/analytics/analytics.schema.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import type { ScanToStore } from '../scans/rollup-model.js';
import { insertQrRow } from '../../test/fixtures.js';
import { call, signedInUser, type Response, type TestApp } from '../../test/test-app.js';
import type { ReportScan } from './report-data.js';
import { dayOfLabel } from '../scans/time-zone.js';

// Shared by the export.rest.*.test.ts files.

// ---------------------------------------------------------------------------------------------------
// The fixture: two codes of the caller, one of a neighbour, scans at known instants around local
// midnights in New York (UTC−5 in early March) and Kolkata (UTC+5:30).

export const EVIL_NAME = '=HYPERLINK("http://evil.example/?x=1","click me")';
export const MENU_NAME = 'Café Menü, 2nd floor';
export const SECRET_NAME = 'Neighbour Secret';
export const SECRET_PLACE = 'Secretville, ZZ';

export type CodeKey = 'menu' | 'evil' | 'secret';
export interface FixtureScan {
  key: string;
  code: CodeKey;
  at: string;
  device: 'Mobile' | 'Desktop' | 'Tablet' | 'Bot';
  location: string | null;
  referrer?: string;
  ip?: string;
}

export const SCANS: FixtureScan[] = [
  { key: 'A', code: 'menu', at: '2026-03-02T04:59:59.000Z', device: 'Mobile', location: 'New York, US' },
  { key: 'B', code: 'menu', at: '2026-03-02T05:00:00.000Z', device: 'Desktop', location: 'New York, US' },
  { key: 'C', code: 'evil', at: '2026-03-03T12:00:00.000Z', device: 'Bot', location: null },
  {
    key: 'D',
    code: 'menu',
    at: '2026-03-03T12:00:00.000Z',
    device: 'Mobile',
    location: 'Berlin, DE',
    referrer: 'https://news.example/a,b "quoted"',
  },
  { key: 'E', code: 'evil', at: '2026-03-04T18:29:59.000Z', device: 'Tablet', location: 'Mumbai, IN' },
  { key: 'F', code: 'evil', at: '2026-03-04T18:30:00.000Z', device: 'Mobile', location: 'Mumbai, IN' },
  { key: 'G', code: 'menu', at: '2026-03-05T04:59:59.999Z', device: 'Mobile', location: 'New York, US' },
  { key: 'H', code: 'menu', at: '2026-03-05T05:00:00.000Z', device: 'Mobile', location: 'New York, US' },
  { key: 'I', code: 'menu', at: '2026-03-01T18:30:00.000Z', device: 'Desktop', location: 'Mumbai, IN' },
  { key: 'J', code: 'menu', at: '2026-03-01T18:29:59.999Z', device: 'Desktop', location: 'Mumbai, IN' },
  { key: 'K', code: 'menu', at: '2026-02-10T12:00:00.000Z', device: 'Mobile', location: 'Berlin, DE' },
  // Around New York's spring-forward (2026-03-08 02:00 EST → 03:00 EDT).
  { key: 'L', code: 'menu', at: '2026-03-08T06:30:00.000Z', device: 'Mobile', location: 'New York, US' },
  { key: 'M', code: 'evil', at: '2026-03-08T07:30:00.000Z', device: 'Mobile', location: 'New York, US' },
  // The neighbour's, at the same instants as some of the caller's.
  { key: 'X', code: 'secret', at: '2026-03-02T05:00:00.000Z', device: 'Mobile', location: SECRET_PLACE },
  { key: 'Y', code: 'secret', at: '2026-03-03T12:00:00.000Z', device: 'Desktop', location: SECRET_PLACE },
  { key: 'Z', code: 'secret', at: '2026-03-04T20:00:00.000Z', device: 'Mobile', location: SECRET_PLACE },
];

export const ipOf = (i: number) => `198.51.${100 + i}.${i + 7}`;

/** Local date and hour of an instant, by Intl (independent of the code under test). */
export function local(iso: string, tz: string): { date: string; hour: number; wall: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  return { date, hour: Number(parts.hour), wall: `${date} ${parts.hour}:${parts.minute}:${parts.second}` };
}

export interface Expected {
  scans: FixtureScan[];
  total: number;
  byCode: Record<'menu' | 'evil', number>;
  daily: Map<string, number>;
  /**
   * Each day's unique scanners. The fixture's scans carry no visitor hash (as scans stored before
   * unique scanners were counted): a day with a person's scan is unknown (null); a day with none, 0.
   */
  dailyUniques: Map<string, number | null>;
  hourly: number[];
}

export function expected(from: string, to: string, tz: string, excludeBots = false): Expected {
  const scans = SCANS.filter((s) => {
    if (s.code === 'secret' || (excludeBots && s.device === 'Bot')) return false;
    const { date } = local(s.at, tz);
    return date >= from && date <= to;
  }).sort((a, b) => b.at.localeCompare(a.at) || b.key.localeCompare(a.key));
  const daily = new Map<string, number>();
  for (let d = dayOfLabel(from); d <= dayOfLabel(to); d++)
    daily.set(new Date(d * 86_400_000).toISOString().slice(0, 10), 0);
  const dailyUniques = new Map<string, number | null>([...daily.keys()].map((date) => [date, 0]));
  const hourly = new Array<number>(24).fill(0);
  for (const s of scans) {
    const { date, hour } = local(s.at, tz);
    daily.set(date, daily.get(date)! + 1);
    hourly[hour]! += 1;
    if (s.device !== 'Bot') dailyUniques.set(date, null);
  }
  return {
    scans,
    total: scans.length,
    byCode: {
      menu: scans.filter((s) => s.code === 'menu').length,
      evil: scans.filter((s) => s.code === 'evil').length,
    },
    daily,
    dailyUniques,
    hourly,
  };
}

export interface Fixture {
  cookie: string;
  userId: number;
  neighbourCookie: string;
  ids: Record<CodeKey, number>;
  /** Fixture key of each stored scan id. */
  keyOf: Map<number, string>;
}

export async function seed(t: TestApp): Promise<Fixture> {
  const me = await signedInUser(t, 'reporter');
  const neighbour = await signedInUser(t, 'neighbour');
  const menu = await insertQrRow(t.db, {
    userId: me.user.id,
    name: MENU_NAME,
    isDynamic: true,
    created: '2026-01-05T10:00:00.000Z',
  });
  const evil = await insertQrRow(t.db, {
    userId: me.user.id,
    name: EVIL_NAME,
    type: 'text',
    content: 'hello',
    created: '2026-02-01T23:30:00.000Z',
  });
  const secret = await insertQrRow(t.db, { userId: neighbour.user.id, name: SECRET_NAME });
  const ids = { menu: menu.id, evil: evil.id, secret: secret.id };
  const owner = { menu: me.user.id, evil: me.user.id, secret: neighbour.user.id };
  // Inserted one by one (in one transaction) so ids follow the fixture's order.
  await t.db.transaction().execute(async (trx) => {
    for (const [i, s] of SCANS.entries()) {
      const row: ScanToStore = {
        owner_id: owner[s.code],
        qr_code_id: ids[s.code],
        timestamp: s.at,
        user_agent: 'Mozilla/5.0 (test)',
        ip_address: s.ip ?? ipOf(i),
        referrer: s.referrer ?? null,
        location: s.location,
        device: s.device,
      };
      await writeScansWithRollups(trx, [row]);
    }
  });
  const stored = await t.db.selectFrom('qr_scans').select(['id', 'at']).orderBy('id').execute();
  const keyOf = new Map(stored.map((r, i) => [r.id, SCANS[i]!.key]));
  return { cookie: me.cookie, userId: me.user.id, neighbourCookie: neighbour.cookie, ids, keyOf };
}

// ---------------------------------------------------------------------------------------------------
// Reading the files back

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks; lines end in CRLF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') {
      expect(field, 'a quote may only open a field').toBe('');
      quoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      expect(ch, 'a bare line feed outside quotes').not.toBe('\n');
      field += ch;
    }
  }
  expect(quoted).toBe(false);
  expect(field === '' && row.length === 0, 'the file ends with CRLF').toBe(true);
  return rows;
}

/** Sections of a report CSV: a title line, a header row, rows; a blank line between sections. */
export function csvSections(body: Buffer): Map<string, { header: string[]; rows: string[][] }> {
  const text = body.toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const lines = parseCsv(text.slice(1));
  const sections = new Map<string, { header: string[]; rows: string[][] }>();
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && !(lines[i]!.length === 1 && lines[i]![0] === '')) continue;
    const block = lines.slice(start, i);
    expect(block.length).toBeGreaterThanOrEqual(2);
    expect(block[0]).toHaveLength(1);
    sections.set(block[0]![0]!, { header: block[1]!, rows: block.slice(2) });
    start = i + 1;
  }
  return sections;
}

export async function readXlsx(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheets = new Map<string, { header: ExcelJS.Cell[]; rows: ExcelJS.Cell[][] }>();
  workbook.eachSheet((sheet) => {
    const rows: ExcelJS.Cell[][] = [];
    sheet.eachRow((row) => {
      const cells: ExcelJS.Cell[] = [];
      for (let c = 1; c <= sheet.columnCount; c++) cells.push(row.getCell(c));
      rows.push(cells);
    });
    sheets.set(sheet.name, { header: rows[0]!, rows: rows.slice(1) });
  });
  return sheets;
}

/** Text items of every page, in drawing order, blanks dropped. */
export async function pdfText(body: Buffer): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(body), useSystemFonts: false, verbosity: 0 }).promise;
  const items: string[] = [];
  for (let p = 1; p <= pdf.numPages; p++) {
    const content = await (await pdf.getPage(p)).getTextContent();
    for (const item of content.items)
      if ('str' in item && item.str.trim() !== '') items.push(item.str.trim());
  }
  await pdf.destroy();
  return items;
}

export interface JsonReport {
  report: string;
  type: ReportType;
  from: string;
  to: string;
  tz: string;
  generatedAt: string;
  summary: {
    totalScans: number;
    uniqueScanners: number | null;
    uniqueScannersPartial: boolean;
    activeQrCodes: number;
    days: number;
    averagePerDay: number;
    deviceCategories: number;
  };
  daily: { date: string; count: number; uniqueScanners: number | null }[];
  devices: { device: string; count: number; percent: number }[];
  locations: { location: string; count: number; percent: number }[];
  hourly: { hour: number; count: number }[];
  performance: {
    qrCodeId: number;
    name: string;
    type: string;
    isDynamic: boolean;
    created: string;
    count: number;
    uniqueScanners: number | null;
    percent: number;
    lastScanAt: string | null;
  }[];
  scans?: ReportScan[];
}

export const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  json: 'application/json; charset=utf-8',
};

export function exportUrl(params: Record<string, string>): string {
  return `/api/analytics/export?${new URLSearchParams(params).toString()}`;
}

export function download(
  t: TestApp,
  cookie: string | undefined,
  params: Record<string, string>,
): Promise<Response> {
  return call(t.app, 'GET', exportUrl(params), cookie ? { cookie } : {});
}

export function expectFileHeaders(
  res: Response,
  type: ReportType,
  format: ReportFormat,
  from: string,
  to: string,
) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe(CONTENT_TYPES[format]);
  expect(res.headers['content-disposition']).toBe(
    `attachment; filename="qr-analytics-${type}-${from}-to-${to}.${format}"`,
  );
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

/**
 * The range's unique scanners in NY and KOLKATA (as analytics.service's summary figures them): every
 * person's scan of the fixture lacks a visitor hash and is left out (partial), while the bot's C, alone
 * on its code that UTC day, is a counted 0 — so 0, not unknown.
 */
export const FIXTURE_UNIQUES = { uniqueScanners: 0, uniqueScannersPartial: true };

export const NY = { from: '2026-03-02', to: '2026-03-04', tz: 'America/New_York' };
export const KOLKATA = { from: '2026-03-02', to: '2026-03-04', tz: 'Asia/Kolkata' };

export function checkJsonTotals(report: JsonReport, e: Expected, f: Fixture) {
  expect(report.summary.totalScans).toBe(e.total);
  expect(report.summary.activeQrCodes).toBe(2);
  expect(report.summary.days).toBe(e.daily.size);
  expect(report.daily).toEqual(
    [...e.daily].map(([date, count]) => ({ date, count, uniqueScanners: e.dailyUniques.get(date) })),
  );
  expect(report.hourly).toEqual(e.hourly.map((count, hour) => ({ hour, count })));
  expect(report.devices.reduce((s, d) => s + d.count, 0)).toBe(e.total);
  expect(report.locations.reduce((s, l) => s + l.count, 0)).toBe(e.total);
  const byId = new Map(report.performance.map((p) => [p.qrCodeId, p]));
  expect(byId.get(f.ids.menu)?.count).toBe(e.byCode.menu);
  expect(byId.get(f.ids.evil)?.count).toBe(e.byCode.evil);
  expect(byId.has(f.ids.secret)).toBe(false);
}
