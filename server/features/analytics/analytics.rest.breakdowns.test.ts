import { expect, it } from 'vitest';
import type { DeviceCount, LocationCount, PerformanceRow } from '../../../src/analytics/analytics.schema.js';
import { describeEachDb } from '../../test/test-db.js';
import { KATHMANDU, KOLKATA, NY, expectRanked, useAnalyticsFixture } from './analytics.test-helpers.js';

/** The fixture and its hand-computed answers are described in analytics.test-helpers.ts. */
describeEachDb('analytics REST paths: devices, locations and performance', (getDb) => {
  const { get, perf } = useAnalyticsFixture(getDb);

  // ---- GET /api/analytics/devices ------------------------------------------------------------------

  it('devices: bots are their own category unless excluded; periods count only their scans', async () => {
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices'),
      [
        { device: 'Mobile', count: 9 },
        { device: 'Desktop', count: 4 },
        { device: 'Tablet', count: 2 },
        { device: 'Bot', count: 2 },
        { device: 'Unknown', count: 1 }, // t1: no device recorded
      ],
      (d) => d.device,
    );
    expect(await get<DeviceCount[]>('/api/analytics/devices?excludeBots=true')).toEqual([
      { device: 'Mobile', count: 9 },
      { device: 'Desktop', count: 4 },
      { device: 'Tablet', count: 2 },
      { device: 'Unknown', count: 1 },
    ]);
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices?days=7'),
      [
        { device: 'Mobile', count: 8 },
        { device: 'Desktop', count: 3 },
        { device: 'Tablet', count: 2 },
        { device: 'Bot', count: 2 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices?days=365'),
      [
        { device: 'Mobile', count: 9 },
        { device: 'Desktop', count: 3 },
        { device: 'Tablet', count: 2 },
        { device: 'Bot', count: 2 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices?days=1'),
      [
        { device: 'Mobile', count: 1 },
        { device: 'Bot', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
  });

  // ---- GET /api/analytics/locations ----------------------------------------------------------------

  const allLocations: LocationCount[] = [
    { location: 'Unknown', count: 4 }, // d2 d3 b2 t1 (no location recorded)
    { location: 'Berlin, Germany', count: 2 }, // s2 t2 — not Bob's x3
    { location: 'Delhi, India', count: 2 },
    { location: 'Paris, France', count: 1 },
    { location: 'Lisbon, Portugal', count: 1 },
    { location: 'Madrid, Spain', count: 1 },
    { location: 'New York, United States', count: 1 },
    { location: 'Boston, United States', count: 1 },
    { location: 'Kathmandu, Nepal', count: 1 },
    { location: 'Mumbai, India', count: 1 },
    { location: 'Pokhara, Nepal', count: 1 },
    { location: 'Chennai, India', count: 1 },
    { location: 'Mountain View, United States', count: 1 },
  ];

  it('locations: all time, with and without bots', async () => {
    expectRanked(await get<LocationCount[]>('/api/analytics/locations'), allLocations, (l) => l.location);
    expectRanked(
      await get<LocationCount[]>('/api/analytics/locations?excludeBots=true'),
      [
        { location: 'Unknown', count: 3 },
        ...allLocations.filter(
          (l) => l.location !== 'Unknown' && l.location !== 'Mountain View, United States',
        ),
      ],
      (l) => l.location,
    );
  });

  it('locations, devices and performance of periods that start mid-UTC-day are exact at the edge', async () => {
    // New York, 2 days: from 2026-11-02T05:00Z. n1 (04:50Z) is out, n2 (05:10Z) is in.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=2&tz=${NY}`),
      [
        { location: 'Unknown', count: 2 }, // b2 t1
        { location: 'Boston, United States', count: 1 },
        { location: 'Kathmandu, Nepal', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    // Without bots: b2 (a bot at 12:00Z) sits in the ragged first UTC day, b1 in the whole day after.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=2&tz=${NY}&excludeBots=true`),
      [
        { location: 'Unknown', count: 1 }, // t1
        { location: 'Boston, United States', count: 1 },
        { location: 'Kathmandu, Nepal', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<DeviceCount[]>(`/api/analytics/devices?days=2&tz=${NY}`),
      [
        { device: 'Mobile', count: 4 }, // k1 i1 k2 t2
        { device: 'Bot', count: 2 },
        { device: 'Desktop', count: 1 },
        { device: 'Tablet', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<PerformanceRow[]>(`/api/analytics/performance?days=2&tz=${NY}`),
      perf(6, 3),
      (p) => p.qrCodeId,
    );
    expectRanked(
      await get<PerformanceRow[]>(`/api/analytics/performance?days=2&tz=${NY}&excludeBots=true`),
      perf(5, 2),
      (p) => p.qrCodeId,
    );

    // New York, 1 day: from 2026-11-03T05:00Z. t1 (04:55Z) is out.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=1&tz=${NY}`),
      [
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=1&tz=${NY}`)).toEqual(perf(2, 0));

    // Kolkata, 1 day: from 2026-11-02T18:30Z. i1 (18:20Z) and k2 (18:25Z) are out, i2 (18:40Z) is in.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=1&tz=${KOLKATA}`),
      [
        { location: 'Chennai, India', count: 1 },
        { location: 'Unknown', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<DeviceCount[]>(`/api/analytics/devices?days=1&tz=${KOLKATA}`),
      [
        { device: 'Mobile', count: 1 },
        { device: 'Tablet', count: 1 },
        { device: 'Bot', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=1&tz=${KOLKATA}`)).toEqual(
      perf(3, 1),
    );

    // Kathmandu, 1 day: from 2026-11-02T18:15Z. k1 (18:05Z) is out, i1 (18:20Z) and k2 (18:25Z) are in.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=1&tz=${KATHMANDU}`),
      [
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Unknown', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<DeviceCount[]>(`/api/analytics/devices?days=1&tz=${KATHMANDU}`),
      [
        { device: 'Mobile', count: 3 },
        { device: 'Tablet', count: 1 },
        { device: 'Bot', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=1&tz=${KATHMANDU}`)).toEqual(
      perf(4, 2),
    );

    // Kolkata, 2 days: from 2026-11-01T18:30Z — a ragged evening (r1 at 18:00Z out, r2 at 20:00Z in)
    // followed by two whole UTC days.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=2&tz=${KOLKATA}`),
      [
        { location: 'Unknown', count: 2 }, // b2 t1
        { location: 'Madrid, Spain', count: 1 },
        { location: 'New York, United States', count: 1 },
        { location: 'Boston, United States', count: 1 },
        { location: 'Kathmandu, Nepal', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Mountain View, United States', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=2&tz=${KOLKATA}&excludeBots=true`),
      [
        { location: 'Unknown', count: 1 },
        { location: 'Madrid, Spain', count: 1 },
        { location: 'New York, United States', count: 1 },
        { location: 'Boston, United States', count: 1 },
        { location: 'Kathmandu, Nepal', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Pokhara, Nepal', count: 1 },
        { location: 'Chennai, India', count: 1 },
        { location: 'Berlin, Germany', count: 1 },
      ],
      (l) => l.location,
    );
    expectRanked(
      await get<DeviceCount[]>(`/api/analytics/devices?days=2&tz=${KOLKATA}`),
      [
        { device: 'Mobile', count: 5 }, // n1 k1 i1 k2 t2
        { device: 'Desktop', count: 2 }, // r2 n2
        { device: 'Bot', count: 2 },
        { device: 'Tablet', count: 1 },
        { device: 'Unknown', count: 1 },
      ],
      (d) => d.device,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=2&tz=${KOLKATA}`)).toEqual(
      perf(8, 3),
    );
    expect(
      await get<PerformanceRow[]>(`/api/analytics/performance?days=2&tz=${KOLKATA}&excludeBots=true`),
    ).toEqual(perf(7, 2));

    // New York, 3 days: from 2026-11-01 00:00 EDT = 04:00Z (not 05:00Z): d1 at 04:30Z is in.
    expectRanked(
      await get<LocationCount[]>(`/api/analytics/locations?days=3&tz=${NY}`),
      [
        { location: 'Unknown', count: 4 },
        { location: 'Delhi, India', count: 2 },
        ...allLocations.filter((l) => l.count === 1 && l.location !== 'Paris, France'),
        { location: 'Berlin, Germany', count: 1 }, // t2; s2 is older
      ],
      (l) => l.location,
    );
    expect(await get<PerformanceRow[]>(`/api/analytics/performance?days=3&tz=${NY}`)).toEqual(perf(10, 6));
  });

  // ---- GET /api/analytics/performance --------------------------------------------------------------

  it('performance: every code of the caller, the never-scanned one with 0, most scanned first', async () => {
    const all = await get<PerformanceRow[]>('/api/analytics/performance');
    expect(all).toEqual(perf(12, 6));
    for (const row of all) expect(Object.keys(row).sort()).toEqual(['count', 'name', 'qrCodeId', 'type']);
    expect(await get<PerformanceRow[]>('/api/analytics/performance?excludeBots=true')).toEqual(perf(11, 5));
    // 90 days (from 2026-08-06): s2 (2026-10-01) in, s1 out; 30 days (from 2026-10-05): both out.
    expect(await get<PerformanceRow[]>('/api/analytics/performance?days=90')).toEqual(perf(11, 6));
    expect(await get<PerformanceRow[]>('/api/analytics/performance?days=30')).toEqual(perf(10, 6));
  });
});
