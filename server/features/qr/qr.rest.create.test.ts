import { describe, expect, it } from 'vitest';
import { encodeContent } from '../../../src/qr/content.js';
import type { QrType } from '../../../src/qr/qr-types.js';
import type { Folder, QrCode } from '../../../src/qr/qr.schema.js';
import { findQrRow, insertFolderRow, storedCustomization } from '../../test/fixtures.js';
import {
  EVIL_ORIGIN,
  ISO_UTC,
  call,
  expectRestError,
  signedInUser,
  useTestApp,
} from '../../test/test-app.js';
import { countRows, describeOnSqlite } from '../../test/test-db.js';
import {
  DEFAULT_CUSTOMIZATION,
  INVALID_URL,
  SELF_LINK,
  createCode,
  postCode,
  snapshot,
  urlBody,
} from './qr.test-helpers.js';

const SLUG = /^[A-Za-z0-9_-]{6,8}$/;

/** One valid code of every type, its payload built by the shared encoder. */
const validCodes: { type: QrType; content: string }[] = [
  { type: 'url', content: encodeContent('url', { url: 'https://example.com/landing?utm_source=qr&x=1' }) },
  {
    type: 'email',
    content: encodeContent('email', {
      email: 'hello@example.com',
      subject: 'Hi there',
      body: 'Line 1\nLine 2',
    }),
  },
  { type: 'text', content: encodeContent('text', { text: 'Hello, world! Grüße 👋' }) },
  { type: 'sms', content: encodeContent('sms', { phone: '+1 555 123 4567', message: 'See you at 8' }) },
  {
    type: 'wifi',
    content: encodeContent('wifi', { ssid: 'Home; Net', password: 's3cret:pass', encryption: 'WPA' }),
  },
  {
    type: 'vcard',
    content: encodeContent('vcard', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 7946 0000',
      organization: 'Analytical Engines, Ltd.',
      title: 'Engineer',
      website: 'https://ada.example.com',
    }),
  },
  {
    type: 'event',
    content: encodeContent('event', {
      title: 'Launch party',
      location: 'Berlin',
      description: 'Drinks; snacks',
      startDate: '2026-12-24T18:00:00.000Z',
      endDate: '2026-12-24T22:00:00.000Z',
    }),
  },
  { type: 'social', content: encodeContent('social', { url: 'https://instagram.com/example' }) },
  { type: 'pdf', content: encodeContent('pdf', { url: 'https://example.com/menu.pdf', title: 'Menu' }) },
  {
    type: 'video',
    content: encodeContent('video', { url: 'https://youtube.com/watch?v=abc', title: 'Clip' }),
  },
  {
    type: 'image',
    content: encodeContent('image', { url: 'https://example.com/photo.jpg', title: 'Photo' }),
  },
  { type: 'phone', content: encodeContent('phone', { phone: '+1 555 123 4567' }) },
];

/** Content that is not a valid payload of its type, with the message that names the problem. */
const invalidContent: { name: string; type: QrType; content: string; message: string }[] = [
  { name: 'url javascript:', type: 'url', content: 'javascript:alert(1)', message: INVALID_URL },
  { name: 'url JavaScript: (mixed case)', type: 'url', content: 'JavaScript:alert(1)', message: INVALID_URL },
  { name: 'url data:', type: 'url', content: 'data:text/html,x', message: INVALID_URL },
  { name: 'url file:', type: 'url', content: 'file:///etc/passwd', message: INVALID_URL },
  { name: 'url ftp:', type: 'url', content: 'ftp://x', message: INVALID_URL },
  { name: 'url vbscript:', type: 'url', content: 'vbscript:msgbox(1)', message: INVALID_URL },
  { name: 'url without a scheme', type: 'url', content: 'example.com/page', message: INVALID_URL },
  { name: 'url protocol-relative', type: 'url', content: '//evil.example/x', message: INVALID_URL },
  { name: 'url without a host', type: 'url', content: 'https://', message: INVALID_URL },
  { name: 'url with a space', type: 'url', content: 'https://exa mple.com', message: INVALID_URL },
  { name: 'social javascript:', type: 'social', content: 'javascript:alert(1)', message: INVALID_URL },
  { name: 'pdf data:', type: 'pdf', content: 'data:application/pdf;base64,JVBERi0=', message: INVALID_URL },
  { name: 'video file:', type: 'video', content: 'file:///tmp/clip.mp4', message: INVALID_URL },
  { name: 'image ftp:', type: 'image', content: 'ftp://example.com/p.png', message: INVALID_URL },
  {
    name: 'email with an invalid address',
    type: 'email',
    content: encodeContent('email', { email: 'not-an-email' }),
    message: 'Must be a valid email address',
  },
  { name: 'email without an address', type: 'email', content: 'mailto:', message: 'Email is required' },
  {
    name: 'sms without a phone number',
    type: 'sms',
    content: encodeContent('sms', { phone: '', message: 'hello' }),
    message: 'Phone number is required',
  },
  {
    name: 'sms with letters and symbols as the number',
    type: 'sms',
    content: encodeContent('sms', { phone: 'call me!', message: '' }),
    message: 'Must be a valid phone number',
  },
  {
    name: 'wifi without SSID',
    type: 'wifi',
    content: encodeContent('wifi', { ssid: '', password: 'secret', encryption: 'WPA' }),
    message: 'Network name (SSID) is required',
  },
  {
    name: 'vcard without a first name',
    type: 'vcard',
    content: encodeContent('vcard', { firstName: '', lastName: 'Lovelace' }),
    message: 'First name is required',
  },
  {
    name: 'event without a start date',
    type: 'event',
    content: encodeContent('event', { title: 'Party', startDate: '' }),
    message: 'Start date is required',
  },
  {
    name: 'event without a title',
    type: 'event',
    content: encodeContent('event', { title: '', startDate: '2026-12-24T18:00:00Z' }),
    message: 'Title is required',
  },
  {
    name: 'event ending before it starts',
    type: 'event',
    content: encodeContent('event', {
      title: 'Party',
      startDate: '2026-12-24T18:00:00Z',
      endDate: '2026-12-24T17:00:00Z',
    }),
    message: 'End date must be after the start date',
  },
  { name: 'phone without a number', type: 'phone', content: 'tel:', message: 'Phone number is required' },
];

/** Bodies the input schema refuses, with (a part of) the message that names the problem. */
const invalidBodies: { name: string; body: unknown; message: string }[] = [
  { name: 'no name', body: urlBody({ name: undefined }), message: 'Name is required' },
  { name: 'a whitespace-only name', body: urlBody({ name: '   ' }), message: 'Name is required' },
  { name: 'a numeric name', body: urlBody({ name: 42 }), message: 'Name must be text' },
  { name: 'a null name', body: urlBody({ name: null }), message: 'Name must be text' },
  {
    name: 'a 10 kB name',
    body: urlBody({ name: 'n'.repeat(10 * 1024) }),
    message: 'Name must be at most 100',
  },
  { name: 'no type', body: urlBody({ type: undefined }), message: 'Type is required' },
  { name: 'a numeric type', body: urlBody({ type: 1 }), message: 'Type must be text' },
  { name: 'no content', body: urlBody({ content: undefined }), message: 'Content is required' },
  { name: 'whitespace-only content', body: urlBody({ content: '  \n ' }), message: 'Content is required' },
  { name: 'numeric content', body: urlBody({ content: 12345 }), message: 'Content must be text' },
  {
    name: 'content as an object of fields',
    body: urlBody({ content: { url: 'https://example.com' } }),
    message: 'Content must be text',
  },
  {
    name: '10 kB of content',
    body: urlBody({ content: `https://example.com/${'a'.repeat(10 * 1024)}` }),
    message: 'Content must be at most 4000',
  },
  {
    name: 'isDynamic as a string',
    body: urlBody({ isDynamic: 'true' }),
    message: 'isDynamic must be true or false',
  },
  {
    name: 'folderId as a string',
    body: urlBody({ folderId: '1' }),
    message: 'Folder must be a folder id or null',
  },
  {
    name: 'a negative folderId',
    body: urlBody({ folderId: -1 }),
    message: 'Folder must be a folder id or null',
  },
  {
    name: 'a fractional folderId',
    body: urlBody({ folderId: 1.5 }),
    message: 'Folder must be a folder id or null',
  },
  { name: 'customization as a string', body: urlBody({ customization: 'red' }), message: 'customization' },
  {
    name: 'a named foreground colour',
    body: urlBody({ customization: { foregroundColor: 'red' } }),
    message: 'Foreground colour must be a colour like #1F2937',
  },
  {
    name: 'a 3-digit foreground colour',
    body: urlBody({ customization: { foregroundColor: '#FFF' } }),
    message: 'Foreground colour must be a colour like #1F2937',
  },
  {
    name: 'a foreground colour carrying markup',
    body: urlBody({ customization: { foregroundColor: '#000000" onload="alert(1)' } }),
    message: 'Foreground colour must be a colour like #1F2937',
  },
  {
    name: 'an invalid background colour',
    body: urlBody({ customization: { backgroundColor: 'url(https://evil.example/x)' } }),
    message: 'Background colour',
  },
  {
    name: 'an unknown error-correction level',
    body: urlBody({ customization: { errorCorrectionLevel: 'X' } }),
    message: 'Error correction must be L, M, Q or H',
  },
  {
    name: 'an unknown style',
    body: urlBody({ customization: { style: 'stars' } }),
    message: 'Style must be square, dots, rounded or classy',
  },
  {
    name: 'a javascript: logo URL',
    body: urlBody({ customization: { logo: { url: 'javascript:alert(1)', size: 40 } } }),
    message: 'Logo URL must be an http(s) address or an uploaded logo',
  },
  {
    name: 'a data: logo URL',
    body: urlBody({ customization: { logo: { url: 'data:image/svg+xml,<svg onload=alert(1)>', size: 40 } } }),
    message: 'Logo URL must be an http(s) address or an uploaded logo',
  },
  {
    name: 'a logo size over 80',
    body: urlBody({ customization: { logo: { url: 'https://example.com/l.png', size: 200 } } }),
    message: 'Logo size must be at most 80',
  },
  {
    name: 'an unknown frame style',
    body: urlBody({ customization: { frame: { enabled: true, style: 'wavy' } } }),
    message: 'Frame style must be rounded, square or minimal',
  },
  {
    name: 'a frame text over 30 characters',
    body: urlBody({ customization: { frame: { enabled: true, text: 'x'.repeat(31) } } }),
    message: 'Frame text must be at most 30 characters',
  },
  {
    name: 'an invalid frame colour',
    body: urlBody({ customization: { frame: { enabled: true, color: 'black' } } }),
    message: 'Frame colour must be a colour like #1F2937',
  },
  { name: 'a JSON array body', body: [urlBody()], message: 'Request body must be a JSON object' },
];

describeOnSqlite('QR code REST paths', (getDb) => {
  describe('POST /api/qr-codes', () => {
    const t = useTestApp(getDb);

    it('answers 201 with the whole code, customization defaults filled, and stores it for the caller', async () => {
      const { user, cookie } = await signedInUser(t(), 'creator');
      const res = await postCode(t(), cookie, {
        name: '  Spring campaign  ',
        type: 'url',
        content: 'https://example.com/spring',
        isDynamic: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      const code = res.json<QrCode>();
      const now = t().clock.now().toISOString();
      expect(code).toEqual({
        id: expect.any(Number) as number,
        name: 'Spring campaign',
        type: 'url',
        content: 'https://example.com/spring',
        isDynamic: true,
        customization: DEFAULT_CUSTOMIZATION,
        userId: user.id,
        folderId: null,
        slug: expect.stringMatching(SLUG) as string,
        shortUrl: `${t().config.publicUrl}/r/${code.slug}`,
        domainId: null,
        created: now,
        updated: now,
        // Checked before the answer: the image decodes to the short link, even printed 1 cm wide.
        scannable: {
          verdict: 'scannable',
          reason: 'Decodes to exactly your content, down to 1 cm wide at 300 dpi; contrast 100 %.',
        },
        redirectOptions: null,
        hasPassword: false,
      });
      expect(code.created).toMatch(ISO_UTC);

      const row = await findQrRow(t().db, code.id);
      expect(row).toBeDefined();
      expect(row!.user_id).toBe(user.id);
      expect(Boolean(row!.is_dynamic)).toBe(true);
      expect(row!.slug).toBe(code.slug);
      expect(storedCustomization(row!)).toEqual(DEFAULT_CUSTOMIZATION);
    });

    it('gives a static code no slug and no short link', async () => {
      const { cookie } = await signedInUser(t(), 'static');
      const code = await createCode(t(), cookie, { isDynamic: false });
      expect(code.isDynamic).toBe(false);
      expect(code.slug).toBeNull();
      expect(code.shortUrl).toBeNull();
      expect((await findQrRow(t().db, code.id))?.slug).toBeNull();
    });

    it('makes a code static when isDynamic is left out', async () => {
      const { cookie } = await signedInUser(t(), 'default');
      const code = await createCode(t(), cookie, { isDynamic: undefined });
      expect(code.isDynamic).toBe(false);
      expect(code.shortUrl).toBeNull();
    });

    it('gives every dynamic code its own URL-safe slug', async () => {
      const { cookie } = await signedInUser(t(), 'slugs', { isAdmin: true });
      const codes = await Promise.all(Array.from({ length: 8 }, () => createCode(t(), cookie)));
      const slugs = codes.map((c) => c.slug);
      for (const slug of slugs) expect(slug).toMatch(SLUG);
      expect(new Set(slugs).size).toBe(slugs.length);
    });

    it.each(validCodes)('accepts a valid $type code, static and dynamic', async ({ type, content }) => {
      const { cookie } = await signedInUser(t(), `type${type}`);
      for (const isDynamic of [false, true]) {
        const res = await postCode(t(), cookie, { name: `${type} code`, type, content, isDynamic });
        expect(res.statusCode, res.body).toBe(201);
        const code = res.json<QrCode>();
        expect(code.type).toBe(type);
        expect(code.content).toBe(content);
        expect(code.isDynamic).toBe(isDynamic);
        expect(code.shortUrl === null).toBe(!isDynamic);
        const back = await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie });
        expect(back.json<QrCode>().content).toBe(content);
      }
    });

    it.each(invalidContent)('refuses $name with 400 "$message" and writes nothing', async (c) => {
      const { cookie } = await signedInUser(t(), 'invalid');
      for (const isDynamic of [true, false]) {
        const res = await postCode(t(), cookie, { name: 'Bad', type: c.type, content: c.content, isDynamic });
        const body = expectRestError(res, 400, 'VALIDATION_FAILED');
        expect(body.message).toBe(c.message);
      }
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it.each([
      ['its own short-link prefix', (p: string) => `${p}/r/abc1234`, 'url'],
      ['its own short-link prefix in upper case', (p: string) => `${p.toUpperCase()}/R/abc1234`, 'url'],
      ['its own short-link prefix through a dot segment', (p: string) => `${p}/./r/abc1234`, 'url'],
      ['its own short-link prefix (social type)', (p: string) => `${p}/r/abc1234`, 'social'],
    ] as const)('refuses a dynamic code pointing at %s', async (_n, url, type) => {
      const { cookie } = await signedInUser(t(), 'selflink');
      const first = await createCode(t(), cookie);
      const before = await snapshot(t());
      const content = url(t().config.publicUrl).replace('abc1234', first.slug!);
      const res = await postCode(t(), cookie, { name: 'Loop', type, content, isDynamic: true });
      expect(expectRestError(res, 400, 'VALIDATION_FAILED').message).toBe(SELF_LINK);
      expect(await snapshot(t())).toEqual(before);
    });

    it.each(invalidBodies)('refuses $name with 400 and writes nothing', async (c) => {
      const { cookie } = await signedInUser(t(), 'badbody');
      const res = await postCode(t(), cookie, c.body);
      const body = expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(body.message).toContain(c.message);
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('lists every invalid field in issues', async () => {
      const { cookie } = await signedInUser(t(), 'issues');
      const res = await postCode(t(), cookie, { name: '', type: 'url', content: 42 });
      const body = expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(body.issues).toEqual(
        expect.arrayContaining([
          { path: 'name', message: 'Name is required' },
          { path: 'content', message: 'Content must be text' },
        ]),
      );
    });

    it.each([
      [
        'a form-encoded body',
        'application/x-www-form-urlencoded',
        'name=x&type=url&content=https%3A%2F%2Fa.b',
      ],
      ['a text/plain body', 'text/plain', JSON.stringify(urlBody())],
    ])('refuses %s with 415 and writes nothing', async (_n, contentType, payload) => {
      const { cookie } = await signedInUser(t(), 'notjson');
      const res = await call(t().app, 'POST', '/api/qr-codes', {
        cookie,
        payload,
        headers: { 'content-type': contentType },
      });
      expectRestError(res, 415);
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('accepts transparent and lower-case hex colours, a logo and a frame', async () => {
      const { cookie } = await signedInUser(t(), 'custom');
      const customization = {
        foregroundColor: '#1f2937',
        backgroundColor: 'transparent',
        errorCorrectionLevel: 'H',
        style: 'rounded',
        logo: { url: '/api/uploads/0b7e5a4c-1f2d-4c1b-9a7e-2b1f0c9d8e7f', size: 60 },
        frame: { enabled: true, text: 'Scan Me', style: 'minimal', color: '#1F2937' },
      };
      const code = await createCode(t(), cookie, { customization });
      expect(code.customization).toEqual(customization);
      expect(storedCustomization((await findQrRow(t().db, code.id))!)).toEqual(customization);
    });

    it('fills the defaults around a partial customization', async () => {
      const { cookie } = await signedInUser(t(), 'partial');
      const code = await createCode(t(), cookie, { customization: { foregroundColor: '#3B82F6' } });
      expect(code.customization).toEqual({ ...DEFAULT_CUSTOMIZATION, foregroundColor: '#3B82F6' });
    });

    it('drops unknown customization keys, also inside logo and frame: they are not stored', async () => {
      const { cookie } = await signedInUser(t(), 'unknownkeys');
      const code = await createCode(t(), cookie, {
        customization: {
          foregroundColor: '#3B82F6',
          onload: 'alert(1)',
          evil: '<script>alert(1)</script>',
          logo: { url: 'https://example.com/logo.png', size: 40, onerror: 'alert(2)' },
          frame: { enabled: true, text: 'Scan Me', style: 'rounded', color: '#000000', href: 'javascript:x' },
        },
      });
      const expected = {
        ...DEFAULT_CUSTOMIZATION,
        foregroundColor: '#3B82F6',
        logo: { url: 'https://example.com/logo.png', size: 40 },
        frame: { enabled: true, text: 'Scan Me', style: 'rounded', color: '#000000' },
      };
      expect(code.customization).toEqual(expected);
      const row = (await findQrRow(t().db, code.id))!;
      expect(storedCustomization(row)).toEqual(expected);
      expect(JSON.stringify(row.customization)).not.toMatch(/onload|evil|onerror|javascript/);
    });

    it('ignores fields a user may not set (userId, id, shortUrl, created, updated)', async () => {
      const me = await signedInUser(t(), 'mass');
      const victim = await signedInUser(t(), 'victim');
      const code = await createCode(t(), me.cookie, {
        userId: victim.user.id,
        user_id: victim.user.id,
        id: 777,
        shortUrl: 'https://evil.example/r/x',
        created: '2000-01-01T00:00:00.000Z',
        updated: '2000-01-01T00:00:00.000Z',
      });
      expect(code.userId).toBe(me.user.id);
      expect(code.id).not.toBe(777);
      // The slug is the owner's to choose (qr.rest.slug.test.ts); the short link is always made from it.
      expect(code.shortUrl).toBe(`${t().config.publicUrl}/r/${code.slug}`);
      expect(code.created).toBe(t().clock.now().toISOString());
      expect((await findQrRow(t().db, code.id))?.user_id).toBe(me.user.id);
    });

    it('treats an unknown type as url: a url payload is stored as type url, anything else is refused', async () => {
      const { cookie } = await signedInUser(t(), 'unknowntype');
      const code = await createCode(t(), cookie, { type: 'banana', content: 'https://example.com' });
      expect(code.type).toBe('url');
      const res = await postCode(t(), cookie, urlBody({ type: 'banana', content: 'javascript:alert(1)' }));
      expect(expectRestError(res, 400).message).toBe(INVALID_URL);
    });

    it('puts the code into the caller’s folder', async () => {
      const { user, cookie } = await signedInUser(t(), 'foldered');
      const folder = await insertFolderRow(t().db, user.id, 'Mine');
      const code = await createCode(t(), cookie, { folderId: folder.id });
      expect(code.folderId).toBe(folder.id);
      const folders = (await call(t().app, 'GET', '/api/folders', { cookie })).json<Folder[]>();
      expect(folders).toEqual([expect.objectContaining({ id: folder.id, qrCodeCount: 1 })]);
    });

    it("answers 404 for another user's folder (or a missing one) and writes nothing", async () => {
      const me = await signedInUser(t(), 'sneaky');
      const owner = await signedInUser(t(), 'folderowner');
      const theirs = await insertFolderRow(t().db, owner.user.id, 'Theirs');
      const foreign = await postCode(t(), me.cookie, urlBody({ folderId: theirs.id }));
      const missing = await postCode(t(), me.cookie, urlBody({ folderId: 999_999 }));
      expect(expectRestError(foreign, 404, 'NOT_FOUND').message).toBe('Folder not found');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('answers 401 when signed out and writes nothing', async () => {
      expectRestError(await postCode(t(), undefined, urlBody()), 401, 'NOT_SIGNED_IN');
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('refuses a cross-origin request with 403 and writes nothing', async () => {
      const { cookie } = await signedInUser(t(), 'csrf');
      const res = await postCode(t(), cookie, urlBody(), { origin: EVIL_ORIGIN });
      expectRestError(res, 403, 'CROSS_SITE_REFUSED');
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('refuses Sec-Fetch-Site: cross-site without an Origin with 403', async () => {
      const { cookie } = await signedInUser(t(), 'csrf2');
      const res = await postCode(t(), cookie, urlBody(), { 'sec-fetch-site': 'cross-site' });
      expectRestError(res, 403);
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });
  });

  describe('POST /api/qr-codes with another PUBLIC_URL', () => {
    const publicUrl = 'http://qr.example.test:8080';
    const t = useTestApp(getDb, { config: { publicUrl } });

    it('builds the short link from PUBLIC_URL, never from the Host header', async () => {
      const { cookie } = await signedInUser(t(), 'publicurl');
      const res = await postCode(t(), cookie, urlBody(), { host: 'evil.example' });
      expect(res.statusCode, res.body).toBe(201);
      const code = res.json<QrCode>();
      expect(code.shortUrl).toBe(`${publicUrl}/r/${code.slug}`);
    });

    it('refuses a dynamic code pointing at this PUBLIC_URL’s short links', async () => {
      const { cookie } = await signedInUser(t(), 'publicself');
      const res = await postCode(t(), cookie, urlBody({ content: `${publicUrl}/r/abcdefg` }));
      expect(expectRestError(res, 400).message).toBe(SELF_LINK);
    });
  });
});
