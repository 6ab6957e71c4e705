import { describe, expect, it } from 'vitest';
import { decodeContent, encodeContent, type ContentFields } from '../../../src/qr/content.js';
import type { QrType } from '../../../src/qr/qr-types.js';
import { call, useTestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import {
  DESKTOP,
  cspNonce,
  dynamicCode,
  expectNoScan,
  htmlOf,
  scan,
  scansOf,
} from './redirect.test-helpers.js';

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

describeOnSqlite('GET /r/<slug>, the public short link', (getDb) => {
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

      const res = await call(t().app, 'GET', href!);
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

      const res = await call(t().app, 'GET', href!);
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
        const res = await call(t().app, 'GET', path);
        expect(res.statusCode, path).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
      }
      await expectNoScan(t(), 0);
    });
  });
});
