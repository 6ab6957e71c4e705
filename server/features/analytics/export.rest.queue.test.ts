import { describe, expect, it } from 'vitest';
import { REPORT_TYPE_LABELS } from '../../../src/analytics/analytics.schema.js';
import { createTestClock, useTestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import {
  MENU_NAME,
  NY,
  download,
  expectFileHeaders,
  pdfText,
  readXlsx,
  seed,
} from './export.test-helpers.js';

/** What a reader sees of a sheet: its name and every cell's value. */
async function xlsxValues(body: Buffer) {
  const sheets = await readXlsx(body);
  return [...sheets].map(([name, s]) => [name, [s.header, ...s.rows].map((r) => r.map((c) => c.value))]);
}

describeOnSqlite('GET /api/analytics/export, PDF and Excel one at a time', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(new Date('2026-03-20T12:00:00.000Z')) });

  describe('exports requested at once', () => {
    it('all complete, each file the same as when requested alone', async () => {
      const f = await seed(t());
      const requests = [
        { type: 'full', format: 'pdf' },
        { type: 'activity', format: 'xlsx' },
        { type: 'activity', format: 'pdf' },
        { type: 'full', format: 'xlsx' },
        { type: 'full', format: 'csv' },
      ] as const;
      const alone = [];
      for (const r of requests) alone.push(await download(t(), f.cookie, { ...NY, ...r }));
      const together = await Promise.all(requests.map((r) => download(t(), f.cookie, { ...NY, ...r })));

      for (const [i, r] of requests.entries()) {
        const res = together[i]!;
        expectFileHeaders(res, r.type, r.format, NY.from, NY.to);
        if (r.format === 'pdf') {
          const items = await pdfText(res.rawPayload);
          expect(items).toContain(REPORT_TYPE_LABELS[r.type]);
          expect(items).toContain(MENU_NAME);
          expect(items).toEqual(await pdfText(alone[i]!.rawPayload));
        } else if (r.format === 'xlsx') {
          const values = await xlsxValues(res.rawPayload);
          expect(values.length).toBeGreaterThan(1);
          expect(values).toEqual(await xlsxValues(alone[i]!.rawPayload));
        } else {
          expect(res.body).toBe(alone[i]!.body);
        }
      }
      // Every turn ended: the next export does not wait.
      const next = await download(t(), f.cookie, { ...NY, type: 'performance', format: 'pdf' });
      expectFileHeaders(next, 'performance', 'pdf', NY.from, NY.to);
    });
  });
});
