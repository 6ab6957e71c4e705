import { expect, it } from 'vitest';
import type { WorkspaceMember } from '../../../src/workspaces/workspace.schema.js';
import {
  call,
  callerFor,
  expectRestError,
  signedInUser,
  useTestApp,
  type Response,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { insertMember } from './workspaces.repository.js';

// GET /api/workspaces/{id}/members and /invitations as paged lists (src/api/paging.ts).

function usernames(res: Response): string[] {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WorkspaceMember[]>().map((m) => m.username);
}

function nextOf(res: Response): string | undefined {
  const next = /<([^>]+)>; rel="next"/.exec(String(res.headers.link));
  return next ? new URL(next[1]!).pathname + new URL(next[1]!).search : undefined;
}

describeEachDb('GET /api/workspaces/{id}/members, paged', (getDb) => {
  const t = useTestApp(getDb);

  it('pages owners first then A to Z, searches, filters by role and sorts', async () => {
    const owner = await signedInUser(t(), 'zoe');
    const team = (await callerFor(t(), owner.user).workspaces.create({ name: 'Crew' })).id;
    const now = new Date().toISOString();
    for (const [name, role] of [
      ['bob', 'editor'],
      ['amy', 'viewer'],
      ['cleo', 'admin'],
      ['BEA', 'editor'],
    ] as const) {
      const { user } = await signedInUser(t(), name);
      await insertMember(t().db, team, user.id, role, now);
    }
    const outsider = await signedInUser(t(), 'bobby');
    const get = (query: string) =>
      call(t().app, 'GET', `/api/workspaces/${team}/members${query}`, { cookie: owner.cookie });

    const first = await get('?pageSize=3');
    expect(usernames(first)).toEqual(['zoe', 'cleo', 'BEA']);
    expect(first.headers['x-total-count']).toBe('5');
    const second = await call(t().app, 'GET', nextOf(first)!, { cookie: owner.cookie });
    expect(usernames(second)).toEqual(['bob', 'amy']);
    expect(nextOf(second)).toBeUndefined();

    expect(usernames(await get('?search=B'))).toEqual(['BEA', 'bob']);
    expect(usernames(await get('?role=editor'))).toEqual(['BEA', 'bob']);
    expect(usernames(await get('?sort=username&order=desc'))).toEqual(['zoe', 'cleo', 'bob', 'BEA', 'amy']);
    expect((await get('?search=bob')).headers['x-total-count']).toBe('1');
    expectRestError(await get('?role=boss'), 400);
    expect(expectRestError(await get('?pageSize=501'), 400).message).toBe('pageSize: must be at most 500');
    // Not a member: the workspace is not there for them, whatever the query.
    const foreign = await call(t().app, 'GET', `/api/workspaces/${team}/members?search=bob`, {
      cookie: outsider.cookie,
    });
    expectRestError(foreign, 404);
  });

  it('answers the one member of a personal workspace, kept or not by the search', async () => {
    const me = await signedInUser(t(), 'solo');
    const get = (query: string) =>
      call(t().app, 'GET', `/api/workspaces/${me.user.id}/members${query}`, { cookie: me.cookie });
    const all = await get('');
    expect(usernames(all)).toEqual(['solo']);
    expect(all.headers['x-total-count']).toBe('1');
    const none = await get('?search=nobody');
    expect(usernames(none)).toEqual([]);
    expect(none.headers['x-total-count']).toBe('0');
  });

  it('pages the team’s pending invitations, newest first, searched and filtered by role', async () => {
    const owner = await signedInUser(t(), 'inviter');
    const team = (await callerFor(t(), owner.user).workspaces.create({ name: 'Hosts' })).id;
    for (const name of ['guest1', 'guest2']) await signedInUser(t(), name);
    const invite = async (body: Record<string, string>) => {
      const res = await call(t().app, 'POST', `/api/workspaces/${team}/invitations`, {
        cookie: owner.cookie,
        json: body,
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await invite({ username: 'guest1', role: 'viewer' });
    t().clock.advance(1_000);
    await invite({ email: 'Printer@Shop.example', role: 'editor' });
    t().clock.advance(1_000);
    await invite({ username: 'guest2', role: 'editor' });
    const get = (query: string) =>
      call(t().app, 'GET', `/api/workspaces/${team}/invitations${query}`, { cookie: owner.cookie });
    const who = async (query: string) => {
      const res = await get(query);
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json<{ email: string | null; username: string | null }[]>()
        .map((i) => i.username ?? i.email);
    };

    const first = await get('?pageSize=2');
    expect(first.headers['x-total-count']).toBe('3');
    expect(await who('?pageSize=2')).toEqual(['guest2', 'Printer@Shop.example']);
    expect(await who('?page=2&pageSize=2')).toEqual(['guest1']);
    expect(nextOf(first)).toMatch(/page=2/);
    expect(await who('?sort=created&order=asc')).toEqual(['guest1', 'Printer@Shop.example', 'guest2']);
    expect(await who('?search=GUEST')).toEqual(['guest2', 'guest1']);
    expect(await who('?search=shop.EXAMPLE')).toEqual(['Printer@Shop.example']);
    expect(await who('?role=editor')).toEqual(['guest2', 'Printer@Shop.example']);
    expect(expectRestError(await get('?sort=email'), 400).message).toBe(
      'sort: must be one of created, expires',
    );
  });
});
