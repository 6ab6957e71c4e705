import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { insertQrRow } from '../../test/fixtures.js';
import { createTestClock, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import type { ScanToStore } from '../scans/rollup-model.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import {
  csvSections,
  download,
  expectFileHeaders,
  pdfText,
  readXlsx,
  type JsonReport,
} from './export.test-helpers.js';

// Unique scanners in the reports: scans with visitor hashes (as the redirect stores them), and
// without (as stored before unique scanners were counted), on two codes of one user, in UTC.

const DOOR = 'Door sign';
const POSTER = 'Poster';

interface UniqueScan {
  code: 'door' | 'poster';
  at: string;
  /** The visitor hash; null as a scan stored before unique scanners were counted. */
  visitor: number | null;
  device?: 'Mobile' | 'Bot';
}

const UNIQUE_SCANS: UniqueScan[] = [
  // The 1st: stored before unique scanners were counted, so unknown ("—", null), never 0.
  { code: 'door', at: '2026-03-01T09:00:00.000Z', visitor: null },
  { code: 'poster', at: '2026-03-01T10:00:00.000Z', visitor: null },
  // The 2nd: visitor 11 twice counts once, with 12 that makes 2; a bot never counts (and leaves
  // the day known).
  { code: 'door', at: '2026-03-02T09:00:00.000Z', visitor: 11 },
  { code: 'door', at: '2026-03-02T17:00:00.000Z', visitor: 11 },
  { code: 'door', at: '2026-03-02T18:00:00.000Z', visitor: 12 },
  { code: 'door', at: '2026-03-02T19:00:00.000Z', visitor: null, device: 'Bot' },
  // The 3rd: visitor 11 again counts again (daily-unique), on the door and on the poster (per code).
  { code: 'door', at: '2026-03-03T08:00:00.000Z', visitor: 11 },
  { code: 'poster', at: '2026-03-03T08:30:00.000Z', visitor: 11 },
  // The 4th: nobody (0).
  // The 5th: the poster's visitor 13 counted, the door's scan not: the day is unknown as a whole,
  // while the range's figure (as the Overview's) keeps the poster's 1.
  { code: 'poster', at: '2026-03-05T12:00:00.000Z', visitor: 13 },
  { code: 'door', at: '2026-03-05T12:05:00.000Z', visitor: null },
];

const RANGE = { from: '2026-03-01', to: '2026-03-05', tz: 'UTC' };
/** Only the days with visitor hashes (and the empty 4th). */
const KNOWN = { from: '2026-03-02', to: '2026-03-04', tz: 'UTC' };
/** Only the day before unique scanners were counted. */
const BEFORE = { from: '2026-03-01', to: '2026-03-01', tz: 'UTC' };

const DAILY = [
  { date: '2026-03-01', count: 2, uniqueScanners: null },
  { date: '2026-03-02', count: 4, uniqueScanners: 2 },
  { date: '2026-03-03', count: 2, uniqueScanners: 2 },
  { date: '2026-03-04', count: 0, uniqueScanners: 0 },
  { date: '2026-03-05', count: 2, uniqueScanners: null },
];

const LABEL = 'Unique scanners (daily-unique)';
const MEANING =
  'Unique scanners are daily-unique, per code: a person scanning on two days, or two codes, counts twice; bots never count.';

async function seedUniques(t: TestApp): Promise<{ cookie: string }> {
  const me = await signedInUser(t, 'counter');
  const door = await insertQrRow(t.db, { userId: me.user.id, name: DOOR, isDynamic: true });
  const poster = await insertQrRow(t.db, { userId: me.user.id, name: POSTER, isDynamic: true });
  const ids = { door: door.id, poster: poster.id };
  await t.db.transaction().execute(async (trx) => {
    for (const s of UNIQUE_SCANS) {
      const row: ScanToStore = {
        owner_id: me.user.id,
        qr_code_id: ids[s.code],
        timestamp: s.at,
        user_agent: 'Mozilla/5.0 (test)',
        ip_address: '198.51.100.7',
        location: null,
        device: s.device ?? 'Mobile',
        visitor: s.visitor,
      };
      await writeScansWithRollups(trx, [row]);
    }
  });
  return { cookie: me.cookie };
}

describeEachDb('GET /api/analytics/export: unique scanners', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(new Date('2026-03-20T12:00:00.000Z')) });

  describe('JSON', () => {
    it('the range figure, partial, and each day: the same visitor counts once a day, per code; unknown days are null', async () => {
      const { cookie } = await seedUniques(t());
      for (const type of ['full', 'activity'] as const) {
        const res = await download(t(), cookie, { ...RANGE, type, format: 'json' });
        expectFileHeaders(res, type, 'json', RANGE.from, RANGE.to);
        const report = res.json<JsonReport>();
        expect(report.summary).toMatchObject({
          totalScans: 10,
          // 2 (the 2nd) + 2 (the 3rd) + 1 (the poster on the 5th); the scans without hashes left out.
          uniqueScanners: 5,
          uniqueScannersPartial: true,
        });
        expect(report.daily).toEqual(DAILY);
        // null in the file itself, not a missing key.
        expect(res.body).toContain('{"date":"2026-03-01","count":2,"uniqueScanners":null}');
      }
    });

    it('only counted days: the figure is whole; only days before counting: null, never 0', async () => {
      const { cookie } = await seedUniques(t());
      const known = (
        await download(t(), cookie, { ...KNOWN, type: 'full', format: 'json' })
      ).json<JsonReport>();
      expect(known.summary).toMatchObject({ uniqueScanners: 4, uniqueScannersPartial: false });
      expect(known.daily).toEqual(DAILY.slice(1, 4));

      const before = (
        await download(t(), cookie, { ...BEFORE, type: 'performance', format: 'json' })
      ).json<JsonReport>();
      expect(before.summary).toMatchObject({
        totalScans: 2,
        uniqueScanners: null,
        uniqueScannersPartial: true,
      });
      expect(before.daily).toEqual(DAILY.slice(0, 1));
    });
  });

  describe('CSV', () => {
    it('a summary row with its note, and a Unique scanners column beside Scans', async () => {
      const { cookie } = await seedUniques(t());
      const sections = csvSections(
        (await download(t(), cookie, { ...RANGE, type: 'full', format: 'csv' })).rawPayload,
      );
      const summary = sections.get('Summary')!.rows;
      const at = summary.findIndex(([k]) => k === 'Total scans');
      expect(summary.slice(at, at + 3)).toEqual([
        ['Total scans', '10'],
        [LABEL, '5'],
        [
          'About unique scanners',
          `${MEANING} Scans recorded before unique scanners were counted are left out (their days show —).`,
        ],
      ]);
      const daily = sections.get('Daily scans')!;
      expect(daily.header).toEqual(['Date', 'Scans', 'Unique scanners']);
      expect(daily.rows).toEqual([
        ['2026-03-01', '2', '—'],
        ['2026-03-02', '4', '2'],
        ['2026-03-03', '2', '2'],
        ['2026-03-04', '0', '0'],
        ['2026-03-05', '2', '—'],
      ]);
    });

    it('a whole figure has no "left out"; an unknown one prints —, never 0', async () => {
      const { cookie } = await seedUniques(t());
      const known = csvSections(
        (await download(t(), cookie, { ...KNOWN, type: 'activity', format: 'csv' })).rawPayload,
      );
      const knownSummary = new Map(known.get('Summary')!.rows.map(([k, v]) => [k!, v!]));
      expect(knownSummary.get(LABEL)).toBe('4');
      expect(knownSummary.get('About unique scanners')).toBe(MEANING);
      expect(known.get('Daily scans')!.rows.map((r) => r[2])).toEqual(['2', '2', '0']);

      const before = csvSections(
        (await download(t(), cookie, { ...BEFORE, type: 'performance', format: 'csv' })).rawPayload,
      );
      const beforeSummary = new Map(before.get('Summary')!.rows.map(([k, v]) => [k!, v!]));
      expect(beforeSummary.get(LABEL)).toBe('—');
      expect(beforeSummary.get('About unique scanners')).toBe(
        `${MEANING} Not counted (—): the range's scans were recorded before unique scanners were counted.`,
      );
      // No daily table in a QR Code Performance report: the partial note does not point to one.
      const partial = csvSections(
        (await download(t(), cookie, { ...RANGE, type: 'performance', format: 'csv' })).rawPayload,
      );
      expect(partial.get('Summary')!.rows).toContainEqual([
        'About unique scanners',
        `${MEANING} Scans recorded before unique scanners were counted are left out.`,
      ]);
    });
  });

  it("QR code performance: each code's own daily-unique scanners, — when none were counted", async () => {
    const { cookie } = await seedUniques(t());
    const perCode = async (range: typeof RANGE) => {
      const perf = csvSections(
        (await download(t(), cookie, { ...range, type: 'performance', format: 'csv' })).rawPayload,
      ).get('QR code performance')!;
      const at = perf.header.indexOf('Unique scanners');
      expect(at).toBe(perf.header.indexOf('Scans') + 1);
      return Object.fromEntries(perf.rows.map((r): [string, string] => [r[0]!, r[at]!]));
    };
    // The door: 2 on the 2nd (11 and 12) + 1 on the 3rd; the poster: 1 on the 3rd + 1 on the 5th.
    expect(await perCode(RANGE)).toEqual({ [DOOR]: '3', [POSTER]: '2' });
    expect(await perCode(KNOWN)).toEqual({ [DOOR]: '3', [POSTER]: '1' });
    expect(await perCode(BEFORE)).toEqual({ [DOOR]: '—', [POSTER]: '—' });
    const json = (await download(t(), cookie, { ...RANGE, type: 'full', format: 'json' })).json<JsonReport>();
    expect(json.performance.map((r) => [r.name, r.uniqueScanners])).toEqual([
      [DOOR, 3],
      [POSTER, 2],
    ]);
  });

  it('Excel: numbers as numbers, — as text, in the Summary and the Daily scans sheets', async () => {
    const { cookie } = await seedUniques(t());
    const sheets = await readXlsx(
      (await download(t(), cookie, { ...RANGE, type: 'activity', format: 'xlsx' })).rawPayload,
    );
    const summary = new Map(sheets.get('Summary')!.rows.map(([k, v]) => [k!.value as string, v!]));
    expect(summary.get(LABEL)!.value).toBe(5);
    expect(summary.get(LABEL)!.type).toBe(ExcelJS.ValueType.Number);
    expect(summary.get('About unique scanners')!.value).toContain('are left out (their days show —).');
    const daily = sheets.get('Daily scans')!;
    expect(daily.header.map((c) => c.value)).toEqual(['Date', 'Scans', 'Unique scanners']);
    expect(daily.rows.map(([, c, u]) => [c!.value, u!.value])).toEqual([
      [2, '—'],
      [4, 2],
      [2, 2],
      [0, 0],
      [2, '—'],
    ]);

    const before = await readXlsx(
      (await download(t(), cookie, { ...BEFORE, type: 'performance', format: 'xlsx' })).rawPayload,
    );
    const beforeSummary = new Map(before.get('Summary')!.rows.map(([k, v]) => [k!.value as string, v!]));
    expect(beforeSummary.get(LABEL)!.value).toBe('—');
  });

  describe('PDF', () => {
    const figureOf = (items: string[]) => items[items.indexOf(LABEL) + 1];

    it('the summary figure with its note: a number, or — when unknown', async () => {
      const { cookie } = await seedUniques(t());
      const range = await pdfText(
        (await download(t(), cookie, { ...RANGE, type: 'full', format: 'pdf' })).rawPayload,
      );
      expect(figureOf(range)).toBe('5');
      // A bar chart of scans here (up to 92 days): the days' unique scanners are not on it.
      expect(range.join(' ')).toContain(
        `${MEANING} Scans recorded before unique scanners were counted are left out.`,
      );
      const known = await pdfText(
        (await download(t(), cookie, { ...KNOWN, type: 'performance', format: 'pdf' })).rawPayload,
      );
      expect(figureOf(known)).toBe('4');
      const before = await pdfText(
        (await download(t(), cookie, { ...BEFORE, type: 'activity', format: 'pdf' })).rawPayload,
      );
      expect(figureOf(before)).toBe('—');
      expect(before.join(' ')).toContain('Not counted (—)');
    });

    it('a long range lists each day as date, scans, unique scanners', async () => {
      const { cookie } = await seedUniques(t());
      const items = await pdfText(
        (
          await download(t(), cookie, {
            from: '2025-12-01',
            to: '2026-03-19',
            tz: 'UTC',
            type: 'activity',
            format: 'pdf',
          })
        ).rawPayload,
      );
      expect(figureOf(items)).toBe('5');
      expect(items.join(' ')).toContain('are left out (their days show —).');
      const day = (date: string) => items.slice(items.indexOf(date), items.indexOf(date) + 3);
      for (const d of DAILY)
        expect(day(d.date)).toEqual([d.date, String(d.count), String(d.uniqueScanners ?? '—')]);
      expect(day('2025-12-01')).toEqual(['2025-12-01', '0', '0']);
    });
  });
});
