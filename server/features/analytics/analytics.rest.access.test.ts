import { beforeEach, expect, it } from 'vitest';
import type {
  DailyCount,
  DeviceCount,
  HourlyCount,
  LocationCount,
  PerformanceRow,
  UserSummary,
} from '../../../src/analytics/analytics.schema.js';
import { call, expectRestError, type Response } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import type { QrCodeAnalytics } from '../../../src/analytics/analytics.schema.js';
import {
  expectRanked,
  hours,
  KATHMANDU,
  KOLKATA,
  NY,
  scansPerDay,
  useAnalyticsFixture,
} from './analytics.test-helpers.js';

/** The fixture and its hand-computed answers are described in analytics.test-helpers.ts. */
describeEachDb('analytics REST paths: validation, ownership, sign-in, tRPC twins and deletion', (getDb) => {
  const fx = useAnalyticsFixture(getDb);
  const { t, codes, scanId, get } = fx;
  let aliceCookie: string;
  let bobCookie: string;
  beforeEach(() => {
    ({ aliceCookie, bobCookie } = fx.signedIn);
  });

  // ---- Input validation -----------------------------------------------------------------------------

  const periodPaths = () => [
    '/api/analytics/user',
    `/api/analytics/qr-codes/${codes.A.id}/daily`,
    '/api/analytics/daily',
    '/api/analytics/devices',
    '/api/analytics/hourly',
    '/api/analytics/locations',
    '/api/analytics/performance',
  ];

  it('days outside 1–365 or not a whole number → 400 naming days; 1 and 365 are accepted', async () => {
    for (const path of periodPaths()) {
      for (const days of ['0', '366', 'abc', '-1', '1.5']) {
        const res = await call(t().app, 'GET', `${path}?days=${days}`, { cookie: aliceCookie });
        const body = expectRestError(res, 400, 'VALIDATION_FAILED');
        expect(body.message, `${path}?days=${days}`).toMatch(/days/);
        expect(body.issues?.map((i) => i.path)).toEqual(['days']);
      }
      for (const days of ['1', '365']) {
        const res = await call(t().app, 'GET', `${path}?days=${days}`, { cookie: aliceCookie });
        expect(res.statusCode, `${path}?days=${days}: ${res.body}`).toBe(200);
      }
    }
  });

  it('a time zone that is not an IANA zone → 400 naming tz, on every path', async () => {
    const paths = [...periodPaths(), `/api/analytics/qr-codes/${codes.A.id}`];
    for (const path of paths) {
      for (const tz of ['Mars/Olympus_Mons', 'not a zone', 'UTC+25']) {
        const res = await call(t().app, 'GET', `${path}?tz=${encodeURIComponent(tz)}`, {
          cookie: aliceCookie,
        });
        const body = expectRestError(res, 400, 'VALIDATION_FAILED');
        expect(body.message, `${path}?tz=${tz}`).toMatch(/\btz\b/);
        expect(body.issues?.map((i) => i.path)).toEqual(['tz']);
      }
    }
    const res = await call(t().app, 'GET', '/api/analytics/devices?excludeBots=maybe', {
      cookie: aliceCookie,
    });
    expect(expectRestError(res, 400, 'VALIDATION_FAILED').message).toMatch(/excludeBots/);
  });

  // ---- Ownership and sign-in ------------------------------------------------------------------------

  it("another user's code is 404 on both per-code paths, as is a missing one", async () => {
    for (const path of [
      `/api/analytics/qr-codes/${codes.D.id}`,
      `/api/analytics/qr-codes/${codes.D.id}/daily`,
    ]) {
      expectRestError(await call(t().app, 'GET', path, { cookie: aliceCookie }), 404, 'NOT_FOUND');
    }
    for (const path of ['/api/analytics/qr-codes/987654', '/api/analytics/qr-codes/987654/daily?days=7']) {
      expectRestError(await call(t().app, 'GET', path, { cookie: aliceCookie }), 404, 'NOT_FOUND');
    }
    expectRestError(await call(t().app, 'GET', '/api/analytics/qr-codes/abc', { cookie: aliceCookie }), 400);
    // Bob sees his own code, and only his scans.
    const bobs = await get<QrCodeAnalytics>(`/api/analytics/qr-codes/${codes.D.id}`, bobCookie);
    expect(bobs.totalScans).toBe(4);
    expect(bobs.scans.map((s) => s.id).sort()).toEqual(
      ['x1', 'x2', 'x3', 'x4'].map((l) => scanId.get(l)).sort(),
    );
    expectRestError(
      await call(t().app, 'GET', `/api/analytics/qr-codes/${codes.A.id}`, { cookie: bobCookie }),
      404,
    );
  });

  it("Bob's analytics count only Bob's scans", async () => {
    expect(await get<UserSummary>('/api/analytics/user', bobCookie)).toEqual({
      totalQRCodes: 1,
      totalScans: 4,
      qrCodeScans: [
        {
          id: codes.D.id,
          name: "Bob's poster",
          type: 'url',
          scans: 4,
          lastScanAt: '2026-11-03T06:00:00.000Z',
        },
      ],
      lastScanAt: '2026-11-03T06:00:00.000Z',
      // No hashes in the fixture: only the day of the bot's scan alone is known (0 people).
      uniqueScanners: 0,
      uniqueScannersPartial: true,
    });
    expect(scansPerDay(await get<DailyCount[]>('/api/analytics/daily?days=3', bobCookie))).toEqual([
      { date: '2026-11-01', count: 1 },
      { date: '2026-11-02', count: 1 },
      { date: '2026-11-03', count: 1 },
    ]);
    expect(await get<HourlyCount[]>('/api/analytics/hourly', bobCookie)).toEqual(
      hours({ 5: 1, 6: 1, 8: 1, 12: 1 }),
    );
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices', bobCookie),
      [
        { device: 'Desktop', count: 2 },
        { device: 'Mobile', count: 1 },
        { device: 'Bot', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<LocationCount[]>('/api/analytics/locations', bobCookie),
      [
        { location: 'Tokyo, Japan', count: 2 },
        { location: 'Berlin, Germany', count: 1 },
        { location: 'Paris, France', count: 1 },
      ],
      (l) => l.location,
    );
    expect(await get<PerformanceRow[]>('/api/analytics/performance', bobCookie)).toEqual([
      { qrCodeId: codes.D.id, name: "Bob's poster", type: 'url', count: 4 },
    ]);
  });

  it('signed out: 401 on all eight paths', async () => {
    for (const path of [
      '/api/analytics/user',
      `/api/analytics/qr-codes/${codes.A.id}`,
      `/api/analytics/qr-codes/${codes.A.id}/daily?days=7`,
      '/api/analytics/daily?days=7',
      '/api/analytics/devices',
      '/api/analytics/hourly',
      '/api/analytics/locations',
      '/api/analytics/performance',
    ]) {
      expectRestError(await call(t().app, 'GET', path), 401, 'NOT_SIGNED_IN');
      expectRestError(await call(t().app, 'GET', path, { cookie: 'not-a-session' }), 401, 'NOT_SIGNED_IN');
    }
  });

  // ---- The tRPC twins ---------------------------------------------------------------------------------

  async function trpc(procedure: string, input: unknown, cookie = aliceCookie): Promise<Response> {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return call(t().app, 'GET', `/trpc/analytics.${procedure}${query}`, { cookie });
  }
  async function trpcData<T>(procedure: string, input: unknown): Promise<T> {
    const res = await trpc(procedure, input);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ result: { data: T } }>().result.data;
  }

  it('the tRPC procedures answer exactly what their REST twins answer', async () => {
    const pairs: [string, unknown, string][] = [
      ['user', undefined, '/api/analytics/user'],
      ['user', { days: 7, excludeBots: true }, '/api/analytics/user?days=7&excludeBots=true'],
      ['daily', { days: 7, tz: NY }, `/api/analytics/daily?days=7&tz=${NY}`],
      ['daily', undefined, '/api/analytics/daily'],
      ['qrCode', { id: codes.A.id, page: 2 }, `/api/analytics/qr-codes/${codes.A.id}?page=2`],
      [
        'qrCodeDaily',
        { id: codes.A.id, days: 3, tz: KATHMANDU },
        `/api/analytics/qr-codes/${codes.A.id}/daily?days=3&tz=${KATHMANDU}`,
      ],
      ['devices', { days: 2, tz: KOLKATA }, `/api/analytics/devices?days=2&tz=${KOLKATA}`],
      ['hourly', { tz: NY, excludeBots: true }, `/api/analytics/hourly?tz=${NY}&excludeBots=true`],
      ['locations', { days: 1, tz: KATHMANDU }, `/api/analytics/locations?days=1&tz=${KATHMANDU}`],
      ['performance', { days: 2, tz: NY }, `/api/analytics/performance?days=2&tz=${NY}`],
    ];
    for (const [procedure, input, url] of pairs) {
      expect(await trpcData(procedure, input), `${procedure} ${JSON.stringify(input)}`).toEqual(
        await get(url),
      );
    }
    // And they refuse the same things.
    const bad = await trpc('daily', { days: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { data: { code: string } } }>().error.data.code).toBe('BAD_REQUEST');
    const theirs = await trpc('qrCode', { id: codes.D.id });
    expect(theirs.statusCode).toBe(404);
    expect((await trpc('devices', undefined, '')).statusCode).toBe(401);
  });

  // ---- Deleting a code ------------------------------------------------------------------------------

  it("deleting a code takes its scans out of the owner's daily, hourly, devices and every other answer", async () => {
    const res = await call(t().app, 'DELETE', `/api/qr-codes/${codes.A.id}`, { cookie: aliceCookie });
    expect(res.statusCode, res.body).toBe(200);
    // Only B's scans remain: d1 d4 r1 b2 i1 i2.
    expect(scansPerDay(await get<DailyCount[]>('/api/analytics/daily'))).toEqual([
      { date: '2026-10-28', count: 0 },
      { date: '2026-10-29', count: 0 },
      { date: '2026-10-30', count: 0 },
      { date: '2026-10-31', count: 0 },
      { date: '2026-11-01', count: 3 },
      { date: '2026-11-02', count: 3 },
      { date: '2026-11-03', count: 0 },
    ]);
    expect(await get<HourlyCount[]>('/api/analytics/hourly')).toEqual(hours({ 4: 1, 7: 1, 12: 1, 18: 3 }));
    expect(await get<HourlyCount[]>(`/api/analytics/hourly?tz=${NY}`)).toEqual(
      hours({ 0: 1, 2: 1, 7: 1, 13: 3 }),
    );
    expectRanked(
      await get<DeviceCount[]>('/api/analytics/devices'),
      [
        { device: 'Mobile', count: 3 },
        { device: 'Desktop', count: 1 },
        { device: 'Tablet', count: 1 },
        { device: 'Bot', count: 1 },
      ],
      (d) => d.device,
    );
    expectRanked(
      await get<LocationCount[]>('/api/analytics/locations'),
      [
        { location: 'Delhi, India', count: 2 },
        { location: 'Lisbon, Portugal', count: 1 },
        { location: 'Unknown', count: 1 },
        { location: 'Mumbai, India', count: 1 },
        { location: 'Chennai, India', count: 1 },
      ],
      (l) => l.location,
    );
    expect(await get<PerformanceRow[]>('/api/analytics/performance')).toEqual([
      { qrCodeId: codes.B.id, name: 'Flyer', type: 'url', count: 6 },
      { qrCodeId: codes.C.id, name: 'Never scanned', type: 'url', count: 0 },
    ]);
    expect(await get<UserSummary>('/api/analytics/user')).toEqual({
      totalQRCodes: 2,
      totalScans: 6,
      qrCodeScans: [
        { id: codes.B.id, name: 'Flyer', type: 'url', scans: 6, lastScanAt: '2026-11-02T18:40:00.000Z' },
        { id: codes.C.id, name: 'Never scanned', type: 'url', scans: 0, lastScanAt: null },
      ],
      lastScanAt: '2026-11-02T18:40:00.000Z',
      uniqueScanners: null,
      uniqueScannersPartial: true,
    });
    expectRestError(
      await call(t().app, 'GET', `/api/analytics/qr-codes/${codes.A.id}`, { cookie: aliceCookie }),
      404,
    );
    // Bob's answers are untouched.
    expect((await get<UserSummary>('/api/analytics/user', bobCookie)).totalScans).toBe(4);
  });
});
