import { expect, it } from 'vitest';
import type { ScanHistoryRow } from '../../../src/analytics/analytics.schema.js';
import { call, expectRestError } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { useAnalyticsFixture } from './analytics.test-helpers.js';

/** The fixture's code A has 12 scans (analytics.test-helpers.ts), newest first: */
const NEWEST_FIRST = ['b1', 't2', 't1', 'k2', 'k1', 'n2', 'n1', 'r2', 'd3', 'd2', 's2', 's1'];

describeEachDb("GET /api/analytics/qr-codes/{id}/scans: one code's scans as a paged list", (getDb) => {
  const { t, codes, scanId, signedIn } = useAnalyticsFixture(getDb);

  const list = (query: string, cookie = signedIn.aliceCookie) =>
    call(t().app, 'GET', `/api/v1/analytics/qr-codes/${codes.A.id}/scans${query}`, { cookie });
  const ids = (labels: string[]) => labels.map((label) => scanId.get(label));
  const idsOf = (rows: ScanHistoryRow[]) => rows.map((row) => row.id);

  it('answers a page with X-Total-Count and a Link whose next page follows on', async () => {
    const first = await list('?pageSize=5');
    expect(first.statusCode, first.body).toBe(200);
    expect(idsOf(first.json<ScanHistoryRow[]>())).toEqual(ids(NEWEST_FIRST.slice(0, 5)));
    expect(first.headers['x-total-count']).toBe('12');
    const link = String(first.headers.link);
    expect(link).toMatch(/page=3[^>]*>; rel="last"/);
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    const second = await call(t().app, 'GET', new URL(next).pathname + new URL(next).search, {
      cookie: signedIn.aliceCookie,
    });
    expect(idsOf(second.json<ScanHistoryRow[]>())).toEqual(ids(NEWEST_FIRST.slice(5, 10)));
  });

  it('sorts oldest first, leaves bots out and finds scans by place', async () => {
    const oldest = await list('?order=asc&pageSize=2');
    expect(idsOf(oldest.json<ScanHistoryRow[]>())).toEqual(ids(['s1', 's2']));

    const people = await list('?excludeBots=true');
    expect(people.headers['x-total-count']).toBe('11');
    expect(idsOf(people.json<ScanHistoryRow[]>())).toEqual(ids(NEWEST_FIRST.filter((l) => l !== 'b1')));

    const us = await list('?search=UNITED%20states');
    expect(us.headers['x-total-count']).toBe('3');
    expect(idsOf(us.json<ScanHistoryRow[]>())).toEqual(ids(['b1', 'n2', 'n1']));
    const none = await list('?search=%25');
    expect(none.headers['x-total-count']).toBe('0');
    expect(none.json()).toEqual([]);
  });

  it("is 404 for another user's code and 400 naming a bad parameter", async () => {
    expectRestError(await list('', signedIn.bobCookie), 404, 'NOT_FOUND');
    const body = expectRestError(await list('?pageSize=501'), 400, 'VALIDATION_FAILED');
    expect(body.issues?.[0]?.path).toBe('pageSize');
  });
});
