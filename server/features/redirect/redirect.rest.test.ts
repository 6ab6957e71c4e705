import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { decodeContent, encodeContent, type ContentFields } from '../../../src/qr/content.js';
import type { QrType } from '../../../src/qr/qr-types.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import type { Config } from '../../config.js';
import type { QrCodeRow } from '../../db/database.js';
import { call, expectRestError, insertQrRow, signedInUser } from '../../test/qr-fixtures.js';
import { insertTestUser, useTestApp, type Response, type TestApp } from '../../test/test-app.js';
import { countRows, describeEachDb, type TestDb } from '../../test/test-db.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

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

const VCARD: ContentFields = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0000',
  organization: 'Analytical Engines, Ltd.',
  title: 'Engineer',
  website: 'https://ada.example.com',
};

const EVENT: ContentFields = {
  title: 'Launch party',
  location: 'Berlin, Alexanderplatz',
  description: 'Drinks; snacks',
  startDate: '2026-12-24T18:00:00.000Z',
  endDate: '2026-12-24T22:00:00.000Z',
};

/** Dynamic codes that show a landing page: what it must show and the links it must offer. */
const landing: {
  type: QrType;
  fields: ContentFields;
  shows: string[];
  links: { text: RegExp; href: string | RegExp }[];
}[] = [
  {
    type: 'text',
    fields: { text: 'Opening hours: 9–17. Call +1 555 123 4567 or see https://example.com/hours' },
    shows: ['Opening hours: 9–17.'],
    links: [
      { text: /Call \+1 555 123 4567/, href: 'tel:+15551234567' },
      { text: /^https:\/\/example\.com\/hours$/, href: 'https://example.com/hours' },
    ],
  },
  {
    type: 'email',
    fields: { email: 'hello@example.com', subject: 'Hi there', body: 'Line 1\nLine 2' },
    shows: ['hello@example.com', 'Hi there', 'Line 1\nLine 2'],
    links: [{ text: /Send email/, href: /^mailto:hello@example\.com\?/ }],
  },
  {
    type: 'sms',
    fields: { phone: '+1 555 123 4567', message: 'See you at 8' },
    shows: ['+1 555 123 4567', 'See you at 8'],
    links: [
      { text: /Send SMS/, href: 'sms:+15551234567?&body=See%20you%20at%208' },
      { text: /^Call$/, href: 'tel:+15551234567' },
    ],
  },
  {
    type: 'phone',
    fields: { phone: '+1 555 123 4567' },
    shows: ['+1 555 123 4567'],
    links: [{ text: /^Call$/, href: 'tel:+15551234567' }],
  },
  {
    type: 'wifi',
    fields: { ssid: 'Cafe Guest', password: 'espresso<2024>', encryption: 'WPA' },
    shows: ['Cafe Guest', 'espresso<2024>', 'WPA'],
    links: [],
  },
  {
    type: 'vcard',
    fields: VCARD,
    shows: ['Ada Lovelace', 'Engineer · Analytical Engines, Ltd.', '+44 20 7946 0000', 'ada@example.com'],
    links: [
      { text: /Save contact/, href: /^\/r\/[A-Za-z0-9_-]+\/contact\.vcf$/ },
      { text: /\+44 20 7946 0000/, href: 'tel:+442079460000' },
      { text: /ada@example\.com/, href: 'mailto:ada@example.com' },
    ],
  },
  {
    type: 'event',
    fields: EVENT,
    shows: [
      'Launch party',
      'Thu, 24 Dec 2026, 18:00 – 22:00 UTC',
      'Berlin, Alexanderplatz',
      'Drinks; snacks',
    ],
    links: [{ text: /Add to calendar/, href: /^\/r\/[A-Za-z0-9_-]+\/event\.ics$/ }],
  },
];

interface ScanRow {
  qr_code_id: number;
  timestamp: string | Date;
  user_agent: string | null;
  ip_address: string | null;
  referrer: string | null;
  location: string | null;
  device: string | null;
}

async function scansOf(t: TestApp, codeId?: number): Promise<ScanRow[]> {
  let query = t.db
    .selectFrom('qr_scans')
    .select(['qr_code_id', 'timestamp', 'user_agent', 'ip_address', 'referrer', 'location', 'device'])
    .orderBy('id');
  if (codeId !== undefined) query = query.where('qr_code_id', '=', codeId);
  return query.execute();
}

/** A scan as a phone sends it: GET with optional headers and client address. */
function scan(
  t: TestApp,
  slug: string,
  options: {
    method?: 'GET' | 'HEAD';
    /** `'user-agent': undefined` sends none (light-my-request adds its own otherwise). */
    headers?: Record<string, string | undefined>;
    remoteAddress?: string;
  } = {},
): Promise<Response> {
  return t.app.inject({
    method: options.method ?? 'GET',
    url: `/r/${slug}`,
    headers: options.headers ?? {},
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

let owners = 0;

/** A dynamic code of `type` written straight to the database, with its slug. */
async function dynamicCode(t: TestApp, type: QrType, content: string, name = `My ${type}`) {
  owners += 1;
  const user = await insertTestUser(t.db, { username: `owner${owners}` });
  const row = await insertQrRow(t.db, { userId: user.id, type, content, name, isDynamic: true });
  return { row: row as QrCodeRow & { slug: string }, user };
}

function cspNonce(res: Response): string {
  const csp = String(res.headers['content-security-policy'] ?? '');
  const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
  if (!nonce) throw new Error(`no script nonce in the CSP: ${csp}`);
  return nonce;
}

function htmlOf(res: Response) {
  expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  return new JSDOM(res.body).window.document;
}

function expectNotFoundPage(res: Response) {
  expect(res.statusCode).toBe(404);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-security-policy']).toEqual(expect.any(String));
  const doc = htmlOf(res);
  expect(doc.querySelector('h1')?.textContent).toBe('This QR code is not active');
  expect(res.headers.location).toBeUndefined();
}

/** Expects one stored scan per listed code id after the call; answers the new rows. */
async function expectNoScan(t: TestApp, before: number) {
  expect(await countRows(t.db, 'qr_scans')).toBe(before);
}

function withConfig(getDb: () => TestDb, config: Partial<Config>) {
  return useTestApp(getDb, { config });
}

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
        Array.from({ length: 100 }, (_, i) =>
          scan(t(), row.slug, { headers: { 'user-agent': i % 2 ? IPHONE : DESKTOP } }),
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

  describe('landing pages', () => {
    const t = useTestApp(getDb);

    it.each(landing)(
      '$type: 200 HTML with a CSP, the content shown and its action links; one scan row',
      async ({ type, fields, shows, links }) => {
        const content = encodeContent(type, fields);
        const { row } = await dynamicCode(t(), type, content, `Code & <b>${type}</b>`);
        const res = await scan(t(), row.slug, { headers: { 'user-agent': DESKTOP } });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        const csp = String(res.headers['content-security-policy']);
        expect(csp).toContain("default-src 'none'");
        expect(csp).toContain("frame-ancestors 'none'");
        const nonce = cspNonce(res);
        const doc = htmlOf(res);

        // The page heads with the content, never with the code's name (the owner's label).
        const headings: Partial<Record<QrType, string>> = {
          text: 'Message',
          email: 'hello@example.com',
          sms: '+1 555 123 4567',
          phone: '+1 555 123 4567',
          wifi: 'Cafe Guest',
          vcard: 'Ada Lovelace',
          event: 'Launch party',
        };
        expect(doc.title).toBe(headings[type]);
        expect(doc.querySelector('h1')?.textContent).toBe(headings[type]);
        expect(doc.querySelector('h1 b')).toBeNull();
        expect(res.body).not.toContain('Code &amp;');
        const text = doc.body.textContent;
        for (const shown of shows) expect(text).toContain(shown);

        const anchors = [...doc.querySelectorAll('a')].map((a) => ({
          text: a.textContent.trim(),
          href: a.getAttribute('href') ?? '',
        }));
        for (const link of links) {
          const found = anchors.find((a) => link.text.test(a.text));
          expect(found, `${String(link.text)} in ${JSON.stringify(anchors)}`).toBeDefined();
          if (typeof link.href === 'string') expect(found!.href).toBe(link.href);
          else expect(found!.href).toMatch(link.href);
        }
        // Every href is one of the safe schemes or the page's own path.
        for (const a of anchors) expect(a.href).toMatch(/^(https?:|mailto:|sms:|tel:|\/r\/)/);
        // Any script carries this response's nonce.
        for (const s of doc.querySelectorAll('script')) expect(s.getAttribute('nonce')).toBe(nonce);

        const scans = await scansOf(t());
        expect(scans).toHaveLength(1);
        expect(scans[0]).toMatchObject({ qr_code_id: row.id, user_agent: DESKTOP, device: 'Desktop' });
      },
    );

    it('wifi: shows network, security and password, and its copy script runs only under the nonce', async () => {
      const content = encodeContent('wifi', { ssid: 'Home Net', password: 's3cret:pass', encryption: 'WPA' });
      const { row } = await dynamicCode(t(), 'wifi', content);
      const res = await scan(t(), row.slug);
      const doc = htmlOf(res);
      expect(doc.getElementById('pw')?.textContent).toBe('s3cret:pass');
      expect(doc.body.textContent).toContain('Home Net');
      expect(doc.querySelector('button#cp')?.textContent).toBe('Copy password');
      const scripts = [...doc.querySelectorAll('script')];
      expect(scripts).toHaveLength(1);
      expect(scripts[0]!.getAttribute('nonce')).toBe(cspNonce(res));
      // The password is read from the page, never written into the script.
      expect(scripts[0]!.textContent).not.toContain('s3cret');
    });

    it('uses a fresh nonce on every response', async () => {
      const content = encodeContent('wifi', { ssid: 'N', password: 'p', encryption: 'WPA' });
      const { row } = await dynamicCode(t(), 'wifi', content);
      const a = cspNonce(await scan(t(), row.slug));
      const b = cspNonce(await scan(t(), row.slug));
      expect(a).not.toBe(b);
      expect(a.length).toBeGreaterThanOrEqual(16);
    });

    it('shows a text payload containing <script> as text, with no script of its own', async () => {
      const evil = 'Hello <script>alert(1)</script> <img src=x onerror=alert(2)> "quoted" & done';
      const { row } = await dynamicCode(
        t(),
        'text',
        encodeContent('text', { text: evil }),
        '<script>x</script>',
      );
      const res = await scan(t(), row.slug);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('<script>alert(1)</script>');
      expect(res.body).not.toContain('<img');
      expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      // No script element without this response's nonce (here: none at all).
      expect(res.body.match(/<script(?![^>]*\snonce=")/gi)).toBeNull();
      const doc = htmlOf(res);
      expect(doc.querySelectorAll('script, img')).toHaveLength(0);
      expect(doc.querySelector('.t')?.textContent).toBe(evil);
      // The code's name is not shown.
      expect(doc.title).toBe('Message');
      expect(res.body).not.toContain('&lt;script&gt;x');
    });

    it('does not link a javascript: URL inside a text payload', async () => {
      const text = 'Click javascript:alert(document.cookie) or https://ok.example/page.';
      const { row } = await dynamicCode(t(), 'text', encodeContent('text', { text }));
      const doc = htmlOf(await scan(t(), row.slug));
      const hrefs = [...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'));
      expect(hrefs).toEqual(['https://ok.example/page']);
    });

    it('HEAD of a landing page answers 200 HTML without recording a scan', async () => {
      const { row } = await dynamicCode(t(), 'phone', encodeContent('phone', { phone: '+1 555 123 4567' }));
      const head = await scan(t(), row.slug, { method: 'HEAD' });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toMatch(/^text\/html/);
      expect(head.headers['cache-control']).toBe('no-store');
      await expectNoScan(t(), 0);
    });

    it('HEAD over a real socket: headers only, no body, no scan; the GET after it is recorded', async () => {
      const { row } = await dynamicCode(t(), 'phone', encodeContent('phone', { phone: '+1 555 123 4567' }));
      const { row: link } = await dynamicCode(t(), 'url', 'https://example.com/socket');
      const base = await t().app.listen({ port: 0, host: '127.0.0.1' });
      const page = await fetch(`${base}/r/${row.slug}`, { method: 'HEAD' });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toBe('');
      const redirect = await fetch(`${base}/r/${link.slug}`, { method: 'HEAD', redirect: 'manual' });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe('https://example.com/socket');
      expect(await redirect.text()).toBe('');
      await expectNoScan(t(), 0);
      const get = await fetch(`${base}/r/${link.slug}`, { redirect: 'manual' });
      expect(get.status).toBe(302);
      await expectNoScan(t(), 1);
    });

    it('/r/<slug>/contact.vcf downloads the contact, which parses back to the same fields', async () => {
      const content = encodeContent('vcard', VCARD);
      const { row } = await dynamicCode(t(), 'vcard', content);
      const page = htmlOf(await scan(t(), row.slug));
      const href = page.querySelector('a.b')?.getAttribute('href');
      expect(href).toBe(`/r/${row.slug}/contact.vcf`);

      const res = await t().app.inject({ method: 'GET', url: href! });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/vcard/);
      expect(res.headers['content-disposition']).toBe('attachment; filename="ada-lovelace.vcf"');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.startsWith('BEGIN:VCARD\r\n')).toBe(true);
      expect(res.body.endsWith('END:VCARD\r\n')).toBe(true);
      expect(decodeContent('vcard', res.body)).toEqual(decodeContent('vcard', content));
      expect(decodeContent('vcard', res.body)).toMatchObject(VCARD);
      // The download is not a scan: only the page view was recorded.
      await expectNoScan(t(), 1);
    });

    it('/r/<slug>/event.ics downloads the event, which parses back to the same fields', async () => {
      const content = encodeContent('event', EVENT);
      const { row } = await dynamicCode(t(), 'event', content);
      const page = htmlOf(await scan(t(), row.slug));
      const href = page.querySelector('a.b')?.getAttribute('href');
      expect(href).toBe(`/r/${row.slug}/event.ics`);

      const res = await t().app.inject({ method: 'GET', url: href! });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/calendar/);
      expect(res.headers['content-disposition']).toBe('attachment; filename="launch-party.ics"');
      const lines = res.body.split('\r\n');
      expect(lines[0]).toBe('BEGIN:VCALENDAR');
      expect(lines).toContain('VERSION:2.0');
      expect(lines).toContain('BEGIN:VEVENT');
      expect(lines.some((l) => l.startsWith('UID:'))).toBe(true);
      expect(lines.some((l) => l.startsWith('DTSTAMP:'))).toBe(true);
      expect(decodeContent('event', res.body)).toEqual(decodeContent('event', content));
      expect(decodeContent('event', res.body)).toMatchObject({
        title: EVENT.title,
        location: EVENT.location,
        description: EVENT.description,
      });
      expect(Date.parse(decodeContent('event', res.body).startDate!)).toBe(Date.parse(EVENT.startDate!));
      expect(Date.parse(decodeContent('event', res.body).endDate!)).toBe(Date.parse(EVENT.endDate!));
      await expectNoScan(t(), 1);
    });

    it('answers 404 for a download that does not match the code type', async () => {
      const { row: card } = await dynamicCode(t(), 'vcard', encodeContent('vcard', VCARD));
      const { row: url } = await dynamicCode(t(), 'url', 'https://example.com/x');
      for (const path of [
        `/r/${card.slug}/event.ics`,
        `/r/${url.slug}/contact.vcf`,
        '/r/nope1234/contact.vcf',
      ]) {
        const res = await t().app.inject({ method: 'GET', url: path });
        expect(res.statusCode, path).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
      }
      await expectNoScan(t(), 0);
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

  describe('client address with TRUST_PROXY unset', () => {
    const t = useTestApp(getDb);

    it('ignores X-Forwarded-For: the socket address is stored and located', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/direct');
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': '8.8.8.8' } });
      await scan(t(), row.slug, {
        headers: { 'x-forwarded-for': '10.0.0.1' },
        remoteAddress: '81.2.69.142',
      });
      const scans = await scansOf(t());
      expect(scans.map((s) => [s.ip_address, s.location])).toEqual([
        ['127.0.0.1', 'Unknown'],
        ['81.2.69.142', 'United Kingdom'],
      ]);
    });

    it.each([
      ['127.0.0.1', '127.0.0.1'],
      ['10.1.2.3', '10.1.2.3'],
      ['172.20.0.5', '172.20.0.5'],
      ['192.168.1.20', '192.168.1.20'],
      ['169.254.0.9', '169.254.0.9'],
      ['100.64.1.1', '100.64.1.1'],
      ['::1', '::1'],
      ['fe80::1', 'fe80::1'],
      ['fd00::abcd', 'fd00::abcd'],
      ['::ffff:192.168.1.1', '192.168.1.1'],
    ])('locates the private or loopback address %s as Unknown and stores it as %s', async (ip, stored) => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/private');
      await scan(t(), row.slug, { remoteAddress: ip });
      const [scanned] = await scansOf(t());
      expect(scanned).toMatchObject({ ip_address: stored, location: 'Unknown' });
    });

    it.each([
      ['8.8.8.8', '8.8.8.8', 'United States'],
      ['2001:4860:4860::8888', '2001:4860:4860::8888', 'United States'],
      ['::ffff:8.8.8.8', '8.8.8.8', 'United States'],
      ['81.2.69.142', '81.2.69.142', 'United Kingdom'],
    ])(
      'locates the public address %s (stored as %s) as %s with the offline country database',
      async (ip, stored, country) => {
        const { row } = await dynamicCode(t(), 'url', 'https://example.com/public');
        await scan(t(), row.slug, { remoteAddress: ip });
        const [scanned] = await scansOf(t());
        expect(scanned).toMatchObject({ ip_address: stored, location: country });
      },
    );
  });

  describe.each([
    ['the proxy address (127.0.0.1, the inject default)', '127.0.0.1'],
    ['a CIDR list containing the proxy', '10.0.0.0/8, 127.0.0.0/8'],
    ['true', 'true'],
    ['a hop count of 1', '1'],
  ])('client address with TRUST_PROXY = %s', (_name, trustProxy) => {
    const t = withConfig(getDb, { trustProxy });

    it('stores and locates the X-Forwarded-For client', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/proxied');
      const res = await scan(t(), row.slug, {
        headers: { 'x-forwarded-for': '8.8.8.8', 'user-agent': IPHONE },
      });
      expect(res.statusCode).toBe(302);
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: '8.8.8.8', location: 'United States', device: 'Mobile' });
    });

    it('falls back to the socket address without X-Forwarded-For', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/proxied');
      await scan(t(), row.slug);
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: '127.0.0.1', location: 'Unknown' });
    });
  });

  describe('client address from a proxy that appends the port', () => {
    const t = withConfig(getDb, { trustProxy: '127.0.0.1' });

    it.each([
      ['81.2.69.142:54321', '81.2.69.142', 'United Kingdom'],
      ['[2001:4860:4860::8888]:443', '2001:4860:4860::8888', 'United States'],
      ['8.8.8.8:1234', '8.8.8.8', 'United States'],
    ])('stores %s as the bare address %s and locates it', async (forwarded, ip, location) => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/port');
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': forwarded } });
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: ip, location });
    });
  });

  describe('client address with TRUST_PROXY naming another proxy', () => {
    const t = withConfig(getDb, { trustProxy: '10.9.9.9' });

    it('does not believe X-Forwarded-For from an address that is not the trusted proxy', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/untrusted');
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': '8.8.8.8' }, remoteAddress: '81.2.69.142' });
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': '8.8.8.8' }, remoteAddress: '10.9.9.9' });
      const scans = await scansOf(t());
      expect(scans.map((s) => [s.ip_address, s.location])).toEqual([
        ['81.2.69.142', 'United Kingdom'],
        ['8.8.8.8', 'United States'],
      ]);
    });

    it('takes the client the trusted proxy saw, not an address the client forged before it', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/forged');
      // The client sent "X-Forwarded-For: 1.1.1.1"; the proxy appended the address it saw.
      await scan(t(), row.slug, {
        headers: { 'x-forwarded-for': '1.1.1.1, 81.2.69.142' },
        remoteAddress: '10.9.9.9',
      });
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: '81.2.69.142', location: 'United Kingdom' });
    });
  });

  describe('ANONYMIZE_IPS=true', () => {
    const t = withConfig(getDb, { anonymizeIps: true });

    it('stores an IPv4 address with its last octet zeroed', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon');
      await scan(t(), row.slug, { remoteAddress: '203.0.113.77' });
      await scan(t(), row.slug, { remoteAddress: '8.8.8.8' });
      await scan(t(), row.slug, { remoteAddress: '::ffff:198.51.100.23' });
      const scans = await scansOf(t());
      expect(scans.map((s) => s.ip_address)).toEqual(['203.0.113.0', '8.8.8.0', '198.51.100.0']);
      expect(scans[1]!.location).toBe('United States');
    });

    it('stores an IPv6 address with its last 80 bits zeroed', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon6');
      await scan(t(), row.slug, { remoteAddress: '2001:4860:4860:1234:5678:9abc:def0:8888' });
      const [stored] = await scansOf(t());
      const ip = stored!.ip_address!;
      expect(ip).not.toContain('8888');
      expect(ip).not.toContain('1234');
      // 2001:4860:4860:0:0:0:0:0, in whatever compressed form.
      const [head = '', tail] = ip.split('::');
      expect(tail).toBe('');
      expect(head.split(':').map((g) => Number.parseInt(g, 16))).toEqual([0x2001, 0x4860, 0x4860]);
      expect(stored!.location).toBe('United States');
    });

    it('keeps private addresses Unknown', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon-private');
      await scan(t(), row.slug);
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: '127.0.0.0', location: 'Unknown' });
    });
  });

  describe('ANONYMIZE_IPS=true behind a trusted proxy', () => {
    const t = withConfig(getDb, { anonymizeIps: true, trustProxy: '127.0.0.1' });

    it('anonymizes the forwarded client address, not the proxy’s', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon-proxy');
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': '203.0.113.77' } });
      const [stored] = await scansOf(t());
      expect(stored!.ip_address).toBe('203.0.113.0');
    });

    it.each([
      ['an IPv4 address with a port', '203.0.113.77:54321', '203.0.113.77'],
      ['a bracketed IPv6 address with a port', '[2001:db8:85a3:8d3::7348]:443', '8d3'],
    ])(
      'never stores the full client address when the proxy forwards %s',
      async (_name, forwarded, secret) => {
        // Some proxies (Azure Application Gateway, IIS ARR) append the client's port to X-Forwarded-For.
        const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon-port');
        expect((await scan(t(), row.slug, { headers: { 'x-forwarded-for': forwarded } })).statusCode).toBe(
          302,
        );
        const [stored] = await scansOf(t());
        expect(stored!.ip_address ?? '').not.toContain(secret);
      },
    );
  });
});

describeEachDb('GET /api/qr-codes/{id}/scan and qr.scan, the scan demo', (getDb) => {
  const t = useTestApp(getDb);

  async function ownedCode(username: string, type: QrType, content: string, isDynamic = false) {
    const { user, cookie } = await signedInUser(t(), username);
    const row = await insertQrRow(t().db, { userId: user.id, type, content, isDynamic });
    return { user, cookie, row };
  }

  const demoCases: [string, QrType, string, boolean][] = [
    [
      'a static wifi code',
      'wifi',
      encodeContent('wifi', { ssid: 'Cafe', password: 'pw', encryption: 'WPA' }),
      false,
    ],
    ['a dynamic url code', 'url', 'https://example.com/demo', true],
  ];

  it.each(demoCases)(
    'answers the owner { type, content } of %s and records the scan',
    async (_name, type, content, dynamic) => {
      const { cookie, row } = await ownedCode('demo-owner', type, content, dynamic);
      const res = await call(t().app, 'GET', `/api/qr-codes/${row.id}/scan`, {
        cookie,
        headers: { 'user-agent': IPHONE },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ type, content });
      const scans = await scansOf(t());
      expect(scans).toHaveLength(1);
      expect(scans[0]).toMatchObject({
        qr_code_id: row.id,
        user_agent: IPHONE,
        ip_address: '127.0.0.1',
        referrer: null,
        location: 'Unknown',
        device: 'Mobile',
      });
    },
  );

  it("answers 404 for another user's code, like a missing id, and records nothing", async () => {
    const { row } = await ownedCode(
      'victim',
      'wifi',
      encodeContent('wifi', { ssid: 'Home', password: 'secret!', encryption: 'WPA' }),
    );
    const { cookie: intruder } = await signedInUser(t(), 'intruder');
    const other = expectRestError(
      await call(t().app, 'GET', `/api/qr-codes/${row.id}/scan`, { cookie: intruder }),
      404,
    );
    const missing = expectRestError(
      await call(t().app, 'GET', `/api/qr-codes/${row.id + 1000}/scan`, { cookie: intruder }),
      404,
    );
    expect(other).toEqual(missing);
    expect(JSON.stringify(other)).not.toContain('secret!');
    await expectNoScan(t(), 0);
  });

  it('answers 401 when signed out and records nothing', async () => {
    const { row } = await ownedCode('owner-x', 'url', 'https://example.com/x');
    expectRestError(await call(t().app, 'GET', `/api/qr-codes/${row.id}/scan`), 401);
    await expectNoScan(t(), 0);
  });

  it('answers 400 for an id that is not a number', async () => {
    const { cookie } = await signedInUser(t(), 'bad-id');
    expectRestError(await call(t().app, 'GET', '/api/qr-codes/abc/scan', { cookie }), 400);
    await expectNoScan(t(), 0);
  });

  it('the tRPC twin qr.scan answers the owner and records; another user gets NOT_FOUND', async () => {
    const { cookie, row } = await ownedCode('trpc-owner', 'text', encodeContent('text', { text: 'Hi' }));
    const { cookie: intruder } = await signedInUser(t(), 'trpc-intruder');
    const mine = await call(t().app, 'POST', '/trpc/qr.scan', { cookie, json: { id: row.id } });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual({ result: { data: { type: 'text', content: 'Hi' } } });
    await expectNoScan(t(), 1);

    const theirs = await call(t().app, 'POST', '/trpc/qr.scan', { cookie: intruder, json: { id: row.id } });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<{ error: { data: { code: string } } }>().error.data.code).toBe('NOT_FOUND');
    const anonymous = await call(t().app, 'POST', '/trpc/qr.scan', { json: { id: row.id } });
    expect(anonymous.statusCode).toBe(401);
    await expectNoScan(t(), 1);
  });
});
