import { expect, it } from 'vitest';
import type { DailyCount, ScanHistoryRow } from '../../../src/analytics/analytics.schema.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { describeEachDb } from '../../test/test-db.js';
import type { QrCodeAnalytics } from '../../../src/analytics/analytics.schema.js';
import {
  expectRanked,
  KATHMANDU,
  KOLKATA,
  NY,
  scanByLabel,
  scansPerDay,
  useAnalyticsFixture,
} from './analytics.test-helpers.js';

/** The fixture and its hand-computed answers are described in analytics.test-helpers.ts. */
describeEachDb("analytics REST paths: one code's history, totals and daily counts", (getDb) => {
  const { codes, scanId, get } = useAnalyticsFixture(getDb);

  // ---- GET /api/analytics/qr-codes/{id} ------------------------------------------------------------

  function historyRow(label: string) {
    const s = scanByLabel.get(label)!;
    const device = s.device ?? 'Unknown';
    return {
      id: scanId.get(label)!,
      timestamp: s.at,
      userAgent: s.ua,
      location: s.location,
      ipAddress: s.ip,
      device,
      // Written by the fixture without a rule: served, its rule not recorded.
      outcome: { kind: 'unknown', rule: null },
    };
  }

  function withoutDeviceName(rows: ScanHistoryRow[]) {
    return rows.map(({ deviceName, ...rest }) => {
      expect(deviceName === null || typeof deviceName === 'string').toBe(true);
      if (rest.userAgent === null) expect(deviceName).toBeNull();
      return rest;
    });
  }

  it('per-code: the code, a page of 10 newest scans, page 2, totals, unique devices and places', async () => {
    const code = await get<QrCode>(`/api/qr-codes/${codes.A.id}`);
    const page1 = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}`);
    expect(page1.qrCode).toEqual(code);
    expect(Object.keys(page1.scans[0]!).sort()).toEqual(
      ['device', 'deviceName', 'id', 'ipAddress', 'location', 'outcome', 'timestamp', 'userAgent'].sort(),
    );
    expect(withoutDeviceName(page1.scans)).toEqual(
      ['b1', 't2', 't1', 'k2', 'k1', 'n2', 'n1', 'r2', 'd3', 'd2'].map(historyRow),
    );
    const { qrCode: _code, scans: _scans, devices: _devices, ...totals } = page1;
    expect(totals).toEqual({
      page: 1,
      pageSize: 10,
      totalPages: 2,
      totalScans: 12,
      // Desktop, Mobile, Tablet, Unknown (t1) and Bot (b1).
      uniqueDevices: 5,
      // Paris, Berlin (s2 t2), ip 10.0.0.1 (d2 'Unknown', t1 no location), ip 10.0.0.2 (d3), Madrid,
      // New York, Boston, Kathmandu, Pokhara, Mountain View.
      uniqueLocations: 10,
      throttledScans: 0,
      refusedScans: 0,
      // The fixture's scans carry no visitor hash, as scans stored before unique scanners were counted.
      uniqueScanners: null,
      uniqueScannersPartial: true,
      historyFrom: null,
    });
    expectRanked(
      page1.devices,
      [
        { device: 'Mobile', count: 6 },
        { device: 'Desktop', count: 3 },
        { device: 'Tablet', count: 1 },
        { device: 'Bot', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );

    const page2 = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}?page=2`);
    expect(withoutDeviceName(page2.scans)).toEqual(['s2', 's1'].map(historyRow));
    expect(page2.page).toBe(2);
    expect(page2.totalPages).toBe(2);
    expect((await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}?page=3`)).scans).toEqual([]);
  });

  it('per-code: IP addresses as stored, and unique places of a code with an unknown address', async () => {
    const a = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}`);
    const byLabel = (label: string) => a.scans.find((s) => s.id === scanId.get(label));
    expect(byLabel('r2')?.ipAddress).toBe('2001:db8::8');
    expect(byLabel('n2')?.ipAddress).toBe('198.51.100.0');
    expect(byLabel('t1')).toMatchObject({
      ipAddress: '10.0.0.1',
      location: null,
      userAgent: null,
      device: 'Unknown',
    });

    const b = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.B.id}`);
    expect(withoutDeviceName(b.scans)).toEqual(['i2', 'i1', 'b2', 'r1', 'd4', 'd1'].map(historyRow));
    expect(b.scans.find((s) => s.id === scanId.get('b2'))?.ipAddress).toBeNull();
    // Delhi (d1 d4), Lisbon, Mumbai, Chennai, and b2 with neither location nor address.
    expect(b.uniqueLocations).toBe(5);
    expect(b.uniqueDevices).toBe(4);
    expect(b.totalPages).toBe(1);

    const c = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.C.id}`);
    expect(c.qrCode.id).toBe(codes.C.id);
    const { qrCode: _c, ...neverScanned } = c;
    expect(neverScanned).toEqual({
      scans: [],
      page: 1,
      pageSize: 10,
      totalPages: 1,
      totalScans: 0,
      uniqueLocations: 0,
      uniqueDevices: 0,
      devices: [],
      throttledScans: 0,
      refusedScans: 0,
      uniqueScanners: 0,
      uniqueScannersPartial: false,
      historyFrom: null,
    });
  });

  it('per-code without bots: the bot scan leaves the history, totals, devices and places', async () => {
    const page1 = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}?excludeBots=true`);
    expect(withoutDeviceName(page1.scans)).toEqual(
      ['t2', 't1', 'k2', 'k1', 'n2', 'n1', 'r2', 'd3', 'd2', 's2'].map(historyRow),
    );
    expect(page1.totalScans).toBe(11);
    expect(page1.totalPages).toBe(2);
    expect(page1.uniqueDevices).toBe(4);
    expect(page1.devices.find((d) => d.device === 'Bot')).toBeUndefined();
    // Mountain View was only ever a bot's place.
    expect(page1.uniqueLocations).toBe(9);
    const page2 = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.A.id}?excludeBots=true&page=2`);
    expect(withoutDeviceName(page2.scans)).toEqual([historyRow('s1')]);
  });

  // ---- GET /api/analytics/qr-codes/{id}/daily ------------------------------------------------------

  it("per-code daily: the code's own scans per local day, zero days included", async () => {
    expect(
      scansPerDay(await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily?days=7&tz=${NY}`)),
    ).toEqual([
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 4 }, // d2 d3 r2 n1
      { date: '2026-11-02', count: 4 }, // n2 k1 k2 t1
      { date: '2026-11-03', count: 2 }, // t2 b1
    ]);
    // Default: 7 UTC days.
    expect(scansPerDay(await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily`))).toEqual([
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 3 }, // d2 d3 r2
      { date: '2026-11-02', count: 4 }, // n1 n2 k1 k2
      { date: '2026-11-03', count: 3 }, // t1 t2 b1
    ]);
    expect(
      scansPerDay(
        await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily?days=3&tz=${KATHMANDU}`),
      ),
    ).toEqual([
      { date: '2026-11-01', count: 2 }, // d2 d3
      { date: '2026-11-02', count: 4 }, // r2 (01:45) n1 n2 k1 (23:50)
      { date: '2026-11-03', count: 4 }, // k2 (00:10) t1 t2 b1
    ]);
    expect(
      scansPerDay(
        await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.B.id}/daily?days=3&tz=${KOLKATA}`),
      ),
    ).toEqual([
      { date: '2026-11-01', count: 3 }, // d1 d4 r1 (23:30)
      { date: '2026-11-02', count: 2 }, // b2 i1 (23:50)
      { date: '2026-11-03', count: 1 }, // i2 (00:10)
    ]);
    expect(
      scansPerDay(
        await get<DailyCount[]>(
          `/api/analytics/qr-codes/${codes.B.id}/daily?days=3&tz=${KOLKATA}&excludeBots=true`,
        ),
      ),
    ).toEqual([
      { date: '2026-11-01', count: 3 },
      { date: '2026-11-02', count: 1 },
      { date: '2026-11-03', count: 1 },
    ]);
    expect(
      scansPerDay(await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.C.id}/daily?days=2`)),
    ).toEqual([
      { date: '2026-11-02', count: 0 },
      { date: '2026-11-03', count: 0 },
    ]);
    const year = scansPerDay(await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily?days=365`));
    expect(year).toHaveLength(365);
    expect(year.filter((d) => d.count > 0)).toEqual([
      { date: '2026-10-01', count: 1 },
      { date: '2026-11-01', count: 3 },
      { date: '2026-11-02', count: 4 },
      { date: '2026-11-03', count: 3 },
    ]);
  });
});
