import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportRowsAnswer } from '../../../src/imports/import.schema.js';
import { insertQrRow } from '../../test/fixtures.js';
import { BOUNDARY, multipartBody } from '../../test/upload-fixtures.js';
import { call, callerFor, expectRestError, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import {
  STAND_IN_API_KEY,
  bitlyCsvOf,
  shlinkCsvOf,
  startKuttStandIn,
  startShlinkStandIn,
  yourlsDumpOf,
  type StandIn,
} from './stand-ins.test-helpers.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

const standIns: StandIn[] = [];
afterEach(async () => {
  await Promise.all(standIns.splice(0).map((s) => s.close()));
});

describeEachDb('link imports', (getDb) => {
  const t = useTestApp(getDb, { config: { outbound: { allowedHosts: ['127.0.0.1'] } } });

  const upload = (cookie: string, file: string | Buffer, fileName = 'export.csv', query = '') =>
    call(t().app, 'POST', `/api/imports/file${query}`, {
      cookie,
      payload: multipartBody([{ field: 'file', filename: fileName, contentType: 'text/csv', data: file }]),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });

  async function read(cookie: string, file: string | Buffer, fileName?: string): Promise<ImportPreview> {
    const res = await upload(cookie, file, fileName);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ImportPreview>();
  }

  const run = (cookie: string, id: string, body: Record<string, unknown>) =>
    call(t().app, 'POST', `/api/imports/${id}/rows`, { cookie, json: body });

  /** Every row created as it is, in pages of 100; answers every result. */
  async function importAll(cookie: string, preview: ImportPreview, extra: Record<string, unknown> = {}) {
    const results: ImportRowsAnswer['results'] = [];
    for (let i = 0; i < preview.links.length; i += 100) {
      const rows = preview.links.slice(i, i + 100).map((l) => ({ row: l.row, action: 'create' }));
      const res = await run(cookie, preview.id, { rows, ...extra });
      expect(res.statusCode, res.body).toBe(200);
      results.push(...res.json<ImportRowsAnswer>().results);
    }
    return results;
  }

  it('imports 1,000 Shlink links keeping every slug, and a page sent twice creates nothing more', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada', { hasUnlimitedAccess: true });
    const preview = await read(cookie, shlinkCsvOf(1000, 3), 'short-urls.csv');
    expect(preview).toMatchObject({ source: 'shlink', sourceLabel: 'Shlink', origin: 'short-urls.csv' });
    expect(preview.totals).toEqual({ links: 1000, visits: 0, conflicts: 0, done: 0 });
    expect(preview.links[3]).toMatchObject({
      row: 3,
      slug: 'Promo4',
      visits: 3,
      visitHistory: false,
      conflict: null,
    });

    const results = await importAll(cookie, preview);
    expect(results.every((r) => r.status === 'created')).toBe(true);
    expect(results[3]).toMatchObject({ slug: 'Promo4', shortUrl: `${t().config.publicUrl}/r/Promo4` });
    const count = await t()
      .db.selectFrom('qr_codes')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1000);
    // The printed link answers as before, case kept.
    const scan = await call(t().app, 'GET', '/r/Promo4');
    expect([scan.statusCode, scan.headers.location]).toEqual([302, 'https://example.com/page-4']);
    // Short links are matched without regard to case, imported ones too.
    for (const asked of ['/r/promo4', '/r/PROMO4']) {
      const other = await call(t().app, 'GET', asked);
      expect([asked, other.statusCode, other.headers.location]).toEqual([
        asked,
        302,
        'https://example.com/page-4',
      ]);
    }

    const again = await run(cookie, preview.id, {
      rows: [
        { row: 3, action: 'create' },
        { row: 4, action: 'skip' },
      ],
    });
    expect(again.json<ImportRowsAnswer>().results.map((r) => [r.row, r.status, r.codeId])).toEqual([
      [3, 'created', results[3]!.codeId],
      [4, 'created', results[4]!.codeId],
    ]);
    const after = await call(t().app, 'GET', `/api/imports/${preview.id}`, { cookie });
    expect(after.json<ImportPreview>().totals).toMatchObject({ done: 1000, conflicts: 0 });
  });

  it('lists conflicts, and carries out skip, rename and overwrite one by one', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada', { hasUnlimitedAccess: true });
    const { user: eve } = await signedInUser(t(), 'eve');
    // link-2 is one of ada's codes, link-3 someone else's.
    const mine = await insertQrRow(t().db, { userId: user.id, name: 'Old flyer', isDynamic: true });
    await t().db.updateTable('qr_codes').set({ slug: 'link-2' }).where('id', '=', mine.id).execute();
    const theirs = await insertQrRow(t().db, { userId: eve.id, isDynamic: true });
    await t().db.updateTable('qr_codes').set({ slug: 'link-3' }).where('id', '=', theirs.id).execute();
    const csv = [
      shlinkCsvOf(3),
      '"2024-02-01T10:00:00+00:00","s.example.com","api","https://s.example.com/api","https://example.com/a","","",0',
      '"2024-02-01T10:00:00+00:00","s.example.com","LINK-1","https://s.example.com/LINK-1","https://example.com/b","","",0',
      '"2024-02-01T10:00:00+00:00","s.example.com","local","https://s.example.com/local","http://localhost:8080/admin","","",0',
    ].join('\n');
    const preview = await read(cookie, csv);
    expect(preview.links.map((l) => [l.slug, l.conflict?.kind ?? null, l.conflict?.message ?? null])).toEqual(
      [
        ['link-1', null, null],
        ['link-2', 'yours', 'Your code “Old flyer” has this short link'],
        ['link-3', 'taken', 'This short link is taken'],
        ['api', 'invalid', 'This short link is reserved'],
        ['LINK-1', 'repeated', 'Row 1 has the same short link'],
        ['local', 'destination', 'The destination is not a web address this server can send scanners to'],
      ],
    );
    expect(preview.totals.conflicts).toBe(5);

    const res = await run(cookie, preview.id, {
      rows: [
        { row: 0, action: 'create' },
        { row: 1, action: 'overwrite' },
        { row: 2, action: 'create' },
        { row: 3, action: 'rename', slug: 'API-Docs' },
        { row: 4, action: 'overwrite' },
        { row: 5, action: 'skip' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ImportRowsAnswer>().results.map((r) => [r.row, r.status, r.slug ?? null])).toEqual([
      [0, 'created', 'link-1'],
      [1, 'overwritten', 'link-2'],
      [2, 'failed', null],
      [3, 'created', 'api-docs'],
      [4, 'failed', null],
      [5, 'skipped', null],
    ]);
    const overwritten = await t()
      .db.selectFrom('qr_codes')
      .select(['content', 'name'])
      .where('id', '=', mine.id)
      .executeTakeFirstOrThrow();
    expect(overwritten).toEqual({ content: 'https://example.com/page-2', name: 'Old flyer' });
    const untouched = await t()
      .db.selectFrom('qr_codes')
      .select('user_id')
      .where('id', '=', theirs.id)
      .executeTakeFirstOrThrow();
    expect(untouched.user_id).toBe(eve.id);

    // A failed or skipped row may be decided again: link-3 under another name, `local` still refused.
    const again = await run(cookie, preview.id, {
      rows: [
        { row: 2, action: 'rename', slug: 'link-3-ours' },
        { row: 4, action: 'rename', slug: 'link-1-again' },
        { row: 1, action: 'skip' },
      ],
    });
    expect(again.json<ImportRowsAnswer>().results.map((r) => [r.row, r.status, r.slug ?? null])).toEqual([
      [2, 'created', 'link-3-ours'],
      [4, 'created', 'link-1-again'],
      [1, 'overwritten', 'link-2'],
    ]);
    const reviewed = (
      await call(t().app, 'GET', `/api/imports/${preview.id}`, { cookie })
    ).json<ImportPreview>();
    expect(reviewed.totals).toMatchObject({ done: 5, conflicts: 1 });
    expect(reviewed.links[5]).toMatchObject({
      conflict: { kind: 'destination' },
      result: { status: 'skipped' },
    });

    // Decisions that cannot be understood change nothing.
    expectRestError(await run(cookie, preview.id, { rows: [{ row: 99, action: 'create' }] }), 400);
    const noSlug = expectRestError(
      await run(cookie, preview.id, { rows: [{ row: 2, action: 'rename' }] }),
      400,
    );
    expect(noSlug.message).toBe('Give the new short link');
  });

  it('lets a row take the slug of an earlier row that was skipped, in any call', async () => {
    const { cookie } = await signedInUser(t(), 'ada', { hasUnlimitedAccess: true });
    const csv = [
      shlinkCsvOf(1),
      '"2024-02-01T10:00:00+00:00","s.example.com","LINK-1","https://s.example.com/LINK-1","https://example.com/b","","",0',
    ].join('\n');
    const preview = await read(cookie, csv);
    expect(preview.links[1]!.conflict).toMatchObject({ kind: 'repeated' });
    await run(cookie, preview.id, { rows: [{ row: 0, action: 'skip' }] });
    const reviewed = (
      await call(t().app, 'GET', `/api/imports/${preview.id}`, { cookie })
    ).json<ImportPreview>();
    expect(reviewed.links[1]!.conflict).toBeNull();
    const res = await run(cookie, preview.id, { rows: [{ row: 1, action: 'create' }] });
    expect(res.json<ImportRowsAnswer>().results[0]).toMatchObject({ status: 'created', slug: 'LINK-1' });
  });

  it('brings a YOURLS dump with its click log into the analytics, marked imported', async () => {
    const { cookie } = await signedInUser(t(), 'ada', { hasUnlimitedAccess: true });
    const preview = await read(cookie, yourlsDumpOf(5, 4), 'yourls.sql');
    expect(preview.source).toBe('yourls');
    expect(preview.totals.visits).toBe(20);
    expect(preview.links.every((l) => l.visitHistory)).toBe(true);
    const [first] = await importAll(cookie, preview);
    expect(first).toMatchObject({ status: 'created', visits: 4 });
    const analytics = await call(t().app, 'GET', `/api/analytics/qr-codes/${first!.codeId}`, { cookie });
    expect(analytics.statusCode, analytics.body).toBe(200);
    expect(analytics.json<{ totalScans: number }>().totalScans).toBe(4);
    const origin = await call(t().app, 'GET', `/api/qr-codes/${first!.codeId}/import`, { cookie });
    expect(origin.json()).toMatchObject({ import: { source: 'yourls', sourceLabel: 'YOURLS', visits: 4 } });
  });

  it('reads 1,000 Shlink links and every visit through its API, then forgets the key', async () => {
    const { cookie } = await signedInUser(t(), 'ada', { hasUnlimitedAccess: true });
    const shlink = await startShlinkStandIn({ links: 1000, visitsPerLink: (i) => (i === 1 ? 1200 : 2) });
    standIns.push(shlink);
    const res = await call(t().app, 'POST', '/api/imports/connect', {
      cookie,
      json: { source: 'shlink', url: shlink.url, apiKey: STAND_IN_API_KEY },
    });
    expect(res.statusCode, res.body).toBe(201);
    const preview = res.json<ImportPreview>();
    expect(preview.totals.links).toBe(1000);
    expect(preview.totals.visits).toBe(1200 + 999 * 2);
    const results = await importAll(cookie, preview);
    expect(results[0]).toMatchObject({ status: 'created', slug: 'link-1', visits: 1200 });
    expect(results[1]).toMatchObject({ visits: 2 });
    const stored = await t()
      .db.selectFrom('link_imports')
      .select('api_key')
      .where('id', '=', preview.id)
      .executeTakeFirstOrThrow();
    expect(stored.api_key).toBeNull();
    const analytics = await call(t().app, 'GET', `/api/analytics/qr-codes/${results[0]!.codeId}`, { cookie });
    expect(analytics.json<{ totalScans: number }>().totalScans).toBe(1200);
  });

  it('reads Kutt links through its API (counts only) and Bitly links from a CSV', async () => {
    const { cookie } = await signedInUser(t(), 'ada', { hasUnlimitedAccess: true });
    const kutt = await startKuttStandIn({ links: 60 });
    standIns.push(kutt);
    const res = await call(t().app, 'POST', '/api/imports/connect', {
      cookie,
      json: { source: 'kutt', url: kutt.url, apiKey: STAND_IN_API_KEY },
    });
    expect(res.statusCode, res.body).toBe(201);
    const preview = res.json<ImportPreview>();
    expect(preview).toMatchObject({ source: 'kutt', totals: { links: 60, visits: 0 } });
    expect(preview.links.some((l) => l.visitHistory)).toBe(false);
    expect((await importAll(cookie, preview)).every((r) => r.status === 'created')).toBe(true);

    const bitly = await read(cookie, bitlyCsvOf(4), 'bitly.csv');
    expect(bitly.source).toBe('bitly');
    // Its custom back-half link-3 is one the Kutt import just made: listed, and not created twice.
    expect(bitly.links.map((l) => [l.slug, l.sourceDomain, l.conflict?.kind ?? null])).toEqual([
      ['b1X', 'bit.ly', null],
      ['b2X', 'bit.ly', null],
      ['link-3', 'go.brand.example', 'yours'],
      ['b4X', 'bit.ly', null],
    ]);
    expect((await importAll(cookie, bitly)).map((r) => r.status)).toEqual([
      'created',
      'created',
      'failed',
      'created',
    ]);
  });

  it('puts the links on a short domain the workspace may use, and refuses one it may not', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada', { hasUnlimitedAccess: true });
    const domain = await t()
      .db.insertInto('short_domains')
      .values({ hostname: 'go.example.test', all_workspaces: false, created: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const preview = await read(cookie, shlinkCsvOf(2));
    const refused = expectRestError(
      await run(cookie, preview.id, { domainId: domain.id, rows: [{ row: 0, action: 'create' }] }),
      400,
    );
    expect(refused.message).toBe('This domain is not available in this workspace');
    await t()
      .db.insertInto('short_domain_workspaces')
      .values({ domain_id: domain.id, workspace_id: user.id })
      .execute();
    const res = await run(cookie, preview.id, { domainId: domain.id, rows: [{ row: 0, action: 'create' }] });
    expect(res.json<ImportRowsAnswer>().results[0]).toMatchObject({
      shortUrl: 'http://go.example.test/link-1',
    });
    const scan = await call(t().app, 'GET', '/link-1', { headers: { host: 'go.example.test' } });
    expect(scan.headers.location).toBe('https://example.com/page-1');
  });

  it('creates what fits the plan and says why the rest failed', async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    const preview = await read(cookie, shlinkCsvOf(5));
    const res = await run(cookie, preview.id, {
      rows: preview.links.map((l) => ({ row: l.row, action: 'create' })),
    });
    const answer = res.json<ImportRowsAnswer>();
    expect(answer.results.map((r) => r.status)).toEqual([
      'created',
      'created',
      'created',
      'failed',
      'failed',
    ]);
    expect(answer.results[3]!.message).toMatch(/^QR code limit reached/);
    expect([answer.currentCount, answer.maxCount]).toEqual([3, 3]);
  });

  it('refuses what it cannot read, naming the field, and keeps imports to their workspace', async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    const unknown = expectRestError(await upload(cookie, 'name,colour\nbob,blue\n', 'people.csv'), 400);
    expect(unknown.message).toMatch(/^This file is not an export we can read/);
    const wrongKey = await (async () => {
      const shlink = await startShlinkStandIn({ links: 1 });
      standIns.push(shlink);
      return call(t().app, 'POST', '/api/imports/connect', {
        cookie,
        json: { source: 'shlink', url: shlink.url, apiKey: 'wrong' },
      });
    })();
    expect(expectRestError(wrongKey, 400)).toMatchObject({ message: 'Shlink refused the API key' });
    const badUrl = expectRestError(
      await call(t().app, 'POST', '/api/imports/connect', {
        cookie,
        json: { source: 'kutt', url: 'ftp://x', apiKey: 'k' },
      }),
      400,
    );
    expect(badUrl.issues?.[0]).toMatchObject({ path: 'url' });

    const preview = await read(cookie, shlinkCsvOf(1));
    const { cookie: eve } = await signedInUser(t(), 'eve');
    expectRestError(await call(t().app, 'GET', `/api/imports/${preview.id}`, { cookie: eve }), 404);
    expectRestError(await run(eve, preview.id, { rows: [{ row: 0, action: 'create' }] }), 404);
    expectRestError(await call(t().app, 'DELETE', `/api/imports/${preview.id}`, { cookie: eve }), 404);
    expect((await call(t().app, 'DELETE', `/api/imports/${preview.id}`, { cookie })).statusCode).toBe(200);
    expectRestError(await call(t().app, 'GET', `/api/imports/${preview.id}`, { cookie }), 404);
  });

  it('never reaches a private address unless the operator allows it', async () => {
    const { user } = await signedInUser(t(), 'ada');
    const shlink = await startShlinkStandIn({ links: 1 });
    standIns.push(shlink);
    const deps = { ...t().deps, config: { ...t().config, outbound: { allowedHosts: [] } } };
    const caller = callerFor({ ...t(), deps }, user);
    await expect(
      caller.imports.connect({ source: 'shlink', url: shlink.url, apiKey: STAND_IN_API_KEY }),
    ).rejects.toThrow(
      'This address is on a private network: an administrator can allow it with OUTBOUND_ALLOWED_HOSTS',
    );
    expect(shlink.requests).toEqual([]);
  });
});

describe('the fixtures', () => {
  it('are the files the readers are tested with', () => {
    expect(fixture('shlink-short-urls.csv').toString()).toMatch(/^"createdAt","domain","shortCode"/);
  });
});
