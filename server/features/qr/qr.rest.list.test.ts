import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { insertFolderRow, insertQrRow, insertScans } from '../../test/fixtures.js';
import { call, expectRestError, signedInUser, useTestApp, type Response } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import type { TestApp } from '../../test/test-app.js';

// GET /api/qr-codes as a paged list (src/api/paging.ts): pages, X-Total-Count and Link, search, filters
// and sort, all done by the database.

/** The Link header as rel → the path and query to call (the header's URLs are absolute). */
function linksOf(res: Response): Record<string, string> {
  const header = res.headers.link;
  expect(typeof header, 'a Link header').toBe('string');
  const links: Record<string, string> = {};
  for (const part of String(header).split(', ')) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    expect(match, part).not.toBeNull();
    const url = new URL(match![1]!);
    links[match![2]!] = url.pathname + url.search;
  }
  return links;
}

function names(res: Response): string[] {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<QrCode[]>().map((c) => c.name);
}

/** `count` codes named "Code 01"… of one user, a minute apart in that order (Code 01 the oldest). */
async function numberedCodes(t: TestApp, userId: number, count: number) {
  const start = Date.parse('2026-03-01T00:00:00.000Z');
  for (let i = 1; i <= count; i++) {
    await insertQrRow(t.db, {
      userId,
      name: `Code ${String(i).padStart(2, '0')}`,
      created: new Date(start + i * 60_000).toISOString(),
    });
  }
}

const codeNames = (from: number, to: number) => {
  const step = from <= to ? 1 : -1;
  return Array.from(
    { length: Math.abs(to - from) + 1 },
    (_, i) => `Code ${String(from + i * step).padStart(2, '0')}`,
  );
};

describeEachDb('GET /api/qr-codes, paged', (getDb) => {
  const t = useTestApp(getDb);
  const list = (cookie: string, query: string) => call(t().app, 'GET', `/api/qr-codes${query}`, { cookie });

  describe('pages', () => {
    it('answers page 2 of 10 as codes 11–20, newest first, with the total and links that work', async () => {
      const me = await signedInUser(t(), 'pager');
      await numberedCodes(t(), me.user.id, 25);

      const res = await list(me.cookie, '?page=2&pageSize=10');
      // Newest first: the 11th to 20th newest of 25 are Code 15 down to Code 06.
      expect(names(res)).toEqual(codeNames(15, 6));
      expect(res.headers['x-total-count']).toBe('25');
      const links = linksOf(res);
      expect(Object.keys(links)).toEqual(['first', 'prev', 'next', 'last']);
      expect(String(res.headers.link)).toMatch(/^<http:\/\/[^/]+\/api\/qr-codes\?/);

      const next = await list(me.cookie, links.next!.replace('/api/qr-codes', ''));
      expect(names(next)).toEqual(codeNames(5, 1));
      expect(Object.keys(linksOf(next))).toEqual(['first', 'prev', 'last']);
      expect(linksOf(next).last).toBe(links.last);

      const prev = await list(me.cookie, links.prev!.replace('/api/qr-codes', ''));
      expect(names(prev)).toEqual(codeNames(25, 16));
      expect(Object.keys(linksOf(prev))).toEqual(['first', 'next', 'last']);
      expect(links.first).toBe(links.prev);
    });

    it('keeps the search, filters and sort in the links', async () => {
      const me = await signedInUser(t(), 'linkkeeper');
      await numberedCodes(t(), me.user.id, 5);
      const res = await list(me.cookie, '?search=code&sort=name&order=asc&pageSize=2&dynamic=false');
      expect(names(res)).toEqual(['Code 01', 'Code 02']);
      const next = linksOf(res).next!;
      const params = new URL(next, 'http://x').searchParams;
      expect(Object.fromEntries(params)).toEqual({
        search: 'code',
        sort: 'name',
        order: 'asc',
        pageSize: '2',
        dynamic: 'false',
        page: '2',
      });
      expect(names(await call(t().app, 'GET', next, { cookie: me.cookie }))).toEqual(['Code 03', 'Code 04']);
    });

    it('answers the first 100 without paging parameters, with the total', async () => {
      const me = await signedInUser(t(), 'plain');
      await numberedCodes(t(), me.user.id, 3);
      const res = await list(me.cookie, '');
      expect(names(res)).toEqual(codeNames(3, 1));
      expect(res.headers['x-total-count']).toBe('3');
      expect(Object.keys(linksOf(res))).toEqual(['first', 'last']);
    });

    it('answers an empty page past the last one, linking back to the last', async () => {
      const me = await signedInUser(t(), 'pastend');
      await numberedCodes(t(), me.user.id, 3);
      const res = await list(me.cookie, '?page=5&pageSize=2');
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('3');
      const links = linksOf(res);
      expect(links.prev).toBe(links.last);
      expect(new URL(links.last!, 'http://x').searchParams.get('page')).toBe('2');
      expect(links.next).toBeUndefined();
    });

    it("never counts or shows another user's codes", async () => {
      const me = await signedInUser(t(), 'mine');
      const other = await signedInUser(t(), 'theirs');
      await numberedCodes(t(), me.user.id, 3);
      await numberedCodes(t(), other.user.id, 7);
      const res = await list(me.cookie, '?search=Code&pageSize=2');
      expect(res.headers['x-total-count']).toBe('3');
      expect(res.json<QrCode[]>().every((c) => c.userId === me.user.id)).toBe(true);
      const all = await list(me.cookie, '?pageSize=500');
      expect(all.json<QrCode[]>()).toHaveLength(3);
    });
  });

  describe('search', () => {
    it('matches names in any letter case, with % and _ as plain letters', async () => {
      const me = await signedInUser(t(), 'searcher');
      for (const name of ['Bulk poster', 'small BULK flyer', 'Menu', '100% off', '1000 off', 'a_b', 'axb']) {
        await insertQrRow(t().db, { userId: me.user.id, name });
      }
      const search = async (text: string) =>
        names(await list(me.cookie, `?search=${encodeURIComponent(text)}&sort=name&order=asc`));
      expect(await search('bulk')).toEqual(['Bulk poster', 'small BULK flyer']);
      expect(await search('BULK')).toEqual(['Bulk poster', 'small BULK flyer']);
      expect(await search('%')).toEqual(['100% off']);
      expect(await search('0% o')).toEqual(['100% off']);
      expect(await search('a_b')).toEqual(['a_b']);
      expect(await search('nothing like it')).toEqual([]);
      const res = await list(me.cookie, '?search=bulk');
      expect(res.headers['x-total-count']).toBe('2');
    });
  });

  describe('filters', () => {
    it('type, dynamic, folderId (or root), verdict', async () => {
      const me = await signedInUser(t(), 'filterer');
      const other = await signedInUser(t(), 'otherfolder');
      const folder = await insertFolderRow(t().db, me.user.id, 'Posters');
      const theirFolder = await insertFolderRow(t().db, other.user.id, 'Theirs');
      await insertQrRow(t().db, { userId: me.user.id, name: 'Link', type: 'url', isDynamic: true });
      await insertQrRow(t().db, {
        userId: me.user.id,
        name: 'Mail',
        type: 'email',
        content: 'mailto:a@b.example',
      });
      const inFolder = await insertQrRow(t().db, {
        userId: me.user.id,
        name: 'Filed text',
        type: 'text',
        content: 'hello',
        folderId: folder.id,
      });
      await insertQrRow(t().db, { userId: other.user.id, name: 'Foreign', folderId: theirFolder.id });
      await t()
        .db.updateTable('qr_codes')
        .set({ scan_verdict: 'risky', scan_reason: 'Low contrast' })
        .where('id', '=', inFolder.id)
        .execute();

      const filter = async (query: string) =>
        names(await list(me.cookie, `${query}&sort=name&order=asc`)).sort();
      expect(await filter('?type=email')).toEqual(['Mail']);
      expect(await filter('?type=url')).toEqual(['Link']);
      expect(await filter('?dynamic=true')).toEqual(['Link']);
      expect(await filter('?dynamic=false')).toEqual(['Filed text', 'Mail']);
      expect(await filter(`?folderId=${folder.id}`)).toEqual(['Filed text']);
      expect(await filter('?folderId=root')).toEqual(['Link', 'Mail']);
      expect(await filter(`?folderId=${theirFolder.id}`)).toEqual([]);
      expect(await filter('?verdict=risky')).toEqual(['Filed text']);
      expect(await filter('?verdict=scannable')).toEqual([]);
      expect(await filter('?type=text&dynamic=false&verdict=risky')).toEqual(['Filed text']);
      const res = await list(me.cookie, '?dynamic=false&pageSize=1');
      expect(res.headers['x-total-count']).toBe('2');
    });

    it('createdFrom and createdTo, as dates (whole UTC days) or date-times', async () => {
      const me = await signedInUser(t(), 'dater');
      for (const [name, created] of [
        ['Feb', '2026-02-28T23:59:59.999Z'],
        ['Mar 1 early', '2026-03-01T00:00:00.000Z'],
        ['Mar 1 late', '2026-03-01T23:59:59.999Z'],
        ['Mar 2', '2026-03-02T12:00:00.000Z'],
      ] as const) {
        await insertQrRow(t().db, { userId: me.user.id, name, created });
      }
      const range = async (query: string) => names(await list(me.cookie, `${query}&sort=created&order=asc`));
      expect(await range('?createdFrom=2026-03-01&createdTo=2026-03-01')).toEqual([
        'Mar 1 early',
        'Mar 1 late',
      ]);
      expect(await range('?createdFrom=2026-03-02')).toEqual(['Mar 2']);
      expect(await range('?createdTo=2026-02-28')).toEqual(['Feb']);
      expect(await range('?createdFrom=2026-03-01T12:00:00Z&createdTo=2026-03-02T12:00:00Z')).toEqual([
        'Mar 1 late',
        'Mar 2',
      ]);
      expect(await range('?createdFrom=0000-01-01&createdTo=9999-12-31')).toHaveLength(4);
      // An offset is an instant like any other: 01:00+01:00 is midnight UTC.
      expect(await range(`?createdTo=${encodeURIComponent('2026-03-01T01:00:00+01:00')}`)).toEqual([
        'Feb',
        'Mar 1 early',
      ]);
    });
  });

  describe('sort', () => {
    it('by name both ways, in any letter case', async () => {
      const me = await signedInUser(t(), 'sorter');
      for (const name of ['banana', 'Apple', 'cherry'])
        await insertQrRow(t().db, { userId: me.user.id, name });
      expect(names(await list(me.cookie, '?sort=name&order=asc'))).toEqual(['Apple', 'banana', 'cherry']);
      expect(names(await list(me.cookie, '?sort=name&order=desc'))).toEqual(['cherry', 'banana', 'Apple']);
      expect(names(await list(me.cookie, '?sort=name'))).toEqual(['cherry', 'banana', 'Apple']);
    });

    it('by created oldest first, by updated, and by scans', async () => {
      const me = await signedInUser(t(), 'scansorter');
      await numberedCodes(t(), me.user.id, 3);
      expect(names(await list(me.cookie, '?sort=created&order=asc'))).toEqual(codeNames(1, 3));
      const [one, two, three] = (await list(me.cookie, '?order=asc')).json<QrCode[]>();
      await t()
        .db.updateTable('qr_codes')
        .set({ updated: '2027-01-01T00:00:00.000Z' })
        .where('id', '=', one!.id)
        .execute();
      expect(names(await list(me.cookie, '?sort=updated'))[0]).toBe('Code 01');
      await insertScans(t().db, two!.id, 5);
      await insertScans(t().db, three!.id, 2);
      expect(names(await list(me.cookie, '?sort=scans'))).toEqual(['Code 02', 'Code 03', 'Code 01']);
      expect(names(await list(me.cookie, '?sort=scans&order=asc'))).toEqual([
        'Code 01',
        'Code 03',
        'Code 02',
      ]);
    });
  });

  describe('refusals', () => {
    it.each([
      ['pageSize=501', 'pageSize', 'pageSize: must be at most 500'],
      ['pageSize=0', 'pageSize', 'pageSize: must be at least 1'],
      ['pageSize=ten', 'pageSize', 'pageSize: must be a whole number'],
      ['page=0', 'page', 'page: must be at least 1'],
      ['page=1.5', 'page', 'page: must be a whole number'],
      ['sort=colour', 'sort', 'sort: must be one of created, updated, name, scans'],
      ['order=up', 'order', 'order: must be one of asc, desc'],
      ['type=banana', 'type', 'type: must be one of'],
      ['dynamic=yes', 'dynamic', 'dynamic: must be true or false'],
      ['folderId=abc', 'folderId', 'folderId: must be a folder id'],
      ['folderId=0', 'folderId', 'folderId: must be a folder id'],
      ['createdFrom=yesterday', 'createdFrom', 'createdFrom: must be an ISO 8601 date'],
      ['createdTo=2026-02-30', 'createdTo', 'createdTo: must be an ISO 8601 date'],
      ['verdict=fine', 'verdict', 'verdict: must be one of scannable, risky, unscannable'],
      [`search=${'x'.repeat(201)}`, 'search', 'search: must be at most 200 characters'],
    ])('?%s → 400 naming %s', async (query, parameter, message) => {
      const me = await signedInUser(t(), 'refused');
      const body = expectRestError(await list(me.cookie, `?${query}`), 400, 'VALIDATION_FAILED');
      expect(body.message).toContain(message);
      expect(body.issues?.[0]?.path).toBe(parameter);
    });
  });
});
