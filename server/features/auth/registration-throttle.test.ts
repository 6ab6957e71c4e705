import { expect, it } from 'vitest';
import { useTestApp } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';

/** 25 sign-ups from one address within a second all succeeded, each paying a password hash. */
describeEachDb('sign-up throttling', (getDb) => {
  const t = useTestApp(getDb);
  let serial = 0;
  const register = (remoteAddress: string) => {
    serial += 1;
    return t().app.inject({
      method: 'POST',
      url: '/api/register',
      remoteAddress,
      payload: {
        username: `signup${serial}`,
        password: 'secret-pass',
        name: 'Sign Up',
        email: `signup${serial}@example.com`,
      },
    });
  };

  it('lets one address register 5 times an hour: then 429 with Retry-After, and no account', async () => {
    const before = await countRows(t().db, 'users');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await register('203.0.113.9')).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const refused = await register('203.0.113.9');
    expect(refused.json<{ message: string }>().message).toMatch(
      /^Too many registrations\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await countRows(t().db, 'users')).toBe(before + 5);
    // Another address is not held back; after the hour, this one may register again.
    expect((await register('198.51.100.4')).statusCode).toBe(201);
    t().clock.advance(61 * 60_000);
    expect((await register('203.0.113.9')).statusCode).toBe(201);
  });

  it('25 sign-ups from one address at the same moment: at most 5 get through, the rest are 429', async () => {
    const before = await countRows(t().db, 'users');
    const answers = await Promise.all(Array.from({ length: 25 }, () => register('192.0.2.77')));
    const created = answers.filter((a) => a.statusCode === 201).length;
    expect(answers.filter((a) => a.statusCode !== 201).map((a) => a.statusCode)).toEqual(
      Array<number>(25 - created).fill(429),
    );
    // Each attempt is written before it is counted, so concurrent ones see each other: never more than 5
    // (on PostgreSQL a burst may refuse them all, each seeing the others' rows).
    expect(created).toBeLessThanOrEqual(5);
    expect(await countRows(t().db, 'users')).toBe(before + created);
  });

  it('does not count loopback, where a proxy not named in TRUST_PROXY would put every visitor', async () => {
    for (let i = 0; i < 8; i++) expect((await register('127.0.0.1')).statusCode).toBe(201);
    expect((await register('::1')).statusCode).toBe(201);
  });
});
