import { expect, it } from 'vitest';
import type { ApiToken } from '../../../src/auth/api-token.schema.js';
import { call, expectRestError, signedInUser, useTestApp, type Response } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

// GET /api/user/tokens as a paged list (src/api/paging.ts).

function tokenNames(res: Response): string[] {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ApiToken[]>().map((token) => token.name);
}

describeEachDb('GET /api/user/tokens, paged', (getDb) => {
  const t = useTestApp(getDb);

  it('pages newest first, searches names, filters by scope and sorts, never counting another user’s', async () => {
    const me = await signedInUser(t(), 'tokener');
    const other = await signedInUser(t(), 'othertokener');
    const make = async (cookie: string, name: string, scope: 'read' | 'write') => {
      const res = await call(t().app, 'POST', '/api/user/tokens', { cookie, json: { name, scope } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ token: string }>().token;
    };
    const ci = await make(me.cookie, 'CI deploy', 'write');
    await make(me.cookie, 'backup_reader', 'read');
    await make(me.cookie, 'backupXreader', 'read');
    await make(other.cookie, 'CI other', 'write');
    // Used once: the only token with a lastUsedAt.
    const used = await call(t().app, 'GET', '/api/qr-codes', { headers: { authorization: `Bearer ${ci}` } });
    expect(used.statusCode).toBe(200);

    const get = (query: string) => call(t().app, 'GET', `/api/user/tokens${query}`, { cookie: me.cookie });
    const first = await get('?pageSize=2');
    expect(tokenNames(first)).toEqual(['backupXreader', 'backup_reader']);
    expect(first.headers['x-total-count']).toBe('3');
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))![1]!;
    const second = await call(t().app, 'GET', new URL(next).pathname + new URL(next).search, {
      cookie: me.cookie,
    });
    expect(tokenNames(second)).toEqual(['CI deploy']);

    expect(tokenNames(await get('?search=ci'))).toEqual(['CI deploy']);
    expect(tokenNames(await get('?search=_'))).toEqual(['backup_reader']);
    expect(tokenNames(await get('?scope=read&sort=name&order=asc'))).toEqual([
      'backup_reader',
      'backupXreader',
    ]);
    expect(tokenNames(await get('?sort=name&order=asc'))).toEqual([
      'backup_reader',
      'backupXreader',
      'CI deploy',
    ]);
    // Never used: last, whichever the order.
    expect(tokenNames(await get('?sort=lastUsed&order=asc'))[0]).toBe('CI deploy');
    expect(tokenNames(await get('?sort=lastUsed&order=desc'))[0]).toBe('CI deploy');
    expect(expectRestError(await get('?scope=root'), 400).message).toBe(
      'scope: must be one of read, write, admin',
    );
  });
});
