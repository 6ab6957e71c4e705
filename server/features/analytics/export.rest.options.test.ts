import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { createTestClock, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import {
  EVIL_NAME,
  MENU_NAME,
  NY,
  SCANS,
  SECRET_NAME,
  checkJsonTotals,
  csvSections,
  download,
  expected,
  ipOf,
  pdfText,
  readXlsx,
  seed,
  type JsonReport,
} from './export.test-helpers.js';

describeEachDb('GET /api/analytics/export', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(new Date('2026-03-20T12:00:00.000Z')) });

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
        // Nobody scanned: known to be 0 (not unknown).
        uniqueScanners: 0,
        uniqueScannersPartial: false,
        activeQrCodes: 0,
        days: 3,
        averagePerDay: 0,
        deviceCategories: 0,
      });
      expect(json.daily.map((d) => d.count)).toEqual([0, 0, 0]);
      expect(json.daily.map((d) => d.uniqueScanners)).toEqual([0, 0, 0]);
      expect(json.scans).toEqual([]);
      const pdf = await download(t(), cookie, { ...NY, type: 'full', format: 'pdf' });
      expect((await pdfText(pdf.rawPayload)).join(' ')).toContain('Full Analytics Report');
    });

    it('a PDF of a range longer than 92 days lists the days in a table, with their unique scanners', async () => {
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
      expect(items.slice(items.indexOf('Daily scans') + 1).slice(0, 3)).toEqual([
        'Date',
        'Scans',
        'Unique scanners',
      ]);
      // Each day as date, scans, unique scanners: no scans, 0; K's day (no visitor hash), unknown.
      const day = (date: string) => items.slice(items.indexOf(date), items.indexOf(date) + 3);
      expect(day('2025-12-01')).toEqual(['2025-12-01', '0', '0']);
      expect(day('2026-02-10')).toEqual(['2026-02-10', '1', '—']);
      expect(day('2026-03-04')).toEqual(['2026-03-04', '3', '—']);
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
});
