import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  REPORT_FORMATS,
  REPORT_TYPES,
  REPORT_TYPE_LABELS,
  type ReportFormat,
  type ReportType,
} from '../../../src/analytics/analytics.schema.js';
import { createTestClock, useTestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import {
  EVIL_NAME,
  FIXTURE_UNIQUES,
  MENU_NAME,
  NY,
  SECRET_NAME,
  SECRET_PLACE,
  checkJsonTotals,
  csvSections,
  download,
  expectFileHeaders,
  expected,
  local,
  pdfText,
  readXlsx,
  seed,
  type Expected,
  type Fixture,
  type JsonReport,
} from './export.test-helpers.js';

describeOnSqlite('GET /api/analytics/export', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(new Date('2026-03-20T12:00:00.000Z')) });

  describe('every type in every format', () => {
    const e = expected(NY.from, NY.to, NY.tz);

    it('the fixture itself: New York counts the scans from 00:00 EST on the 2nd to 23:59:59.999 on the 4th', () => {
      expect(e.scans.map((s) => s.key).sort()).toEqual(['B', 'C', 'D', 'E', 'F', 'G']);
      expect(e.byCode).toEqual({ menu: 3, evil: 3 });
      expect([...e.daily.values()]).toEqual([1, 2, 3]);
      // No scan of the fixture has a visitor hash (C, the only one on the 3rd without, is a bot's).
      expect([...e.dailyUniques.values()]).toEqual([null, null, null]);
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
});

// ---------------------------------------------------------------------------------------------------
// Per-format checks of the New York range

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
    expect(report.summary).toMatchObject(FIXTURE_UNIQUES);
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
    // FIXTURE_UNIQUES: the people's scans (no visitor hash) left out, the days with them "—".
    expect(summary.get('Unique scanners (daily-unique)')).toBe('0');
    expect(summary.get('About unique scanners')).toBe(
      'Unique scanners are daily-unique, per code: a person scanning on two days, or two codes, counts twice; bots never count.' +
        ' Scans recorded before unique scanners were counted are left out' +
        (type === 'performance' ? '.' : ' (their days show —).'),
    );
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
        'Unique scanners',
        'Share (%)',
        'Last scan (local time)',
      ]);
      expect(perf!.rows.find((r) => r[0] === MENU_NAME)).toEqual([
        MENU_NAME,
        'url',
        'Dynamic',
        '2026-01-05 05:00:00',
        '3',
        '—', // its scans were stored without visitor hashes: not counted, never 0
        '50',
        '2026-03-04 23:59:59',
      ]);
    }
    if (type !== 'performance') {
      expect(sections.get('Daily scans')!.header).toEqual(['Date', 'Scans', 'Unique scanners']);
      expect(sections.get('Daily scans')!.rows).toEqual(
        [...e.daily].map(([d, c]) => [d, String(c), String(e.dailyUniques.get(d) ?? '—')]),
      );
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
    expect(summary.get('Unique scanners (daily-unique)')!.value).toBe(0);
    expect(summary.get('About unique scanners')!.value).toContain('daily-unique, per code');
    expect(summary.get('From')!.value).toEqual(new Date('2026-03-02T00:00:00.000Z'));
    expect(summary.get('From')!.type).toBe(ExcelJS.ValueType.Date);
    if (type !== 'performance') {
      const { header, rows: daily } = sheets.get('Daily scans')!;
      expect(header.map((c) => c.value)).toEqual(['Date', 'Scans', 'Unique scanners']);
      expect(daily.map(([d]) => (d!.value as Date).toISOString().slice(0, 10))).toEqual([...e.daily.keys()]);
      expect(daily.map(([, c]) => c!.value)).toEqual([...e.daily.values()]);
      expect(daily.map(([, , u]) => u!.value)).toEqual([...e.dailyUniques.values()].map((u) => u ?? '—'));
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
    const uniques = items.indexOf('Unique scanners (daily-unique)');
    expect(uniques).toBeGreaterThanOrEqual(0);
    expect(items[uniques + 1]).toBe('0');
    expect(text).toContain('Unique scanners are daily-unique, per code');
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
