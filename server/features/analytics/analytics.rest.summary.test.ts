import { expect, it } from 'vitest';
import type { DailyCount, HourlyCount, UserSummary } from '../../../src/analytics/analytics.schema.js';
import { signedInUser } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { hours, KATHMANDU, KOLKATA, NY, scansPerDay, useAnalyticsFixture } from './analytics.test-helpers.js';

/** The fixture and its hand-computed answers are described in analytics.test-helpers.ts. */
describeEachDb('analytics REST paths: user summary, daily and hourly counts', (getDb) => {
  const { t, codes, get } = useAnalyticsFixture(getDb);

  // ---- GET /api/analytics/user ---------------------------------------------------------------------

  it('user summary: every code with its scans, most scanned first, and the time of the last scan', async () => {
    const summary = await get<UserSummary>('/api/analytics/user');
    expect(Object.keys(summary).sort()).toEqual([
      'lastScanAt',
      'qrCodeScans',
      'totalQRCodes',
      'totalScans',
      'uniqueScanners',
      'uniqueScannersPartial',
    ]);
    expect(summary).toEqual({
      totalQRCodes: 3,
      totalScans: 18,
      qrCodeScans: [
        // Each code's last scan: A's is b1 (a bot), B's i2; C has none.
        { id: codes.A.id, name: 'Menu', type: 'url', scans: 12, lastScanAt: '2026-11-03T09:00:00.000Z' },
        { id: codes.B.id, name: 'Flyer', type: 'url', scans: 6, lastScanAt: '2026-11-02T18:40:00.000Z' },
        { id: codes.C.id, name: 'Never scanned', type: 'url', scans: 0, lastScanAt: null },
      ],
      lastScanAt: '2026-11-03T09:00:00.000Z',
      // The fixture's scans carry no visitor hash, as scans stored before unique scanners were counted.
      uniqueScanners: null,
      uniqueScannersPartial: true,
    });
  });

  it('user summary without bots: bot scans leave the totals and the last scan time', async () => {
    expect(await get<UserSummary>('/api/analytics/user?excludeBots=true')).toEqual({
      totalQRCodes: 3,
      totalScans: 16,
      qrCodeScans: [
        // Without bots A's last scan is t2; B's bot (b2) was not its last.
        { id: codes.A.id, name: 'Menu', type: 'url', scans: 11, lastScanAt: '2026-11-03T05:05:00.000Z' },
        { id: codes.B.id, name: 'Flyer', type: 'url', scans: 5, lastScanAt: '2026-11-02T18:40:00.000Z' },
        { id: codes.C.id, name: 'Never scanned', type: 'url', scans: 0, lastScanAt: null },
      ],
      // b1 (09:00) is a bot: the last human scan is t2.
      lastScanAt: '2026-11-03T05:05:00.000Z',
      uniqueScanners: null,
      uniqueScannersPartial: true,
    });
  });

  it('user summary over a period counts only its scans; all time without days', async () => {
    // UTC, 7 days: 2026-10-28 00:00Z on — s1 and s2 are older.
    const week = await get<UserSummary>('/api/analytics/user?days=7');
    expect(week.totalScans).toBe(16);
    expect(week.qrCodeScans.map((c) => c.scans)).toEqual([10, 6, 0]);
    // 365 days: 2025-11-04 on — only s1 (2025-06-15) is older.
    expect((await get<UserSummary>('/api/analytics/user?days=365')).totalScans).toBe(17);
    // New York, 1 day: from 2026-11-03 00:00 EST = 05:00Z — t2 and b1.
    const today = await get<UserSummary>(`/api/analytics/user?days=1&tz=${NY}`);
    expect(today.totalScans).toBe(2);
    expect(today.qrCodeScans).toEqual([
      // The last scan is of all time, whatever the period.
      { id: codes.A.id, name: 'Menu', type: 'url', scans: 2, lastScanAt: '2026-11-03T09:00:00.000Z' },
      { id: codes.B.id, name: 'Flyer', type: 'url', scans: 0, lastScanAt: '2026-11-02T18:40:00.000Z' },
      { id: codes.C.id, name: 'Never scanned', type: 'url', scans: 0, lastScanAt: null },
    ]);
  });

  it('user summary of a user without scans', async () => {
    const { cookie } = await signedInUser(t(), 'carol');
    expect(await get<UserSummary>('/api/analytics/user', cookie)).toEqual({
      totalQRCodes: 0,
      totalScans: 0,
      qrCodeScans: [],
      lastScanAt: null,
      uniqueScanners: 0,
      uniqueScannersPartial: false,
    });
  });

  // ---- GET /api/analytics/daily --------------------------------------------------------------------

  it('daily: one entry per UTC day of the last 7 by default, zero days included', async () => {
    const expected = [
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 6 }, // d1 d2 d3 d4 r1 r2
      { date: '2026-11-02', count: 7 }, // n1 n2 b2 k1 i1 k2 i2
      { date: '2026-11-03', count: 3 }, // t1 t2 b1
    ];
    expect(scansPerDay(await get<DailyCount[]>('/api/analytics/daily'))).toEqual(expected);
    expect(scansPerDay(await get<DailyCount[]>('/api/analytics/daily?days=7&tz=UTC'))).toEqual(expected);
  });

  it('daily in New York: the 25-hour 2026-11-01 holds 00:30 EDT to 23:50 EST; 23:55 is the day before 00:05', async () => {
    expect(scansPerDay(await get<DailyCount[]>(`/api/analytics/daily?days=7&tz=${NY}`))).toEqual([
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 7 }, // d1 (00:30 EDT) d2 d3 d4 r1 r2 n1 (23:50 EST)
      { date: '2026-11-02', count: 7 }, // n2 (00:10) b2 k1 i1 k2 i2 t1 (23:55)
      { date: '2026-11-03', count: 2 }, // t2 (00:05) b1
    ]);
    // The period starts at local midnight before the change: 2026-11-01 00:00 EDT = 04:00Z.
    expect(scansPerDay(await get<DailyCount[]>(`/api/analytics/daily?days=3&tz=${NY}`))).toEqual([
      { date: '2026-11-01', count: 7 },
      { date: '2026-11-02', count: 7 },
      { date: '2026-11-03', count: 2 },
    ]);
  });

  it('daily in Kolkata (+5:30): 23:50 and 23:55 IST stay on 11-02, 00:10 IST is 11-03', async () => {
    expect(scansPerDay(await get<DailyCount[]>(`/api/analytics/daily?days=3&tz=${KOLKATA}`))).toEqual([
      { date: '2026-11-01', count: 5 }, // d1 d2 d3 d4 r1 (23:30)
      { date: '2026-11-02', count: 7 }, // r2 (01:30) n1 n2 b2 k1 i1 (23:50) k2 (23:55)
      { date: '2026-11-03', count: 4 }, // i2 (00:10) t1 t2 b1
    ]);
  });

  it('daily in Kathmandu (+5:45): 23:50 NPT stays on 11-02, 00:05/00:10/00:25 NPT are 11-03', async () => {
    expect(scansPerDay(await get<DailyCount[]>(`/api/analytics/daily?days=3&tz=${KATHMANDU}`))).toEqual([
      { date: '2026-11-01', count: 5 }, // d1 d2 d3 d4 r1 (23:45)
      { date: '2026-11-02', count: 5 }, // r2 (01:45) n1 n2 b2 k1 (23:50)
      { date: '2026-11-03', count: 6 }, // i1 (00:05) k2 (00:10) i2 (00:25) t1 t2 b1
    ]);
  });

  it('daily: days=1 is local today only; days=365 is a year of entries ending today', async () => {
    expect(scansPerDay(await get<DailyCount[]>('/api/analytics/daily?days=1'))).toEqual([
      { date: '2026-11-03', count: 3 },
    ]);
    expect(scansPerDay(await get<DailyCount[]>(`/api/analytics/daily?days=1&tz=${NY}`))).toEqual([
      { date: '2026-11-03', count: 2 },
    ]);
    const year = scansPerDay(await get<DailyCount[]>('/api/analytics/daily?days=365'));
    expect(year).toHaveLength(365);
    expect(year[0]).toEqual({ date: '2025-11-04', count: 0 });
    expect(year[364]).toEqual({ date: '2026-11-03', count: 3 });
    // Consecutive dates, no gaps or repeats.
    for (let i = 1; i < year.length; i++)
      expect(Date.parse(year[i]!.date) - Date.parse(year[i - 1]!.date)).toBe(86_400_000);
    expect(year.filter((d) => d.count > 0)).toEqual([
      { date: '2026-10-01', count: 1 },
      { date: '2026-11-01', count: 6 },
      { date: '2026-11-02', count: 7 },
      { date: '2026-11-03', count: 3 },
    ]);
  });

  it('daily without bots', async () => {
    expect(
      scansPerDay(await get<DailyCount[]>(`/api/analytics/daily?days=3&tz=${NY}&excludeBots=true`)),
    ).toEqual([
      { date: '2026-11-01', count: 7 },
      { date: '2026-11-02', count: 6 }, // b2
      { date: '2026-11-03', count: 1 }, // b1
    ]);
  });

  // ---- GET /api/analytics/hourly -------------------------------------------------------------------

  it('hourly: 24 local hours of all scans, in UTC and in each zone', async () => {
    const utc = await get<HourlyCount[]>('/api/analytics/hourly');
    expect(utc).toEqual(hours({ 4: 3, 5: 3, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 12: 1, 18: 5, 20: 1 }));
    // New York: d2 (01:30 EDT) and d3 (01:30 EST) share hour 1 of the day summer time ended.
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${NY}`)).toEqual(
      hours({ 0: 3, 1: 2, 2: 1, 4: 2, 6: 1, 7: 1, 13: 5, 15: 1, 23: 2 }),
    );
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${KOLKATA}`)).toEqual(
      hours({ 0: 1, 1: 1, 10: 5, 11: 1, 12: 1, 13: 2, 14: 1, 15: 1, 17: 1, 23: 4 }),
    );
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${KATHMANDU}`)).toEqual(
      hours({ 0: 3, 1: 1, 10: 5, 11: 1, 12: 1, 13: 2, 14: 1, 15: 1, 17: 1, 23: 2 }),
    );
  });

  it('hourly over a period and without bots', async () => {
    // New York, 2 days: from 2026-11-02 00:00 EST = 05:00Z.
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?days=2&tz=${NY}`)).toEqual(
      hours({ 0: 2, 4: 1, 7: 1, 13: 4, 23: 1 }),
    );
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?days=2&tz=${NY}&excludeBots=true`)).toEqual(
      hours({ 0: 2, 13: 4, 23: 1 }),
    );
    // Kathmandu, 1 day: from 2026-11-03 00:00 NPT = 2026-11-02T18:15Z.
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?days=1&tz=${KATHMANDU}`)).toEqual(
      hours({ 0: 3, 10: 2, 14: 1 }),
    );
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${NY}&excludeBots=true`)).toEqual(
      hours({ 0: 3, 1: 2, 2: 1, 4: 1, 6: 1, 13: 5, 15: 1, 23: 2 }),
    );
  });
});
