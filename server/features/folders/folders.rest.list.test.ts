import { expect, it } from 'vitest';
import type { Folder } from '../../../src/qr/qr.schema.js';
import { insertFolderRow, insertQrRow } from '../../test/fixtures.js';
import { call, expectRestError, signedInUser, useTestApp, type Response } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

// GET /api/folders as a paged list (src/api/paging.ts).

function names(res: Response): string[] {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Folder[]>().map((f) => f.name);
}

function nextOf(res: Response): string | undefined {
  const next = /<([^>]+)>; rel="next"/.exec(String(res.headers.link));
  return next ? new URL(next[1]!).pathname + new URL(next[1]!).search : undefined;
}

describeEachDb('GET /api/folders, paged', (getDb) => {
  const t = useTestApp(getDb);
  const list = (cookie: string, query: string) => call(t().app, 'GET', `/api/folders${query}`, { cookie });

  it('pages A to Z by default, with the total and a next link that works', async () => {
    const me = await signedInUser(t(), 'folderpager');
    const other = await signedInUser(t(), 'folderother');
    for (const name of ['delta', 'Alpha', 'charlie', 'Bravo', 'echo'])
      await insertFolderRow(t().db, me.user.id, name);
    await insertFolderRow(t().db, other.user.id, 'Aardvark');

    const first = await list(me.cookie, '?pageSize=2');
    expect(names(first)).toEqual(['Alpha', 'Bravo']);
    expect(first.headers['x-total-count']).toBe('5');
    const second = await call(t().app, 'GET', nextOf(first)!, { cookie: me.cookie });
    expect(names(second)).toEqual(['charlie', 'delta']);
    const third = await call(t().app, 'GET', nextOf(second)!, { cookie: me.cookie });
    expect(names(third)).toEqual(['echo']);
    expect(nextOf(third)).toBeUndefined();
  });

  it('searches names in any letter case (% is a letter), sorts by name, created and number of codes', async () => {
    const me = await signedInUser(t(), 'foldersearch');
    const posters = await insertFolderRow(t().db, me.user.id, 'Posters 2026');
    await insertFolderRow(t().db, me.user.id, 'old POSTERS');
    const sale = await insertFolderRow(t().db, me.user.id, '50% sale');
    for (let i = 0; i < 3; i++) await insertQrRow(t().db, { userId: me.user.id, folderId: sale.id });
    await insertQrRow(t().db, { userId: me.user.id, folderId: posters.id });

    expect(names(await list(me.cookie, '?search=posters'))).toEqual(['old POSTERS', 'Posters 2026']);
    expect((await list(me.cookie, '?search=posters')).headers['x-total-count']).toBe('2');
    expect(names(await list(me.cookie, '?search=%25'))).toEqual(['50% sale']);
    expect(names(await list(me.cookie, '?sort=name&order=desc'))).toEqual([
      'Posters 2026',
      'old POSTERS',
      '50% sale',
    ]);
    expect(names(await list(me.cookie, '?sort=qrCodeCount&order=desc'))).toEqual([
      '50% sale',
      'Posters 2026',
      'old POSTERS',
    ]);
    const byCount = (await list(me.cookie, '?sort=qrCodeCount&order=desc')).json<Folder[]>();
    expect(byCount.map((f) => f.qrCodeCount)).toEqual([3, 1, 0]);
    // Newest first; folders made in the same millisecond fall back to the id.
    expect(names(await list(me.cookie, '?sort=created&order=desc'))).toEqual([
      '50% sale',
      'old POSTERS',
      'Posters 2026',
    ]);
  });

  it('refuses a page size over 500, naming it', async () => {
    const me = await signedInUser(t(), 'folderrefused');
    const body = expectRestError(await list(me.cookie, '?pageSize=501'), 400, 'VALIDATION_FAILED');
    expect(body.message).toBe('pageSize: must be at most 500');
    expect(expectRestError(await list(me.cookie, '?sort=scans'), 400).message).toBe(
      'sort: must be one of name, created, qrCodeCount',
    );
  });
});
