import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { QrCodeAnalytics } from '../../../src/analytics/analytics.schema.js';
import { insertQrRow } from '../../test/fixtures.js';
import { call, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { DAY_MS } from './rollup-model.js';
import { writeScansWithRollups } from './scan-rollups.js';
import { deleteScansBefore, startScanRetention } from './scan-retention.js';

const RETENTION_DAYS = 30;

/** `count` scans of the code, one every `stepMs` going back from `newestMs`. */
async function scansBack(
  t: TestApp,
  code: { id: number; user_id: number },
  count: number,
  newestMs: number,
  stepMs: number,
) {
  const rows = Array.from({ length: count }, (_, i) => ({
    owner_id: code.user_id,
    qr_code_id: code.id,
    timestamp: new Date(newestMs - i * stepMs).toISOString(),
    user_agent: 'Mozilla/5.0 (iPhone)',
    ip_address: `203.0.113.${(i % 250) + 1}`,
    referrer: null,
    location: i % 2 ? 'Germany' : 'France',
    device: i % 7 ? 'Mobile' : 'Bot',
  }));
  await t.db.transaction().execute((trx) => writeScansWithRollups(trx, rows));
}

/** Every rollup table, as rows, to compare before and after. */
async function rollups(t: TestApp) {
  const out: Record<string, unknown[]> = {};
  for (const table of [
    'scan_user_quarters',
    'scan_code_quarters',
    'scan_code_days',
    'scan_code_day_locations',
    'scan_user_day_locations',
    'scan_code_places',
  ])
    out[table] = (await sql`select * from ${sql.table(table)} order by 1, 2, 3`.execute(t.db)).rows;
  return out;
}

describeEachDb('SCAN_RETENTION_DAYS', (getDb) => {
  const t = useTestApp(getDb, { config: { scanRetentionDays: RETENTION_DAYS } });

  it('deletes raw scans older than the period in batches, keeps every rollup, and the details page says where the history ends', async () => {
    const { user, cookie } = await signedInUser(t(), 'keeper');
    const code = await insertQrRow(t().db, {
      userId: user.id,
      type: 'url',
      content: 'https://example.com',
      name: 'Kept',
      isDynamic: true,
    });
    const now = t().clock.now().getTime();
    // 4,500 scans from 40 to 87 days ago (more than two batches), 25 in the last day.
    await scansBack(t(), code, 4_500, now - 40 * DAY_MS, 900_000);
    await scansBack(t(), code, 25, now - 60_000, 60_000);
    const before = await rollups(t());
    const totalBefore = (
      await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}`, { cookie })
    ).json<QrCodeAnalytics>();
    expect(totalBefore.totalScans).toBe(4_525);

    const deleted = await deleteScansBefore(t().db, new Date(now - RETENTION_DAYS * DAY_MS), 0);

    expect(deleted).toBe(4_500);
    expect(await countRows(t().db, 'qr_scans')).toBe(25);
    expect(await rollups(t())).toEqual(before);
    const res = await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}?page=3`, { cookie });
    expect(res.statusCode).toBe(200);
    const after = res.json<QrCodeAnalytics>();
    // Totals and devices from the rollups, unchanged; the history pages through the 25 kept scans.
    expect(after.totalScans).toBe(4_525);
    expect(after.devices).toEqual(totalBefore.devices);
    expect(after.totalPages).toBe(3);
    expect(after.scans).toHaveLength(5);
    expect(Date.parse(after.historyFrom!)).toBe(now - RETENTION_DAYS * DAY_MS);
    const daily = await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}/daily?days=90`, { cookie });
    expect(daily.json<{ count: number }[]>().reduce((sum, d) => sum + d.count, 0)).toBe(4_525);
  });

  it('runs in the background and leaves newer scans alone', async () => {
    const { user } = await signedInUser(t(), 'background');
    const code = await insertQrRow(t().db, {
      userId: user.id,
      type: 'url',
      content: 'https://example.com',
      name: 'Bg',
      isDynamic: true,
    });
    const now = t().clock.now().getTime();
    await scansBack(t(), code, 10, now - 31 * DAY_MS, 60_000);
    await scansBack(t(), code, 10, now - 29 * DAY_MS, 60_000);
    const logged: unknown[] = [];
    const stop = startScanRetention(
      t().deps,
      { info: (o: unknown) => logged.push(o), error: () => undefined },
      0,
    );
    try {
      await expect.poll(() => countRows(t().db, 'qr_scans')).toBe(10);
    } finally {
      stop();
    }
    expect(logged).toEqual([{ deleted: 10, retentionDays: RETENTION_DAYS }]);
  });
});

describeEachDb('without SCAN_RETENTION_DAYS', (getDb) => {
  const t = useTestApp(getDb);

  it('keeps every raw scan and says the whole history is kept', async () => {
    const { user, cookie } = await signedInUser(t(), 'hoarder');
    const code = await insertQrRow(t().db, {
      userId: user.id,
      type: 'url',
      content: 'https://example.com',
      name: 'All',
      isDynamic: true,
    });
    await scansBack(t(), code, 5, t().clock.now().getTime() - 900 * DAY_MS, 60_000);
    const stop = startScanRetention(t().deps, { info: () => undefined, error: () => undefined }, 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    expect(await countRows(t().db, 'qr_scans')).toBe(5);
    const details = (
      await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}`, { cookie })
    ).json<QrCodeAnalytics>();
    expect(details.historyFrom).toBeNull();
  });
});
