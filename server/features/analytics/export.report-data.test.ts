import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { createTestClock, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import { datesPeriod } from './period.js';
import { NY, expected, seed } from './export.test-helpers.js';
import { maskIp, readScans, type ReportScan } from './report-data.js';
import { pdfText as pdfSafe } from './report-pdf.js';
import { dayOfLabel } from '../scans/time-zone.js';

describeEachDb('GET /api/analytics/export', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(new Date('2026-03-20T12:00:00.000Z')) });

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
