import { expect, it } from 'vitest';
import type { AdminUser } from '../../../src/admin/admin.schema.js';
import { insertManyUsers } from '../../test/many-users.js';
import { call, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

describeEachDb('the users page at 10,000 users', (getDb) => {
  const t = useTestApp(getDb);

  it(
    'answers one page of rows, searched, sorted and counted by the database',
    { timeout: 60_000 },
    async () => {
      const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
      // User 7777 owns the most codes; every 100th user owns one.
      await insertManyUsers(t().db, 10_000, (i) => (i === 7777 ? 12 : i % 100 === 0 ? 1 : 0));

      const first = await call(t().app, 'GET', '/api/admin/users?pageSize=25', { cookie });
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-total-count']).toBe('10001');
      const rows = first.json<AdminUser[]>();
      expect(rows).toHaveLength(25);
      // Newest first by default: root signed up last.
      expect(rows[0]!.username).toBe('root');
      expect(rows[1]!.username).toBe('user10000');

      const busiest = await call(t().app, 'GET', '/api/admin/users?sort=qrCodeCount&order=desc&pageSize=3', {
        cookie,
      });
      expect(busiest.json<AdminUser[]>().map((u) => [u.username, u.qrCodeCount])).toEqual([
        ['user07777', 12],
        // Ties in the order asked for, by id: never a row twice across pages.
        ['user10000', 1],
        ['user09900', 1],
      ]);

      const found = await call(t().app, 'GET', '/api/admin/users?search=user0999&sort=username&order=asc', {
        cookie,
      });
      expect(found.headers['x-total-count']).toBe('10');
      expect(found.json<AdminUser[]>()[0]!.username).toBe('user09990');

      const last = await call(
        t().app,
        'GET',
        '/api/admin/users?sort=username&order=asc&page=401&pageSize=25',
        {
          cookie,
        },
      );
      expect(last.json<AdminUser[]>().map((u) => u.username)).toEqual(['user10000']);

      const paid = await call(t().app, 'GET', '/api/admin/subscriptions?filter=paid&pageSize=1', { cookie });
      expect(paid.headers['x-total-count']).toBe('1000');
    },
  );
});
