import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import {
  REPORT_FORMATS,
  REPORT_TYPES,
  REPORT_TYPE_LABELS,
  type ReportFormat,
  type ReportType,
} from '../../../src/analytics/analytics.schema.js';
import type { Db } from '../../db/database.js';
import { writeScansWithRollups, type ScanToStore } from '../scans/scan-rollups.js';
import { call, expectRestError, insertQrRow, signedInUser } from '../../test/qr-fixtures.js';
import { createTestClock, useTestApp, type Response, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { maskIp, readScans, type ReportScan } from './report-data.js';
import { pdfText as pdfSafe } from './report-pdf.js';
import { datesPeriod } from './analytics.service.js';
import { dayOfLabel } from './time-zone.js';

// ---------------------------------------------------------------------------------------------------
// The fixture: two codes of the caller, one of a neighbour, scans at known instants around local
// midnights in New York (UTC−5 in early March) and Kolkata (UTC+5:30).

const EVIL_NAME = '=HYPERLINK("http://evil.example/?x=1","click me")';
const MENU_NAME = 'Café Menü, 2nd floor';
const SECRET_NAME = 'Neighbour Secret';
const SECRET_PLACE = 'Secretville, ZZ';

type CodeKey = 'menu' | 'evil' | 'secret';
interface FixtureScan {
  key: string;
  code: CodeKey;
  at: string;
  device: 'Mobile' | 'Desktop' | 'Tablet' | 'Bot';
  location: string | null;
  referrer?: string;
  ip?: string;
}

const SCANS: FixtureScan[] = [
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

const ipOf = (i: number) => `198.51.${100 + i}.${i + 7}`;

/** Local date and hour of an instant, by Intl (independent of the code under test). */
function local(iso: string, tz: string): { date: string; hour: number; wall: string } {
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

interface Expected {
  scans: FixtureScan[];
  total: number;
  byCode: Record<'menu' | 'evil', number>;
  daily: Map<string, number>;
  hourly: number[];
}

function expected(from: string, to: string, tz: string, excludeBots = false): Expected {
  const scans = SCANS.filter((s) => {
    if (s.code === 'secret' || (excludeBots && s.device === 'Bot')) return false;
    const { date } = local(s.at, tz);
    return date >= from && date <= to;
  }).sort((a, b) => b.at.localeCompare(a.at) || b.key.localeCompare(a.key));
  const daily = new Map<string, number>();
  for (let d = dayOfLabel(from); d <= dayOfLabel(to); d++)
    daily.set(new Date(d * 86_400_000).toISOString().slice(0, 10), 0);
  const hourly = new Array<number>(24).fill(0);
  for (const s of scans) {
    const { date, hour } = local(s.at, tz);
    daily.set(date, daily.get(date)! + 1);
    hourly[hour]! += 1;
  }
  return {
    scans,
    total: scans.length,
    byCode: {
      menu: scans.filter((s) => s.code === 'menu').length,
      evil: scans.filter((s) => s.code === 'evil').length,
    },
    daily,
    hourly,
  };
}

interface Fixture {
  cookie: string;
  userId: number;
  neighbourCookie: string;
  ids: Record<CodeKey, number>;
  /** Fixture key of each stored scan id. */
  keyOf: Map<number, string>;
}

async function seed(t: TestApp): Promise<Fixture> {
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
  const stored = await t.db.selectFrom('qr_scans').select(['id', 'timestamp']).orderBy('id').execute();
  const keyOf = new Map(stored.map((r, i) => [r.id, SCANS[i]!.key]));
  return { cookie: me.cookie, userId: me.user.id, neighbourCookie: neighbour.cookie, ids, keyOf };
}

// ---------------------------------------------------------------------------------------------------
// Reading the files back

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks; lines end in CRLF. */
function parseCsv(text: string): string[][] {
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
function csvSections(body: Buffer): Map<string, { header: string[]; rows: string[][] }> {
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

async function readXlsx(body: Buffer) {
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
async function pdfText(body: Buffer): Promise<string[]> {
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

interface JsonReport {
  report: string;
  type: ReportType;
  from: string;
  to: string;
  tz: string;
  generatedAt: string;
  summary: {
    totalScans: number;
    activeQrCodes: number;
    days: number;
    averagePerDay: number;
    deviceCategories: number;
  };
  daily: { date: string; count: number }[];
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
    percent: number;
    lastScanAt: string | null;
  }[];
  scans?: ReportScan[];
}

const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  json: 'application/json; charset=utf-8',
};

function exportUrl(params: Record<string, string>): string {
  return `/api/analytics/export?${new URLSearchParams(params).toString()}`;
}

function download(t: TestApp, cookie: string | undefined, params: Record<string, string>): Promise<Response> {
  return call(t.app, 'GET', exportUrl(params), cookie ? { cookie } : {});
}

function expectFileHeaders(res: Response, type: ReportType, format: ReportFormat, from: string, to: string) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe(CONTENT_TYPES[format]);
  expect(res.headers['content-disposition']).toBe(
    `attachment; filename="qr-analytics-${type}-${from}-to-${to}.${format}"`,
  );
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

const NY = { from: '2026-03-02', to: '2026-03-04', tz: 'America/New_York' };
const KOLKATA = { from: '2026-03-02', to: '2026-03-04', tz: 'Asia/Kolkata' };

// ---------------------------------------------------------------------------------------------------

describeEachDb('GET /api/analytics/export', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(new Date('2026-03-20T12:00:00.000Z')) });

  describe('refusals', () => {
    it('answers 401 in the REST error shape when signed out', async () => {
      await seed(t());
      const res = await download(t(), undefined, { ...NY, type: 'full', format: 'csv' });
      expectRestError(res, 401, 'UNAUTHORIZED');
      expect(res.headers['content-disposition']).toBeUndefined();
    });

    const bad: [string, Record<string, string>, string][] = [
      ['from is not a date', { from: 'yesterday' }, 'from'],
      ['from is not a real date', { from: '2026-02-30' }, 'from'],
      ['to is missing', { to: '' }, 'to'],
      ['to is not a date', { to: '2026-3-4' }, 'to'],
      ['type is unknown', { type: 'everything' }, 'type'],
      ['format is unknown', { format: 'docx' }, 'format'],
      ['tz is not a zone', { tz: 'Mars/Olympus_Mons' }, 'tz'],
      ['from is after to', { from: '2026-03-05', to: '2026-03-04' }, 'from'],
      ['the range is longer than 3660 days', { from: '2016-01-01', to: '2026-03-04' }, 'to'],
      ['excludeBots is not a boolean', { excludeBots: 'maybe' }, 'excludeBots'],
    ];
    for (const [what, change, field] of bad) {
      it(`answers 400 naming ${field} when ${what}, and sends no file`, async () => {
        const f = await seed(t());
        const params: Record<string, string> = { ...NY, type: 'full', format: 'csv', ...change };
        if (change.to === '') delete params.to;
        const body = expectRestError(await download(t(), f.cookie, params), 400, 'BAD_REQUEST');
        expect(body.issues?.map((i) => i.path)).toContain(field);
        expect(body.message).toContain(field);
      });
    }
  });

  describe('every type in every format', () => {
    const e = expected(NY.from, NY.to, NY.tz);

    it('the fixture itself: New York counts the scans from 00:00 EST on the 2nd to 23:59:59.999 on the 4th', () => {
      expect(e.scans.map((s) => s.key).sort()).toEqual(['B', 'C', 'D', 'E', 'F', 'G']);
      expect(e.byCode).toEqual({ menu: 3, evil: 3 });
      expect([...e.daily.values()]).toEqual([1, 2, 3]);
    });

    for (const type of REPORT_TYPES) {
      for (const format of REPORT_FORMATS) {
        it(`${type} as ${format}: the caller's totals for the range, nobody else's`, async () => {
          const f = await seed(t());
          const res = await download(t(), f.cookie, { ...NY, type, format });
          expectFileHeaders(res, type, format, NY.from, NY.to);
          const body = res.rawPayload;
          if (format !== 'xlsx' && format !== 'pdf') {
            for (const hidden of [SECRET_NAME, SECRET_PLACE, 'Secretville'])
              expect(res.body).not.toContain(hidden);
          }
          await checkers[format](body, type, e, f);
        });
      }
    }
  });

  describe('range edges in other zones', () => {
    it('Kolkata (UTC+5:30): scans from 18:30 UTC the day before to 18:29:59 UTC on the last day', async () => {
      const f = await seed(t());
      const e = expected(KOLKATA.from, KOLKATA.to, KOLKATA.tz);
      expect(e.scans.map((s) => s.key).sort()).toEqual(['A', 'B', 'C', 'D', 'E', 'I']);
      const res = await download(t(), f.cookie, { ...KOLKATA, type: 'activity', format: 'json' });
      expectFileHeaders(res, 'activity', 'json', KOLKATA.from, KOLKATA.to);
      const report = res.json<JsonReport>();
      checkJsonTotals(report, e, f);
      expect(report.scans!.map((s) => f.keyOf.get(s.id))).toEqual(e.scans.map((s) => s.key));
      expect(report.daily).toEqual([
        { date: '2026-03-02', count: 3 },
        { date: '2026-03-03', count: 2 },
        { date: '2026-03-04', count: 1 },
      ]);
      const i = report.scans!.find((s) => f.keyOf.get(s.id) === 'I')!;
      expect(i.localTime).toBe('2026-03-02 00:00:00');
    });

    it('one day in New York: only that local day', async () => {
      const f = await seed(t());
      const res = await download(t(), f.cookie, {
        from: '2026-03-04',
        to: '2026-03-04',
        tz: NY.tz,
        type: 'full',
        format: 'json',
      });
      const report = res.json<JsonReport>();
      expect(report.summary.totalScans).toBe(3); // E, F and G (23:59:59.999)
      expect(report.daily).toEqual([{ date: '2026-03-04', count: 3 }]);
      expect(report.locations).toEqual([
        { location: 'Mumbai, IN', count: 2, percent: 66.7 },
        { location: 'New York, US', count: 1, percent: 33.3 },
      ]);
    });

    it('across the spring-forward night, local times follow the change of offset', async () => {
      const f = await seed(t());
      const res = await download(t(), f.cookie, {
        from: '2026-03-07',
        to: '2026-03-09',
        tz: NY.tz,
        type: 'activity',
        format: 'json',
      });
      const report = res.json<JsonReport>();
      expect(report.scans!.map((s) => [f.keyOf.get(s.id), s.localTime])).toEqual([
        ['M', '2026-03-08 03:30:00'],
        ['L', '2026-03-08 01:30:00'],
      ]);
      expect(report.hourly.filter((h) => h.count > 0)).toEqual([
        { hour: 1, count: 1 },
        { hour: 3, count: 1 },
      ]);
    });

    it('the default zone is UTC', async () => {
      const f = await seed(t());
      const res = await download(t(), f.cookie, {
        from: '2026-03-02',
        to: '2026-03-02',
        type: 'full',
        format: 'json',
      });
      const report = res.json<JsonReport>();
      expect(report.tz).toBe('UTC');
      expect(report.summary.totalScans).toBe(expected('2026-03-02', '2026-03-02', 'UTC').total);
    });
  });

  describe('options and safety', () => {
    it('excludeBots=true leaves the bot scan out of every figure and of the scan list', async () => {
      const f = await seed(t());
      const e = expected(NY.from, NY.to, NY.tz, true);
      expect(e.total).toBe(5);
      const json = (
        await download(t(), f.cookie, { ...NY, type: 'activity', format: 'json', excludeBots: 'true' })
      ).json<JsonReport>();
      checkJsonTotals(json, e, f);
      expect(json.devices.map((d) => d.device)).not.toContain('Bot');
      expect(json.scans!.map((s) => f.keyOf.get(s.id))).not.toContain('C');

      const csv = csvSections(
        (await download(t(), f.cookie, { ...NY, type: 'activity', format: 'csv', excludeBots: 'true' }))
          .rawPayload,
      );
      expect(csv.get('Scans')!.rows).toHaveLength(5);
      expect(csv.get('Summary')!.rows).toContainEqual(['Bots excluded', 'Yes']);
    });

    it('CSV guards against formula injection and quotes per RFC 4180', async () => {
      const f = await seed(t());
      const res = await download(t(), f.cookie, { ...NY, type: 'activity', format: 'csv' });
      const raw = res.body;
      // The cell is quoted (it holds a comma and quotes) and starts with an apostrophe.
      expect(raw).toContain(`"'=HYPERLINK(""http://evil.example/?x=1"",""click me"")"`);
      expect(raw).not.toMatch(/(^|,)=HYPERLINK/m);
      const scans = csvSections(res.rawPayload).get('Scans')!;
      const names = new Set(scans.rows.map((r) => r[2]));
      expect(names).toEqual(new Set([`'${EVIL_NAME}`, MENU_NAME]));
      const d = scans.rows.find((r) => r[1] === '2026-03-03 07:00:00' && r[2] === MENU_NAME)!;
      expect(d[5]).toBe('https://news.example/a,b "quoted"');
    });

    it('Excel keeps the name as plain text, never a formula', async () => {
      const f = await seed(t());
      const res = await download(t(), f.cookie, { ...NY, type: 'performance', format: 'xlsx' });
      const sheet = (await readXlsx(res.rawPayload)).get('Performance')!;
      const cell = sheet.rows
        .map((r) => r[0]!)
        .find((c) => typeof c.value === 'string' && c.value.includes('HYPERLINK'))!;
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.value).toBe(EVIL_NAME);
      expect(cell.formula).toBeUndefined();
    });

    it('masks addresses to their first two parts', async () => {
      const f = await seed(t());
      const json = (
        await download(t(), f.cookie, { ...NY, type: 'activity', format: 'json' })
      ).json<JsonReport>();
      for (const s of json.scans!) {
        const i = SCANS.findIndex((x) => x.key === f.keyOf.get(s.id));
        const [a, b] = ipOf(i).split('.');
        expect(s.ipAddress).toBe(`${a}.${b}.*.*`);
      }
    });

    it("the neighbour's report holds only the neighbour's scans", async () => {
      const f = await seed(t());
      const res = await download(t(), f.neighbourCookie, { ...NY, type: 'activity', format: 'json' });
      const json = res.json<JsonReport>();
      expect(json.summary.totalScans).toBe(3);
      expect(json.performance.map((p) => p.name)).toEqual([SECRET_NAME]);
      expect(res.body).not.toContain('Café');
      expect(res.body).not.toContain('HYPERLINK');
      expect(json.scans!.every((s) => s.qrCodeId === f.ids.secret)).toBe(true);
    });

    it('a user without codes gets an empty report with every local date', async () => {
      const { cookie } = await signedInUser(t(), 'newcomer');
      const json = (
        await download(t(), cookie, { ...NY, type: 'activity', format: 'json' })
      ).json<JsonReport>();
      expect(json.summary).toEqual({
        totalScans: 0,
        activeQrCodes: 0,
        days: 3,
        averagePerDay: 0,
        deviceCategories: 0,
      });
      expect(json.daily.map((d) => d.count)).toEqual([0, 0, 0]);
      expect(json.scans).toEqual([]);
      const pdf = await download(t(), cookie, { ...NY, type: 'full', format: 'pdf' });
      expect((await pdfText(pdf.rawPayload)).join(' ')).toContain('Full Analytics Report');
    });

    it('a PDF of a range longer than 92 days lists the days in a table', async () => {
      const f = await seed(t());
      const res = await download(t(), f.cookie, {
        from: '2025-12-01',
        to: '2026-03-19',
        tz: NY.tz,
        type: 'full',
        format: 'pdf',
      });
      const items = await pdfText(res.rawPayload);
      expect(items).toContain('2025-12-01');
      expect(items).toContain('2026-03-19');
      expect(items).toContain('Total scans');
    });
  });

  it('a PDF prints code names in other scripts as written (embedded font)', async () => {
    const f = await seed(t());
    await t()
      .db.updateTable('qr_codes')
      .set({ name: 'Меню Łódź Κατάλογος' })
      .where('id', '=', f.ids.menu)
      .execute();
    const res = await download(t(), f.cookie, { ...NY, type: 'performance', format: 'pdf' });
    expect(res.statusCode).toBe(200);
    expect((await pdfText(res.rawPayload)).join(' ')).toContain('Меню Łódź Κατάλογος');
  });

  describe('the Scan Activity PDF', () => {
    it('lists the newest 500 scans and says how many there are in all', async () => {
      const f = await seed(t());
      await t()
        .db.transaction()
        .execute((trx) =>
          writeScansWithRollups(
            trx,
            Array.from({ length: 505 }, (_, i) => ({
              owner_id: f.userId,
              qr_code_id: f.ids.menu,
              timestamp: new Date(Date.parse('2026-03-03T15:00:00.000Z') + i * 1000).toISOString(),
              user_agent: null,
              ip_address: null,
              referrer: null,
              location: null,
              device: 'Desktop',
            })),
          ),
        );
      const res = await download(t(), f.cookie, { ...NY, type: 'activity', format: 'pdf' });
      const text = (await pdfText(res.rawPayload)).join(' ');
      expect(text).toContain('First 500 of 511 scans');
      expect(text).toContain('use CSV or Excel for all');
      expect(text).toContain('2026-03-04 23:59:59'); // the newest scan, G
      expect(text).not.toContain('2026-03-02 00:00:00'); // the oldest, B, is past the first 500
    });
  });

  describe('reading scans page by page', () => {
    it('small pages and windows give the same scans, newest first, as one read', async () => {
      const f = await seed(t());
      const db: Db = t().db;
      // More scans with equal timestamps, so pages split inside a tie.
      await db.transaction().execute((trx) =>
        writeScansWithRollups(
          trx,
          Array.from({ length: 40 }, (_, i) => ({
            owner_id: f.userId,
            qr_code_id: i % 2 ? f.ids.menu : f.ids.evil,
            timestamp: new Date(
              Date.parse('2026-03-03T00:00:00.000Z') + Math.floor(i / 4) * 600_000,
            ).toISOString(),
            user_agent: null,
            ip_address: null,
            referrer: null,
            location: null,
            device: i % 5 === 0 ? 'Bot' : 'Mobile',
          })),
        ),
      );
      const period = datesPeriod(NY.tz, dayOfLabel(NY.from), dayOfLabel(NY.to));
      const describe = { name: String, localTime: (ms: number) => new Date(ms).toISOString() };
      const read = async (excludeBots: boolean, options: Parameters<typeof readScans>[5]) => {
        const pages: ReportScan[][] = [];
        for await (const page of readScans(db, f.userId, period, excludeBots, describe, options))
          pages.push(page);
        return pages;
      };
      for (const excludeBots of [false, true]) {
        const whole = (await read(excludeBots, { pageSize: 10_000 })).flat();
        expect(whole).toHaveLength(
          expected(NY.from, NY.to, NY.tz, excludeBots).total + (excludeBots ? 32 : 40),
        );
        const order = whole.map((s) => [s.timestamp, s.id] as const);
        const sorted = [...order].sort((a, b) => b[0].localeCompare(a[0]) || b[1] - a[1]);
        expect(order).toEqual(sorted);
        const pages = await read(excludeBots, { pageSize: 3, windowTarget: 5 });
        expect(pages.length).toBeGreaterThan(5);
        expect(Math.max(...pages.map((p) => p.length))).toBeLessThanOrEqual(3);
        expect(pages.flat()).toEqual(whole);
        expect((await read(excludeBots, { pageSize: 4, limit: 7 })).flat()).toEqual(whole.slice(0, 7));
      }
    });
  });
});

describe('text for shared reports', () => {
  it('masks IPv4, IPv4-mapped and IPv6 addresses', () => {
    expect(maskIp('203.0.113.9')).toBe('203.0.*.*');
    expect(maskIp('::ffff:203.0.113.9')).toBe('203.0.*.*');
    expect(maskIp('2001:db8::1')).toBe('2001:db8:*:*');
    expect(maskIp(null)).toBeNull();
  });

  it('keeps PDF text as written, on one line', () => {
    expect(pdfSafe('Café Menü — “2nd” €5')).toBe('Café Menü — “2nd” €5');
    expect(pdfSafe('Łódź Kraków Ős Меню Κατάλογος')).toBe('Łódź Kraków Ős Меню Κατάλογος');
    expect(pdfSafe('東京\tbar\nbaz')).toBe('東京 bar baz');
  });
});

// ---------------------------------------------------------------------------------------------------
// Per-format checks of the New York range

function checkJsonTotals(report: JsonReport, e: Expected, f: Fixture) {
  expect(report.summary.totalScans).toBe(e.total);
  expect(report.summary.activeQrCodes).toBe(2);
  expect(report.summary.days).toBe(e.daily.size);
  expect(report.daily).toEqual([...e.daily].map(([date, count]) => ({ date, count })));
  expect(report.hourly).toEqual(e.hourly.map((count, hour) => ({ hour, count })));
  expect(report.devices.reduce((s, d) => s + d.count, 0)).toBe(e.total);
  expect(report.locations.reduce((s, l) => s + l.count, 0)).toBe(e.total);
  const byId = new Map(report.performance.map((p) => [p.qrCodeId, p]));
  expect(byId.get(f.ids.menu)?.count).toBe(e.byCode.menu);
  expect(byId.get(f.ids.evil)?.count).toBe(e.byCode.evil);
  expect(byId.has(f.ids.secret)).toBe(false);
}

type Checker = (body: Buffer, type: ReportType, e: Expected, f: Fixture) => void | Promise<void>;

const checkers: Record<ReportFormat, Checker> = {
  json(body, type, e, f) {
    const report = JSON.parse(body.toString('utf8')) as JsonReport;
    expect(report).toMatchObject({
      report: REPORT_TYPE_LABELS[type],
      type,
      ...NY,
      generatedAt: '2026-03-20T12:00:00.000Z',
    });
    checkJsonTotals(report, e, f);
    expect(report.summary.averagePerDay).toBe(2);
    expect(report.performance.find((p) => p.qrCodeId === f.ids.menu)).toMatchObject({
      name: MENU_NAME,
      type: 'url',
      isDynamic: true,
      created: '2026-01-05T10:00:00.000Z',
      percent: 50,
      lastScanAt: '2026-03-05T04:59:59.999Z',
    });
    if (type === 'activity') {
      expect(report.scans!.map((s) => f.keyOf.get(s.id))).toEqual(e.scans.map((s) => s.key));
      const g = report.scans![0]!;
      expect(g).toMatchObject({
        timestamp: '2026-03-05T04:59:59.999Z',
        localTime: '2026-03-04 23:59:59',
        qrCodeId: f.ids.menu,
        qrCodeName: MENU_NAME,
        device: 'Mobile',
        location: 'New York, US',
      });
    } else {
      expect(report.scans).toBeUndefined();
    }
  },

  csv(body, type, e) {
    const sections = csvSections(body);
    const summary = new Map(sections.get('Summary')!.rows.map(([k, v]) => [k!, v!]));
    expect(summary.get('Report')).toBe(REPORT_TYPE_LABELS[type]);
    expect(summary.get('From')).toBe(NY.from);
    expect(summary.get('To')).toBe(NY.to);
    expect(summary.get('Time zone')).toBe(NY.tz);
    expect(summary.get('Total scans')).toBe(String(e.total));
    expect(summary.get('Active QR codes')).toBe('2');
    expect(summary.get('Generated (local time)')).toBe('2026-03-20 08:00:00');
    const perf = sections.get('QR code performance');
    if (type === 'full' || type === 'performance') {
      const rows = new Map(perf!.rows.map((r) => [r[0], r]));
      const scansAt = perf!.header.indexOf('Scans');
      expect(rows.get(MENU_NAME)![scansAt]).toBe(String(e.byCode.menu));
      expect(rows.get(`'${EVIL_NAME}`)![scansAt]).toBe(String(e.byCode.evil));
      expect(perf!.header).toContain('Share (%)');
    }
    if (type === 'full') {
      expect([...sections.keys()]).toEqual([
        'Summary',
        'Daily scans',
        'Scans by device',
        'Top locations',
        'Scans by hour of day',
        'QR code performance',
      ]);
      expect(sections.get('Scans by hour of day')!.rows.map((r) => Number(r[2]))).toEqual(e.hourly);
      expect(sections.get('Scans by hour of day')!.rows[0]).toEqual(['0', '12 AM', String(e.hourly[0])]);
      expect(sections.get('Scans by device')!.rows).toContainEqual(['Bot', '1', '16.7']);
    }
    if (type === 'performance') {
      expect([...sections.keys()]).toEqual(['Summary', 'QR code performance']);
      expect(perf!.header).toEqual([
        'QR code',
        'Type',
        'Kind',
        'Created (local time)',
        'Scans',
        'Share (%)',
        'Last scan (local time)',
      ]);
      expect(perf!.rows.find((r) => r[0] === MENU_NAME)).toEqual([
        MENU_NAME,
        'url',
        'Dynamic',
        '2026-01-05 05:00:00',
        '3',
        '50',
        '2026-03-04 23:59:59',
      ]);
    }
    if (type !== 'performance') {
      expect(sections.get('Daily scans')!.rows).toEqual([...e.daily].map(([d, c]) => [d, String(c)]));
    }
    if (type === 'activity') {
      expect([...sections.keys()]).toEqual(['Summary', 'Daily scans', 'Scans']);
      const scans = sections.get('Scans')!;
      expect(scans.header).toEqual([
        'Time (UTC, ISO 8601)',
        `Local time (${NY.tz})`,
        'QR code',
        'Device',
        'Location',
        'Referrer',
        'IP address (masked)',
      ]);
      expect(scans.rows.map((r) => r[0])).toEqual(e.scans.map((s) => s.at));
      expect(scans.rows.map((r) => r[1])).toEqual(e.scans.map((s) => local(s.at, NY.tz).wall));
    }
  },

  async xlsx(body, type, e) {
    const sheets = await readXlsx(body);
    const names = [...sheets.keys()];
    expect(names).toEqual(
      type === 'full'
        ? ['Summary', 'Daily scans', 'Devices', 'Locations', 'Hours', 'Performance']
        : type === 'activity'
          ? ['Summary', 'Daily scans', 'Scans']
          : ['Summary', 'Performance'],
    );
    for (const sheet of sheets.values()) expect(sheet.header[0]!.font?.bold).toBe(true);
    const summary = new Map(sheets.get('Summary')!.rows.map(([k, v]) => [k!.value as string, v!]));
    expect(summary.get('Report')!.value).toBe(REPORT_TYPE_LABELS[type]);
    expect(summary.get('Total scans')!.value).toBe(e.total);
    expect(summary.get('From')!.value).toEqual(new Date('2026-03-02T00:00:00.000Z'));
    expect(summary.get('From')!.type).toBe(ExcelJS.ValueType.Date);
    if (type !== 'performance') {
      const daily = sheets.get('Daily scans')!.rows;
      expect(daily.map(([d]) => (d!.value as Date).toISOString().slice(0, 10))).toEqual([...e.daily.keys()]);
      expect(daily.map(([, c]) => c!.value)).toEqual([...e.daily.values()]);
      expect(daily[0]![0]!.numFmt).toBe('yyyy-mm-dd');
    }
    if (type !== 'activity') {
      const perf = sheets.get('Performance')!;
      const scansAt = perf.header.findIndex((c) => c.value === 'Scans');
      const shareAt = perf.header.findIndex((c) => c.value === 'Share (%)');
      const rows = new Map(perf.rows.map((r) => [r[0]!.value, r]));
      expect(rows.get(MENU_NAME)![scansAt]!.value).toBe(e.byCode.menu);
      expect(rows.get(EVIL_NAME)![scansAt]!.value).toBe(e.byCode.evil);
      expect(rows.get(MENU_NAME)![shareAt]!.value).toBe(0.5);
      expect(rows.get(MENU_NAME)![shareAt]!.numFmt).toBe('0.0%');
    }
    if (type === 'full') {
      expect(sheets.get('Hours')!.rows.map((r) => r[2]!.value)).toEqual(e.hourly);
    }
    if (type === 'activity') {
      const scans = sheets.get('Scans')!.rows;
      expect(scans.map((r) => r[0]!.value)).toEqual(e.scans.map((s) => s.at));
      // Local wall time as an Excel date (Excel dates carry no zone).
      expect(scans[0]![1]!.type).toBe(ExcelJS.ValueType.Date);
      expect((scans[0]![1]!.value as Date).toISOString()).toBe('2026-03-04T23:59:59.000Z');
      expect(scans.map((r) => r[2]!.value)).not.toContain(SECRET_NAME);
    }
  },

  async pdf(body, type, e) {
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const items = await pdfText(body);
    const text = items.join(' ');
    expect(items).toContain(REPORT_TYPE_LABELS[type]);
    expect(text).toContain(`Period: ${NY.from} to ${NY.to} (${NY.tz})`);
    expect(text).toContain('Generated: 2026-03-20 08:00:00');
    const total = items.indexOf('Total scans');
    expect(total).toBeGreaterThanOrEqual(0);
    expect(items[total + 1]).toBe(String(e.total));
    expect(items).toContain(MENU_NAME);
    expect(text).toContain('HYPERLINK');
    for (const hidden of [SECRET_NAME, SECRET_PLACE]) expect(text).not.toContain(hidden);
    if (type !== 'performance') {
      expect(items).toContain('Daily scans');
      expect(items).toContain('03-02'); // an axis label of the bar chart
    }
    if (type === 'activity') {
      expect(items).toContain('2026-03-04 23:59:59');
      expect(text).not.toContain('use CSV or Excel for all');
    }
  },
};
