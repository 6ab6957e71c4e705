import { describe, expect, it } from 'vitest';
import { encodeContent, type ContentFields } from '../../../src/qr/content.js';
import type { QrType } from '../../../src/qr/qr-types.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { call, signedInUser, useTestApp, type Response } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import {
  DESKTOP,
  GOOGLEBOT,
  IPHONE,
  dynamicCode,
  expectNoScan,
  expectNotFoundPage,
  scan,
  scansOf,
} from './redirect.test-helpers.js';

/** Dynamic codes that answer with a 302 to their destination. */
const redirecting: { type: QrType; fields: ContentFields; location: string }[] = [
  {
    type: 'url',
    fields: { url: 'https://example.com/landing?utm_source=qr&x=1' },
    location: 'https://example.com/landing?utm_source=qr&x=1',
  },
  {
    type: 'social',
    fields: { url: 'https://instagram.com/example' },
    location: 'https://instagram.com/example',
  },
  {
    type: 'pdf',
    fields: { url: 'https://example.com/menu.pdf', title: 'Menu' },
    location: 'https://example.com/menu.pdf',
  },
  {
    type: 'video',
    fields: { url: 'https://youtube.com/watch?v=abc', title: 'Clip' },
    location: 'https://youtube.com/watch?v=abc',
  },
  {
    type: 'image',
    fields: { url: 'http://example.org/photo.jpg', title: 'Photo' },
    location: 'http://example.org/photo.jpg',
  },
];

describeEachDb('GET /r/<slug>, the public short link', (getDb) => {
  describe('redirecting types', () => {
    const t = useTestApp(getDb);

    it.each(redirecting)(
      '$type: 302 to the destination, never cached, and one scan row with its details',
      async ({ type, fields, location }) => {
        const { row } = await dynamicCode(t(), type, encodeContent(type, fields));
        const before = Date.now();
        const res = await scan(t(), row.slug, {
          headers: { 'user-agent': IPHONE, referer: 'https://news.example/article' },
          remoteAddress: '8.8.8.8',
        });
        expect(res.statusCode, res.body).toBe(302);
        expect(res.headers.location).toBe(location);
        expect(res.headers['cache-control']).toBe('no-store');
        const scans = await scansOf(t());
        expect(scans).toHaveLength(1);
        const [stored] = scans;
        expect(stored).toMatchObject({
          qr_code_id: row.id,
          user_agent: IPHONE,
          ip_address: '8.8.8.8',
          referrer: 'https://news.example/article',
          location: 'United States',
          device: 'Mobile',
        });
        const at = new Date(stored!.timestamp).getTime();
        expect(at).toBeGreaterThanOrEqual(before - 5_000);
        expect(at).toBeLessThanOrEqual(Date.now() + 5_000);
      },
    );

    it('stores one row per request, each with its own device, and no row for other codes', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/a');
      const { row: other } = await dynamicCode(t(), 'url', 'https://example.com/b');
      for (const ua of [IPHONE, DESKTOP, GOOGLEBOT]) {
        expect((await scan(t(), row.slug, { headers: { 'user-agent': ua } })).statusCode).toBe(302);
      }
      expect((await scan(t(), row.slug, { headers: { 'user-agent': undefined } })).statusCode).toBe(302);
      const scans = await scansOf(t());
      expect(scans.map((s) => s.qr_code_id)).toEqual([row.id, row.id, row.id, row.id]);
      expect(scans.map((s) => s.device)).toEqual(['Mobile', 'Desktop', 'Bot', 'Unknown']);
      expect(scans[3]).toMatchObject({ user_agent: null, referrer: null });
      expect(await scansOf(t(), other.id)).toEqual([]);
    });

    it('stores every one of 100 simultaneous scans', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/busy');
      const answers = await Promise.all(
        // A hundred people (one client scanning that often would be throttled: scan-throttle tests).
        Array.from({ length: 100 }, (_, i) =>
          scan(t(), row.slug, {
            headers: { 'user-agent': i % 2 ? IPHONE : DESKTOP },
            remoteAddress: `198.51.100.${i + 1}`,
          }),
        ),
      );
      expect(answers.every((r) => r.statusCode === 302)).toBe(true);
      expect(await countRows(t().db, 'qr_scans')).toBe(100);
    });

    it('clips an overlong user agent and referrer instead of refusing the scan', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/long');
      const res = await scan(t(), row.slug, {
        headers: {
          'user-agent': `${IPHONE} ${'x'.repeat(5000)}`,
          referer: `https://r.example/${'y'.repeat(5000)}`,
        },
      });
      expect(res.statusCode).toBe(302);
      const [stored] = await scansOf(t());
      expect(stored!.user_agent!.startsWith(IPHONE)).toBe(true);
      expect(stored!.user_agent!.length).toBeLessThanOrEqual(512);
      expect(stored!.referrer!.length).toBeLessThanOrEqual(1024);
      expect(stored!.device).toBe('Mobile');
    });

    it('sends the very next scan to the destination the owner just saved (PUT)', async () => {
      const { cookie } = await signedInUser(t(), 'editor', { isAdmin: true });
      const created = await call(t().app, 'POST', '/api/qr-codes', {
        cookie,
        json: { name: 'Menu', type: 'url', content: 'https://example.com/old-menu', isDynamic: true },
      });
      expect(created.statusCode, created.body).toBe(201);
      const code = created.json<QrCode>();
      expect(code.shortUrl).toBe(`${t().config.publicUrl}/r/${code.slug}`);
      const slug = code.slug!;

      expect((await scan(t(), slug)).headers.location).toBe('https://example.com/old-menu');
      const put = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
        cookie,
        json: { content: 'https://example.com/new-menu' },
      });
      expect(put.statusCode, put.body).toBe(200);
      const next = await scan(t(), slug);
      expect(next.statusCode).toBe(302);
      expect(next.headers.location).toBe('https://example.com/new-menu');
      expect(next.headers['cache-control']).toBe('no-store');
      expect(await scansOf(t(), code.id)).toHaveLength(2);
    });

    it('follows every other change of a code too: a direct update, its deletion, its owner deleted', async () => {
      const first = await dynamicCode(t(), 'url', 'https://example.com/one');
      const second = await dynamicCode(t(), 'url', 'https://example.com/two');
      // Scanned once each, so any cached answer would now be served.
      expect((await scan(t(), first.row.slug)).headers.location).toBe('https://example.com/one');
      expect((await scan(t(), second.row.slug)).headers.location).toBe('https://example.com/two');

      await t()
        .db.updateTable('qr_codes')
        .set({ content: 'https://example.com/one-b' })
        .where('id', '=', first.row.id)
        .execute();
      expect((await scan(t(), first.row.slug)).headers.location).toBe('https://example.com/one-b');

      await t()
        .db.updateTable('qr_codes')
        .set({ is_dynamic: false })
        .where('id', '=', first.row.id)
        .execute();
      expectNotFoundPage(await scan(t(), first.row.slug));

      expect((await scan(t(), second.row.slug)).statusCode).toBe(302);
      await t().db.deleteFrom('users').where('id', '=', second.user.id).execute();
      expectNotFoundPage(await scan(t(), second.row.slug));
    });

    it('never serves a change that was rolled back, even one scanned while its transaction was open', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/kept');
      expect((await scan(t(), row.slug)).headers.location).toBe('https://example.com/kept');
      let during: Promise<Response> | undefined;
      await expect(
        t()
          .db.transaction()
          .execute(async (trx) => {
            await trx
              .updateTable('qr_codes')
              .set({ content: 'https://example.com/rolled-back' })
              .where('id', '=', row.id)
              .execute();
            // Not awaited: its scan is written once the transaction has ended.
            during = scan(t(), row.slug);
            await new Promise((resolve) => setTimeout(resolve, 20));
            throw new Error('roll back');
          }),
      ).rejects.toThrow('roll back');
      expect((await during!).statusCode).toBe(302);
      expect((await scan(t(), row.slug)).headers.location).toBe('https://example.com/kept');
    });

    it.each([
      ['a path and query in Latin-1 range', 'https://example.com/caf\u00e9?x=\u00fc'],
      ['CJK characters in the path', 'https://example.com/\u00fcber/\u65e5\u672c?q=\u00e4'],
      ['an internationalised domain name', 'https://\u4f8b\u3048.jp/'],
    ])(
      'redirects to a destination with %s: an ASCII Location naming the same URL',
      async (_name, destination) => {
        // POST /api/qr-codes accepts these destinations (isHttpUrl), so the short link must serve them.
        const { cookie } = await signedInUser(t(), 'iri-owner', { isAdmin: true });
        const created = await call(t().app, 'POST', '/api/qr-codes', {
          cookie,
          json: { name: 'IRI', type: 'url', content: destination, isDynamic: true },
        });
        expect(created.statusCode, created.body).toBe(201);
        const code = created.json<QrCode>();
        const base = await t().app.listen({ port: 0, host: '127.0.0.1' });
        const res = await fetch(`${base}/r/${code.slug}`, { redirect: 'manual' });
        expect(res.status, await res.text()).toBe(302);
        const location = res.headers.get('location') ?? '';
        // A header carries bytes: anything outside ASCII must be percent-encoded (or punycode).
        expect(location).toMatch(/^[\x21-\x7e]+$/);
        expect(new URL(location).href).toBe(new URL(destination).href);
      },
    );

    it('HEAD answers the same status and Location without recording a scan', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/head');
      const head = await scan(t(), row.slug, { method: 'HEAD', headers: { 'user-agent': IPHONE } });
      expect(head.statusCode).toBe(302);
      expect(head.headers.location).toBe('https://example.com/head');
      expect(head.headers['cache-control']).toBe('no-store');
      await expectNoScan(t(), 0);
      // The GET that follows is recorded.
      expect((await scan(t(), row.slug)).statusCode).toBe(302);
      await expectNoScan(t(), 1);
    });
  });

  describe('links that lead nowhere', () => {
    const t = useTestApp(getDb);

    it.each(['unknown1', 'abc', 'a'.repeat(32), 'a'.repeat(200), '%3Cscript%3E', '..%2F..%2Fetc'])(
      'answers a friendly 404 page for the slug %s, and records nothing',
      async (slug) => {
        await dynamicCode(t(), 'url', 'https://example.com/exists');
        expectNotFoundPage(await scan(t(), slug));
        expectNotFoundPage(await scan(t(), slug, { method: 'HEAD' }));
        await expectNoScan(t(), 0);
      },
    );

    it('never reaches a static code: neither by its id nor by a slug it was given in the database', async () => {
      const user = await insertTestUser(t().db, { username: 'static-owner' });
      const stat = await insertQrRow(t().db, { userId: user.id, isDynamic: false });
      expectNotFoundPage(await scan(t(), String(stat.id)));
      await t().db.updateTable('qr_codes').set({ slug: 'statslug' }).where('id', '=', stat.id).execute();
      expectNotFoundPage(await scan(t(), 'statslug'));
      await expectNoScan(t(), 0);
    });

    it('never reaches a dynamic code by its numeric id', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/by-id');
      expectNotFoundPage(await scan(t(), String(row.id)));
      await expectNoScan(t(), 0);
    });

    it("answers 404 for a deleted code's slug (its scans went with it)", async () => {
      const { cookie } = await signedInUser(t(), 'deleter');
      const created = await call(t().app, 'POST', '/api/qr-codes', {
        cookie,
        json: { name: 'Gone', type: 'url', content: 'https://example.com/gone', isDynamic: true },
      });
      const code = created.json<QrCode>();
      expect((await scan(t(), code.slug!)).statusCode).toBe(302);
      expect((await call(t().app, 'DELETE', `/api/qr-codes/${code.id}`, { cookie })).statusCode).toBe(200);
      expectNotFoundPage(await scan(t(), code.slug!));
      await expectNoScan(t(), 0);
    });
  });
});
