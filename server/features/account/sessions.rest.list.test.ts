import { expect, it } from 'vitest';
import type { ActiveSession } from '../../../src/auth/account.schema.js';
import { call, expectRestError, sessionFor, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

// GET /api/user/sessions as a paged list (src/api/paging.ts).

const agents = {
  phone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  laptop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  tablet: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
};

describeEachDb('GET /api/user/sessions, paged', (getDb) => {
  const t = useTestApp(getDb);

  it('pages the most recently seen first, searches user agents and sorts, never counting another user’s', async () => {
    const me = await signedInUser(t(), 'roamer');
    const other = await signedInUser(t(), 'homebody');
    await sessionFor(t(), other.user.id);
    // The cookie's session, seen last; then three more, each given its browser and time as it is made.
    const mine = () => t().db.updateTable('sessions').where('user_id', '=', me.user.id);
    await mine().set({ user_agent: 'vitest cookie', last_seen_at: '2030-01-04T00:00:00.000Z' }).execute();
    const seen = ['2030-01-03', '2030-01-02', '2030-01-01'];
    for (const [i, agent] of Object.values(agents).entries()) {
      await sessionFor(t(), me.user.id);
      await mine()
        .set({ user_agent: agent, last_seen_at: `${seen[i]}T00:00:00.000Z` })
        .where('user_agent', '=', 'vitest')
        .execute();
    }
    const get = (query: string) => call(t().app, 'GET', `/api/user/sessions${query}`, { cookie: me.cookie });
    const browsers = async (query: string) => {
      const res = await get(query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ActiveSession[]>().map((s) => (s.current ? 'current' : s.browser));
    };

    const first = await get('?pageSize=2');
    expect(first.headers['x-total-count']).toBe('4');
    expect(first.json<ActiveSession[]>().map((s) => s.current)).toEqual([true, false]);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))![1]!;
    const second = await call(t().app, 'GET', new URL(next).pathname + new URL(next).search, {
      cookie: me.cookie,
    });
    expect(second.json<ActiveSession[]>().map((s) => s.browser)).toEqual(['Chrome 131', 'Firefox 133']);
    expect(await browsers('?sort=lastSeen&order=asc')).toEqual([
      'Firefox 133',
      'Chrome 131',
      'Mobile Safari 17',
      'current',
    ]);
    expect(await browsers('?search=WINDOWS')).toEqual(['Chrome 131']);
    expect((await get('?search=iphone')).headers['x-total-count']).toBe('1');
  });

  it('refuses a bad sort, naming it', async () => {
    const me = await signedInUser(t(), 'badsort');
    const res = await call(t().app, 'GET', '/api/user/sessions?sort=ip', { cookie: me.cookie });
    expect(expectRestError(res, 400).message).toBe('sort: must be one of lastSeen, created');
    const ok = await call(t().app, 'GET', '/api/user/sessions', { cookie: me.cookie });
    expect(ok.json<ActiveSession[]>()).toHaveLength(1);
    expect(ok.headers['x-total-count']).toBe('1');
  });
});
