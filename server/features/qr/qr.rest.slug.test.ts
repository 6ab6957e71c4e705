import { describe, expect, it } from 'vitest';
import type { QrVersion } from '../../../src/qr/history.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import type { SlugAvailability } from '../../../src/qr/slug.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { createCode, postCode, snapshot, urlBody } from './qr.test-helpers.js';

// Your own back-half (issue 35, item 1): a dynamic code's short link ends in a slug its owner chose,
// matched without regard to case; a code that has scans keeps answering at the slugs it had before.

const TAKEN = 'This short link is taken';
const RESERVED = 'This short link is reserved';

function availability(t: TestApp, cookie: string, query: string) {
  return call(t.app, 'GET', `/api/qr-codes/slug-availability?${query}`, { cookie });
}

function put(t: TestApp, cookie: string, id: number, json: unknown) {
  return call(t.app, 'PUT', `/api/qr-codes/${id}`, { cookie, json });
}

const scan = (t: TestApp, slug: string) => call(t.app, 'GET', `/r/${slug}`);

describeEachDb('your own back-half of a short link', (getDb) => {
  const t = useTestApp(getDb);

  describe('on create', () => {
    it('takes the chosen slug in lower case; the short link answers in any case', async () => {
      const { cookie } = await signedInUser(t(), 'chooser');
      const code = await createCode(t(), cookie, {
        slug: '  Winter-Menu_2 ',
        content: 'https://example.com/menu',
      });
      expect(code.slug).toBe('winter-menu_2');
      expect(code.shortUrl).toMatch(/\/r\/winter-menu_2$/);
      for (const asked of ['winter-menu_2', 'Winter-Menu_2', 'WINTER-MENU_2']) {
        const res = await scan(t(), asked);
        expect(res.statusCode, asked).toBe(302);
        expect(res.headers.location).toBe('https://example.com/menu');
      }
      // Each of those was a scan of the code.
      expect(await countRows(t().db, 'qr_scans')).toBe(3);
    });

    it('refuses a slug another link has, in any case: 409 SLUG_TAKEN, nothing created', async () => {
      const first = await signedInUser(t(), 'firstcomer');
      await createCode(t(), first.cookie, { slug: 'menu' });
      const second = await signedInUser(t(), 'latecomer');
      const before = await snapshot(t());
      for (const slug of ['menu', 'MENU', ' Menu ']) {
        const body = expectRestError(
          await postCode(t(), second.cookie, urlBody({ slug })),
          409,
          'SLUG_TAKEN',
        );
        expect(body.message).toBe(TAKEN);
      }
      expect(await snapshot(t())).toEqual(before);
    });

    it.each([
      ['ab', 'Short link must be at least 3 characters'],
      ['x'.repeat(65), 'Short link must be at most 64 characters'],
      ['two words', 'Short link may contain only letters, digits, - and _'],
      ['café', 'Short link may contain only letters, digits, - and _'],
      ['a/b', 'Short link may contain only letters, digits, - and _'],
      ['admin', RESERVED],
      ['API', RESERVED],
      ['my-qr-codes', RESERVED],
    ])('refuses %j with a 400 naming the field: %s', async (slug, message) => {
      const { cookie } = await signedInUser(t(), 'typist');
      const before = await snapshot(t());
      const body = expectRestError(await postCode(t(), cookie, urlBody({ slug })), 400, 'VALIDATION_FAILED');
      expect(body.message).toContain(message);
      expect(JSON.stringify(body.issues)).toContain('slug');
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses a slug for a static code', async () => {
      const { cookie } = await signedInUser(t(), 'staticuser');
      const body = expectRestError(
        await postCode(t(), cookie, urlBody({ isDynamic: false, slug: 'static-one' })),
        400,
      );
      expect(body.message).toBe('Only dynamic codes have a short link');
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('without a slug still draws a random one', async () => {
      const { cookie } = await signedInUser(t(), 'randomuser');
      const code = await createCode(t(), cookie, { slug: null });
      expect(code.slug).toMatch(/^[A-Za-z0-9]{7}$/);
    });
  });

  describe('GET /api/qr-codes/slug-availability', () => {
    it('says available, taken, reserved or invalid, in the designer’s words', async () => {
      const { cookie } = await signedInUser(t(), 'asker');
      const own = await createCode(t(), cookie, { slug: 'spring' });
      const cases: [string, SlugAvailability][] = [
        ['slug=Summer', { slug: 'summer', status: 'available', message: 'Available' }],
        ['slug=SPRING', { slug: 'spring', status: 'taken', message: TAKEN }],
        // The code being edited may keep its own.
        [`slug=spring&id=${own.id}`, { slug: 'spring', status: 'available', message: 'Available' }],
        ['slug=auth', { slug: 'auth', status: 'reserved', message: RESERVED }],
        [
          'slug=no%20spaces',
          {
            slug: 'no spaces',
            status: 'invalid',
            message: 'Short link may contain only letters, digits, - and _',
          },
        ],
        ['slug=ab', { slug: 'ab', status: 'invalid', message: 'Short link must be at least 3 characters' }],
      ];
      for (const [query, answer] of cases) {
        const res = await availability(t(), cookie, query);
        expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
        expect(res.json(), query).toEqual(answer);
      }
    });

    it('is for signed-in editors; another user’s code is a 404; a missing slug is a 400', async () => {
      const owner = await signedInUser(t(), 'holder');
      const code = await createCode(t(), owner.cookie, { slug: 'holders' });
      expectRestError(await call(t().app, 'GET', '/api/qr-codes/slug-availability?slug=abc'), 401);
      const other = await signedInUser(t(), 'prober');
      expectRestError(await availability(t(), other.cookie, `slug=abc&id=${code.id}`), 404, 'NOT_FOUND');
      // Anyone may learn a slug is taken (its short link answers anyway), never whose.
      expect((await availability(t(), other.cookie, 'slug=holders')).json()).toEqual({
        slug: 'holders',
        status: 'taken',
        message: TAKEN,
      });
      const body = expectRestError(await availability(t(), other.cookie, ''), 400);
      expect(body.message).toContain('slug is required');
    });
  });

  describe('on edit', () => {
    it('a code never scanned frees its old slug', async () => {
      const { cookie } = await signedInUser(t(), 'renamer');
      const code = await createCode(t(), cookie, { content: 'https://example.com/a' });
      const res = await put(t(), cookie, code.id, { slug: 'Fresh-Name' });
      expect(res.statusCode, res.body).toBe(200);
      const updated = res.json<QrCode>();
      expect(updated.slug).toBe('fresh-name');
      expect(updated.shortUrl).toMatch(/\/r\/fresh-name$/);
      expect((await scan(t(), 'fresh-name')).statusCode).toBe(302);
      expect((await scan(t(), code.slug!)).statusCode).toBe(404);
      // Free for anyone now.
      const other = await signedInUser(t(), 'reuser');
      expect((await availability(t(), other.cookie, `slug=${code.slug!}`)).json()).toMatchObject({
        status: 'available',
      });
    });

    it('a scanned code keeps answering at its old slug, which nobody else may take; it can take it back', async () => {
      const { cookie } = await signedInUser(t(), 'printer');
      const code = await createCode(t(), cookie, { slug: 'poster', content: 'https://example.com/poster' });
      expect((await scan(t(), 'poster')).statusCode).toBe(302);

      const moved = await put(t(), cookie, code.id, { slug: 'poster-2027' });
      expect(moved.statusCode, moved.body).toBe(200);
      for (const slug of ['poster-2027', 'poster', 'POSTER']) {
        const res = await scan(t(), slug);
        expect(res.statusCode, slug).toBe(302);
        expect(res.headers.location).toBe('https://example.com/poster');
      }
      // The old slug's scans are the code's scans.
      const scans = await t().db.selectFrom('qr_scans').select('qr_code_id').execute();
      expect(scans.map((s) => s.qr_code_id)).toEqual(Array(4).fill(code.id));

      // An edit of the destination applies at once at the old slug too (no stale cache).
      await put(t(), cookie, code.id, { content: 'https://example.com/poster-new' });
      expect((await scan(t(), 'poster')).headers.location).toBe('https://example.com/poster-new');

      const other = await signedInUser(t(), 'squatter');
      expect((await availability(t(), other.cookie, 'slug=poster')).json()).toMatchObject({
        status: 'taken',
      });
      expectRestError(await postCode(t(), other.cookie, urlBody({ slug: 'Poster' })), 409, 'SLUG_TAKEN');
      expect((await availability(t(), cookie, `slug=poster&id=${code.id}`)).json()).toMatchObject({
        status: 'available',
      });

      // Taking the old slug back: it is the slug again, and the other one is kept in its turn.
      const back = await put(t(), cookie, code.id, { slug: 'poster' });
      expect(back.json<QrCode>().slug).toBe('poster');
      const aliases = await t().db.selectFrom('qr_slug_aliases').select('slug').orderBy('slug').execute();
      expect(aliases.map((a) => a.slug)).toEqual(['poster-2027']);
      expect((await scan(t(), 'poster-2027')).statusCode).toBe(302);
    });

    it('refuses a slug another code has, changing nothing', async () => {
      const { cookie } = await signedInUser(t(), 'twocodes');
      await createCode(t(), cookie, { slug: 'first-one' });
      const second = await createCode(t(), cookie, { slug: 'second-one' });
      const before = await snapshot(t());
      const body = expectRestError(
        await put(t(), cookie, second.id, { slug: 'FIRST-ONE' }),
        409,
        'SLUG_TAKEN',
      );
      expect(body.message).toBe(TAKEN);
      expect(await snapshot(t())).toEqual(before);
    });

    it('keeps the change in the code’s history', async () => {
      const { cookie } = await signedInUser(t(), 'historian');
      const code = await createCode(t(), cookie, { slug: 'before-name' });
      await put(t(), cookie, code.id, { slug: 'after-name' });
      const history = (await call(t().app, 'GET', `/api/qr-codes/${code.id}/history`, { cookie })).json<
        QrVersion[]
      >();
      expect(history[0]!.changes).toEqual([
        { field: 'shortLink', before: '/r/before-name', after: '/r/after-name' },
      ]);
      // The same slug again is no change: no new version.
      await put(t(), cookie, code.id, { slug: 'After-Name' });
      const again = (await call(t().app, 'GET', `/api/qr-codes/${code.id}/history`, { cookie })).json<
        QrVersion[]
      >();
      expect(again).toHaveLength(history.length);
    });

    it('deleting the code frees its slug and its old ones; the redirect export lists old ones', async () => {
      const { cookie } = await signedInUser(t(), 'leaver');
      const code = await createCode(t(), cookie, { slug: 'flyer', content: 'https://example.com/flyer' });
      await scan(t(), 'flyer');
      await put(t(), cookie, code.id, { slug: 'flyer-new' });
      const csv = (await call(t().app, 'GET', '/api/qr-codes/redirects/export?format=csv', { cookie })).body;
      expect(csv).toMatch(/^"flyer-new",.*"https:\/\/example\.com\/flyer"/m);
      expect(csv).toMatch(/^"flyer",.*"https:\/\/example\.com\/flyer"/m);

      expect((await call(t().app, 'DELETE', `/api/qr-codes/${code.id}`, { cookie })).statusCode).toBe(200);
      expect(await countRows(t().db, 'qr_slug_aliases')).toBe(0);
      expect((await scan(t(), 'flyer')).statusCode).toBe(404);
      const again = await createCode(t(), cookie, { slug: 'flyer' });
      expect(again.slug).toBe('flyer');
    });
  });
});
