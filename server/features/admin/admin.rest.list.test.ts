import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../../src/admin/admin.schema.js';
import type { AdminWorkspace } from '../../../src/workspaces/workspace.schema.js';
import { call, callerFor, signedInUser, useTestApp, type Response } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

// The admin area's lists follow the paging convention of src/api/paging.ts: Link headers to follow,
// pages up to 500 rows, while their tRPC twins keep the admin pages' smaller pages.

function linksOf(res: Response): Record<string, string> {
  const links: Record<string, string> = {};
  for (const match of String(res.headers.link).matchAll(/<([^>]+)>; rel="(\w+)"/g)) {
    const url = new URL(match[1]!);
    links[match[2]!] = url.pathname + url.search;
  }
  return links;
}

describeEachDb('admin lists, paged', (getDb) => {
  const t = useTestApp(getDb);

  describe('GET /api/admin/users and /api/admin/subscriptions', () => {
    it('link to the next page with the same search, filter and sort', async () => {
      const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
      for (const name of ['payer1', 'payer2', 'payer3'])
        await signedInUser(t(), name, { subscriptionTier: 'pro' });
      await signedInUser(t(), 'payerfree');

      const get = (url: string) => call(t().app, 'GET', url, { cookie });
      const first = await get(
        '/api/admin/subscriptions?filter=paid&search=PAYER&sort=username&order=asc&pageSize=2',
      );
      expect(first.json<AdminUser[]>().map((u) => u.username)).toEqual(['payer1', 'payer2']);
      expect(first.headers['x-total-count']).toBe('3');
      const links = linksOf(first);
      expect(Object.keys(links)).toEqual(['first', 'next', 'last']);
      expect(links.next).toMatch(/^\/api\/admin\/subscriptions\?/);
      const second = await get(links.next!);
      expect(second.json<AdminUser[]>().map((u) => u.username)).toEqual(['payer3']);
      expect(Object.keys(linksOf(second))).toEqual(['first', 'prev', 'last']);

      const users = await get('/api/admin/users?pageSize=500');
      expect(users.statusCode).toBe(200);
      expect(users.json<AdminUser[]>()).toHaveLength(5);
      expect(users.headers['x-total-count']).toBe('5');
    });

    it('leave the tRPC twin at its own page size', async () => {
      const { user } = await signedInUser(t(), 'root', { isAdmin: true });
      await expect(callerFor(t(), user).admin.users({ pageSize: 500 })).rejects.toThrow(/at most 100/);
    });
  });

  describe('GET /api/admin/workspaces', () => {
    it('links pages of team workspaces', async () => {
      const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
      const { user: ada } = await signedInUser(t(), 'ada');
      for (const name of ['Alpha', 'Beta', 'Gamma']) await callerFor(t(), ada).workspaces.create({ name });

      const first = await call(t().app, 'GET', '/api/admin/workspaces?sort=name&order=asc&pageSize=2', {
        cookie,
      });
      expect(first.json<AdminWorkspace[]>().map((w) => w.name)).toEqual(['Alpha', 'Beta']);
      expect(first.headers['x-total-count']).toBe('3');
      const next = await call(t().app, 'GET', linksOf(first).next!, { cookie });
      expect(next.json<AdminWorkspace[]>().map((w) => w.name)).toEqual(['Gamma']);
    });
  });
});
