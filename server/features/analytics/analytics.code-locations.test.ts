import { TRPCError } from '@trpc/server';
import { expect, it } from 'vitest';
import type { LocationCount } from '../../../src/analytics/analytics.schema.js';
import { callerFor } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { KOLKATA, NY, expectRanked, useAnalyticsFixture } from './analytics.test-helpers.js';

/** The fixture and its scans are described in analytics.test-helpers.ts. */
describeEachDb('analytics.qrCodeLocations: one code’s scans per location', (getDb) => {
  const { t, signedIn, codes, get } = useAnalyticsFixture(getDb);
  const alice = () => callerFor(t(), signedIn.alice).analytics;

  it('counts one code’s locations over all time, with and without bots', async () => {
    const key = (l: LocationCount) => l.location;
    expectRanked(
      await alice().qrCodeLocations({ id: codes.B.id }),
      [
        { location: 'Delhi, India', count: 2 }, // d1 d4
        { location: 'Lisbon, Portugal', count: 1 },
        { location: 'Unknown', count: 1 }, // b2, a bot
        { location: 'Mumbai, India', count: 1 },
        { location: 'Chennai, India', count: 1 },
      ],
      key,
    );
    const a: LocationCount[] = [
      { location: 'Unknown', count: 3 }, // d2 d3 t1
      { location: 'Berlin, Germany', count: 2 }, // s2 t2 — not Bob's x3
      { location: 'Paris, France', count: 1 },
      { location: 'Madrid, Spain', count: 1 },
      { location: 'New York, United States', count: 1 },
      { location: 'Boston, United States', count: 1 },
      { location: 'Kathmandu, Nepal', count: 1 },
      { location: 'Pokhara, Nepal', count: 1 },
    ];
    expectRanked(await alice().qrCodeLocations({ id: codes.A.id, excludeBots: true }), a, key);
    expectRanked(
      await alice().qrCodeLocations({ id: codes.A.id }),
      [...a, { location: 'Mountain View, United States', count: 1 }], // b1, a bot
      key,
    );
    expect(await alice().qrCodeLocations({ id: codes.C.id })).toEqual([]);
  });

  it('over a period, the codes’ locations add up to the user’s', async () => {
    for (const input of [
      { days: 2, tz: NY },
      { days: 1, tz: KOLKATA },
      { days: 30, tz: NY, excludeBots: true },
    ]) {
      const summed = new Map<string, number>();
      for (const code of [codes.A, codes.B, codes.C])
        for (const l of await alice().qrCodeLocations({ id: code.id, ...input }))
          summed.set(l.location, (summed.get(l.location) ?? 0) + l.count);
      const query = new URLSearchParams(
        Object.entries(input).map(([k, v]) => [k, String(v)] as [string, string]),
      );
      const user = await get<LocationCount[]>(`/api/analytics/locations?${query}`);
      expect(Object.fromEntries(summed), JSON.stringify(input)).toEqual(
        Object.fromEntries(user.map((l) => [l.location, l.count])),
      );
    }
  });

  it('is 404 for another user’s code', async () => {
    const bob = callerFor(t(), { ...signedIn.alice, id: codes.D.user_id });
    await expect(bob.analytics.qrCodeLocations({ id: codes.A.id })).rejects.toSatisfy(
      (e) => e instanceof TRPCError && e.code === 'NOT_FOUND',
    );
  });
});
