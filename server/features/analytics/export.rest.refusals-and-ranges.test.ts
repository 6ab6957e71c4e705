import { describe, expect, it } from 'vitest';
import { createTestClock, expectRestError, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import {
  KOLKATA,
  NY,
  checkJsonTotals,
  download,
  expectFileHeaders,
  expected,
  seed,
  type JsonReport,
} from './export.test-helpers.js';

describeEachDb('GET /api/analytics/export', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(new Date('2026-03-20T12:00:00.000Z')) });

  describe('refusals', () => {
    it('answers 401 in the REST error shape when signed out', async () => {
      await seed(t());
      const res = await download(t(), undefined, { ...NY, type: 'full', format: 'csv' });
      expectRestError(res, 401, 'NOT_SIGNED_IN');
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
        const body = expectRestError(await download(t(), f.cookie, params), 400, 'VALIDATION_FAILED');
        expect(body.issues?.map((i) => i.path)).toContain(field);
        expect(body.message).toContain(field);
      });
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
        { date: '2026-03-02', count: 3, uniqueScanners: null },
        { date: '2026-03-03', count: 2, uniqueScanners: null },
        { date: '2026-03-04', count: 1, uniqueScanners: null },
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
      expect(report.daily).toEqual([{ date: '2026-03-04', count: 3, uniqueScanners: null }]);
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
});
