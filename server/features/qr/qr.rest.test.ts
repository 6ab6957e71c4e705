import { describe, expect, it } from 'vitest';
import { PRO_PLAN_LIMIT } from '../../../src/plans.js';
import { encodeContent } from '../../../src/qr/content.js';
import type { QrType } from '../../../src/qr/qr-types.js';
import type { Folder, QrCode } from '../../../src/qr/qr.schema.js';
import {
  EVIL_ORIGIN,
  ISO_UTC,
  call,
  expectRestError,
  findQrRow,
  insertFolderRow,
  insertManyQrRows,
  insertQrRow,
  insertScans,
  signedInUser,
  storedCustomization,
  type PlanFields,
} from '../../test/qr-fixtures.js';
import { useTestApp, type Response, type TestApp } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';

const DEFAULT_CUSTOMIZATION = {
  foregroundColor: '#000000',
  backgroundColor: '#FFFFFF',
  errorCorrectionLevel: 'M',
  style: 'square',
};
const SLUG = /^[A-Za-z0-9_-]{6,8}$/;
const DAY = 86_400_000;

const STATIC_EDIT = /static/i;
const TYPE_CHANGE = 'The type of a QR code cannot be changed';
const SELF_LINK = 'A dynamic QR code cannot point to its own short link';
const INVALID_URL = 'Must be a valid URL';

interface CodeBody {
  name?: unknown;
  type?: unknown;
  content?: unknown;
  isDynamic?: unknown;
  customization?: unknown;
  folderId?: unknown;
  [key: string]: unknown;
}

function urlBody(overrides: CodeBody = {}): CodeBody {
  return {
    name: 'Landing page',
    type: 'url',
    content: 'https://example.com/landing',
    isDynamic: true,
    ...overrides,
  };
}

function postCode(t: TestApp, cookie: string | undefined, body: unknown, headers?: Record<string, string>) {
  return call(t.app, 'POST', '/api/qr-codes', {
    ...(cookie ? { cookie } : {}),
    json: body,
    ...(headers ? { headers } : {}),
  });
}

/** POST /api/qr-codes that must succeed. */
async function createCode(t: TestApp, cookie: string, body: CodeBody = {}): Promise<QrCode> {
  const res = await postCode(t, cookie, urlBody(body));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<QrCode>();
}

/** The rows a request could have written or changed. */
async function snapshot(t: TestApp) {
  return {
    codes: (await t.db.selectFrom('qr_codes').selectAll().orderBy('id').execute()).map((r) => ({
      ...r,
      customization: storedCustomization(r),
    })),
    scans: await countRows(t.db, 'qr_scans'),
    folders: await countRows(t.db, 'folders'),
  };
}

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

const badIds: [string, string][] = [
  ['abc', 'Id must be a number'],
  ['1.5', 'Id must be a whole number'],
  ['0', 'Id must be a positive number'],
  ['-4', 'Id must be a positive number'],
  ['99999999999', 'Id is too large'],
];

describeEachDb('QR code REST paths', (getDb) => {
  describe('GET /api/qr-codes', () => {
    const t = useTestApp(getDb);

    it('lists only the caller’s codes, newest first', async () => {
      const me = await signedInUser(t(), 'lister');
      const other = await signedInUser(t(), 'other');
      const first = await createCode(t(), me.cookie, { name: 'First' });
      t().clock.advance(1_000);
      await createCode(t(), other.cookie, { name: 'Not mine' });
      t().clock.advance(1_000);
      const second = await createCode(t(), me.cookie, { name: 'Second', isDynamic: false });
      t().clock.advance(1_000);
      const third = await createCode(t(), me.cookie, { name: 'Third' });

      const res = await call(t().app, 'GET', '/api/qr-codes', { cookie: me.cookie });
      expect(res.statusCode).toBe(200);
      const list = res.json<QrCode[]>();
      expect(list.map((c) => c.name)).toEqual(['Third', 'Second', 'First']);
      expect(list).toEqual([third, second, first]);
      expect(res.body).not.toContain('Not mine');
    });

    it('orders codes created at the same instant by id, newest first', async () => {
      const me = await signedInUser(t(), 'sameinstant');
      const created = '2026-01-01T00:00:00.000Z';
      const a = await insertQrRow(t().db, { userId: me.user.id, created });
      const b = await insertQrRow(t().db, { userId: me.user.id, created });
      const list = (await call(t().app, 'GET', '/api/qr-codes', { cookie: me.cookie })).json<QrCode[]>();
      expect(list.map((c) => c.id)).toEqual([b.id, a.id]);
    });

    it('answers an empty list for a user without codes', async () => {
      const { cookie } = await signedInUser(t(), 'empty');
      const res = await call(t().app, 'GET', '/api/qr-codes', { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });

    it('answers 401 when signed out', async () => {
      expectRestError(await call(t().app, 'GET', '/api/qr-codes'), 401, 'UNAUTHORIZED');
    });
  });

  describe('GET /api/qr-codes/{id}', () => {
    const t = useTestApp(getDb);

    it('answers 200 with the caller’s code, as POST answered it', async () => {
      const { cookie } = await signedInUser(t(), 'getter');
      const code = await createCode(t(), cookie, { customization: { style: 'dots' } });
      const res = await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(code);
    });

    it("answers 404 for another user's code, with the same body as for a missing id", async () => {
      const me = await signedInUser(t(), 'curious');
      const owner = await signedInUser(t(), 'owner');
      const theirs = await createCode(t(), owner.cookie, {
        name: 'Private name',
        content: 'https://secret.example',
      });
      const foreign = await call(t().app, 'GET', `/api/qr-codes/${theirs.id}`, { cookie: me.cookie });
      const missing = await call(t().app, 'GET', '/api/qr-codes/424242', { cookie: me.cookie });
      expect(expectRestError(foreign, 404, 'NOT_FOUND').message).toBe('QR code not found');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(foreign.body).not.toMatch(/Private name|secret\.example/);
    });

    it.each(badIds)('answers 400 for the id %s (%s)', async (id, message) => {
      const { cookie } = await signedInUser(t(), 'badid');
      const res = await call(t().app, 'GET', `/api/qr-codes/${id}`, { cookie });
      expect(expectRestError(res, 400, 'BAD_REQUEST').message).toBe(message);
    });

    it('answers 401 when signed out', async () => {
      const { cookie } = await signedInUser(t(), 'signedout');
      const code = await createCode(t(), cookie);
      expectRestError(await call(t().app, 'GET', `/api/qr-codes/${code.id}`), 401, 'UNAUTHORIZED');
    });
  });

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
        created: now,
        updated: now,
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
        const body = expectRestError(res, 400, 'BAD_REQUEST');
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
      expect(expectRestError(res, 400, 'BAD_REQUEST').message).toBe(SELF_LINK);
      expect(await snapshot(t())).toEqual(before);
    });

    it.each(invalidBodies)('refuses $name with 400 and writes nothing', async (c) => {
      const { cookie } = await signedInUser(t(), 'badbody');
      const res = await postCode(t(), cookie, c.body);
      const body = expectRestError(res, 400, 'BAD_REQUEST');
      expect(body.message).toContain(c.message);
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('lists every invalid field in issues', async () => {
      const { cookie } = await signedInUser(t(), 'issues');
      const res = await postCode(t(), cookie, { name: '', type: 'url', content: 42 });
      const body = expectRestError(res, 400, 'BAD_REQUEST');
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
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/qr-codes',
        payload,
        headers: { 'content-type': contentType },
        cookies: { qr_session: cookie },
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

    it('ignores fields a user may not set (userId, id, slug, shortUrl, created, updated)', async () => {
      const me = await signedInUser(t(), 'mass');
      const victim = await signedInUser(t(), 'victim');
      const code = await createCode(t(), me.cookie, {
        userId: victim.user.id,
        user_id: victim.user.id,
        id: 777,
        slug: 'chosen1',
        shortUrl: 'https://evil.example/r/x',
        created: '2000-01-01T00:00:00.000Z',
        updated: '2000-01-01T00:00:00.000Z',
      });
      expect(code.userId).toBe(me.user.id);
      expect(code.id).not.toBe(777);
      expect(code.slug).not.toBe('chosen1');
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
      expectRestError(await postCode(t(), undefined, urlBody()), 401, 'UNAUTHORIZED');
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('refuses a cross-origin request with 403 and writes nothing', async () => {
      const { cookie } = await signedInUser(t(), 'csrf');
      const res = await postCode(t(), cookie, urlBody(), { origin: EVIL_ORIGIN });
      expectRestError(res, 403, 'FORBIDDEN');
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

  describe('POST /api/qr-codes plan limits', () => {
    const t = useTestApp(getDb);

    /** The exact 403 of the plan limit; nothing is written. */
    async function expectLimit(res: Response, count: number, max: number) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({
        message: expect.stringContaining('QR code limit reached') as string,
        code: 'FORBIDDEN',
        limitReached: true,
        currentCount: count,
        maxCount: max,
      });
      expect(await countRows(t().db, 'qr_codes')).toBe(count);
    }

    it('lets a free user create 3 codes (FREE_PLAN_LIMIT default), then answers 403 with the counts', async () => {
      expect(t().config.freePlanLimit).toBe(3);
      const { cookie } = await signedInUser(t(), 'free');
      await createCode(t(), cookie);
      await createCode(t(), cookie, { isDynamic: false });
      await createCode(t(), cookie);
      await expectLimit(await postCode(t(), cookie, urlBody()), 3, 3);
      // A static code counts as much as a dynamic one.
      await expectLimit(await postCode(t(), cookie, urlBody({ isDynamic: false })), 3, 3);
    });

    it('counts only the caller’s own codes', async () => {
      const other = await signedInUser(t(), 'busy');
      await insertManyQrRows(t().db, other.user.id, 5);
      const { cookie } = await signedInUser(t(), 'fresh');
      await createCode(t(), cookie);
    });

    it('frees a place when a code is deleted', async () => {
      const { user, cookie } = await signedInUser(t(), 'deleter');
      await insertManyQrRows(t().db, user.id, 3);
      await expectLimit(await postCode(t(), cookie, urlBody()), 3, 3);
      const [code] = (await call(t().app, 'GET', '/api/qr-codes', { cookie })).json<QrCode[]>();
      expect((await call(t().app, 'DELETE', `/api/qr-codes/${code!.id}`, { cookie })).statusCode).toBe(200);
      await createCode(t(), cookie);
    });

    it('holds the limit when several creations arrive at once', async () => {
      const { cookie } = await signedInUser(t(), 'racer');
      const results = await Promise.all(Array.from({ length: 6 }, () => postCode(t(), cookie, urlBody())));
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 201, 201, 403, 403, 403]);
      expect(await countRows(t().db, 'qr_codes')).toBe(3);
    });

    it.each([
      ['pro with an end date in the future', { subscriptionTier: 'pro', subscriptionEndDate: '+' }],
      ['pro without an end date', { subscriptionTier: 'pro', subscriptionEndDate: null }],
    ] as const)('lets a %s create up to 100 codes, then answers 403 maxCount 100', async (_n, plan) => {
      const { user, cookie } = await signedInUser(t(), 'pro', {
        ...plan,
        subscriptionEndDate:
          plan.subscriptionEndDate === '+'
            ? new Date(t().clock.now().getTime() + 30 * DAY).toISOString()
            : null,
      });
      await insertManyQrRows(t().db, user.id, PRO_PLAN_LIMIT - 1);
      await createCode(t(), cookie);
      await expectLimit(await postCode(t(), cookie, urlBody()), PRO_PLAN_LIMIT, PRO_PLAN_LIMIT);
    });

    it('lets pro go past the free limit', async () => {
      const { user, cookie } = await signedInUser(t(), 'pro4', {
        subscriptionTier: 'pro',
        subscriptionEndDate: new Date(t().clock.now().getTime() + DAY).toISOString(),
      });
      await insertManyQrRows(t().db, user.id, 3);
      const code = await createCode(t(), cookie);
      expect(code.userId).toBe(user.id);
      expect(await countRows(t().db, 'qr_codes')).toBe(4);
    });

    it.each([
      ['pro', 'pro' as const],
      ['premium', 'premium' as const],
    ])('counts an expired %s subscription as free', async (_n, tier) => {
      const { user, cookie } = await signedInUser(t(), `expired${tier}`, {
        subscriptionTier: tier,
        subscriptionEndDate: new Date(t().clock.now().getTime() - DAY).toISOString(),
      });
      await insertManyQrRows(t().db, user.id, 3);
      await expectLimit(await postCode(t(), cookie, urlBody()), 3, 3);
    });

    it('falls back to the free limit once the clock passes the pro end date', async () => {
      const { user, cookie } = await signedInUser(t(), 'lapsing', {
        subscriptionTier: 'pro',
        subscriptionEndDate: new Date(t().clock.now().getTime() + DAY).toISOString(),
      });
      await insertManyQrRows(t().db, user.id, 3);
      await createCode(t(), cookie);
      t().clock.advance(2 * DAY);
      await expectLimit(await postCode(t(), cookie, urlBody()), 4, 3);
    });

    it.each<[string, PlanFields]>([
      ['premium', { subscriptionTier: 'premium', subscriptionEndDate: 'future' }],
      ['premium without an end date', { subscriptionTier: 'premium', subscriptionEndDate: null }],
      ['has_unlimited_access', { hasUnlimitedAccess: true }],
      ['is_admin', { isAdmin: true }],
      [
        'has_unlimited_access with an expired pro plan',
        { hasUnlimitedAccess: true, subscriptionTier: 'pro', subscriptionEndDate: 'past' },
      ],
    ])('sets no limit for %s', async (_n, plan) => {
      const now = t().clock.now().getTime();
      const end =
        plan.subscriptionEndDate === 'future'
          ? new Date(now + 30 * DAY).toISOString()
          : plan.subscriptionEndDate === 'past'
            ? new Date(now - DAY).toISOString()
            : plan.subscriptionEndDate;
      const { user, cookie } = await signedInUser(t(), 'unlimited', {
        ...plan,
        ...(end !== undefined ? { subscriptionEndDate: end } : {}),
      });
      await insertManyQrRows(t().db, user.id, PRO_PLAN_LIMIT + 5);
      await createCode(t(), cookie);
      expect(await countRows(t().db, 'qr_codes')).toBe(PRO_PLAN_LIMIT + 6);
    });
  });

  describe('POST /api/qr-codes with FREE_PLAN_LIMIT=1', () => {
    const t = useTestApp(getDb, { config: { freePlanLimit: 1 } });

    it('uses the configured limit', async () => {
      const { cookie } = await signedInUser(t(), 'one');
      await createCode(t(), cookie);
      const res = await postCode(t(), cookie, urlBody());
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: expect.stringContaining('QR code limit reached') as string,
        code: 'FORBIDDEN',
        limitReached: true,
        currentCount: 1,
        maxCount: 1,
      });
      expect(await countRows(t().db, 'qr_codes')).toBe(1);
    });

    it('does not lower the pro limit', async () => {
      const { user, cookie } = await signedInUser(t(), 'prouser', {
        subscriptionTier: 'pro',
        subscriptionEndDate: new Date(t().clock.now().getTime() + DAY).toISOString(),
      });
      await insertManyQrRows(t().db, user.id, 5);
      await createCode(t(), cookie);
    });
  });

  describe('POST /api/qr-codes with FREE_PLAN_LIMIT=0', () => {
    const t = useTestApp(getDb, { config: { freePlanLimit: 0 } });

    it('refuses the first code of a free user', async () => {
      const { cookie } = await signedInUser(t(), 'zero');
      const res = await postCode(t(), cookie, urlBody());
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ limitReached: true, currentCount: 0, maxCount: 0 });
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });
  });

  describe('PUT /api/qr-codes/{id}', () => {
    const t = useTestApp(getDb);

    function put(
      id: number | string,
      cookie: string | undefined,
      json: unknown,
      headers?: Record<string, string>,
    ) {
      return call(t().app, 'PUT', `/api/qr-codes/${id}`, {
        ...(cookie ? { cookie } : {}),
        json,
        ...(headers ? { headers } : {}),
      });
    }

    it('changes name, content and customization of a dynamic code: 200 with a later `updated`', async () => {
      const { cookie } = await signedInUser(t(), 'editor');
      const code = await createCode(t(), cookie);
      t().clock.advance(60_000);
      const res = await put(code.id, cookie, {
        name: 'Renamed',
        content: 'https://example.com/new-destination',
        customization: { foregroundColor: '#8B5CF6', style: 'dots' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const updated = res.json<QrCode>();
      expect(updated).toEqual({
        ...code,
        name: 'Renamed',
        content: 'https://example.com/new-destination',
        customization: { ...DEFAULT_CUSTOMIZATION, foregroundColor: '#8B5CF6', style: 'dots' },
        updated: t().clock.now().toISOString(),
      });
      expect(Date.parse(updated.updated)).toBeGreaterThan(Date.parse(code.updated));
      // The short link stays: printed codes keep working.
      expect(updated.slug).toBe(code.slug);
      expect(updated.shortUrl).toBe(code.shortUrl);
      expect((await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie })).json()).toEqual(updated);
    });

    it('accepts the whole create body with the same type and kind', async () => {
      const { cookie } = await signedInUser(t(), 'fullbody');
      const content = encodeContent('wifi', { ssid: 'Office', password: 'pw-1', encryption: 'WPA' });
      const code = await createCode(t(), cookie, { type: 'wifi', content, name: 'Wi-Fi' });
      const next = encodeContent('wifi', { ssid: 'Office 2', password: 'pw-2', encryption: 'WEP' });
      const res = await put(code.id, cookie, {
        name: 'Wi-Fi 2',
        type: 'wifi',
        content: next,
        isDynamic: true,
        customization: {},
        folderId: null,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<QrCode>()).toMatchObject({ name: 'Wi-Fi 2', type: 'wifi', content: next });
    });

    it('changes only what was sent', async () => {
      const { cookie } = await signedInUser(t(), 'partialput');
      const code = await createCode(t(), cookie, { customization: { foregroundColor: '#10B981' } });
      const res = await put(code.id, cookie, { name: 'Only the name' });
      expect(res.statusCode).toBe(200);
      const updated = res.json<QrCode>();
      expect(updated.name).toBe('Only the name');
      expect(updated.content).toBe(code.content);
      expect(updated.customization).toEqual(code.customization);
    });

    it('refuses to edit a static code: 403 with a clear message, nothing changes', async () => {
      const { cookie } = await signedInUser(t(), 'staticedit');
      const code = await createCode(t(), cookie, { isDynamic: false });
      const before = await snapshot(t());
      const res = await put(code.id, cookie, { name: 'Changed', content: 'https://example.com/changed' });
      const body = expectRestError(res, 403, 'FORBIDDEN');
      expect(body.message).toMatch(STATIC_EDIT);
      expect(body.limitReached).toBeUndefined();
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses a type change with 400, nothing changes', async () => {
      const { cookie } = await signedInUser(t(), 'typechange');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      const res = await put(code.id, cookie, { type: 'text', content: 'Just text' });
      expect(expectRestError(res, 400, 'BAD_REQUEST').message).toBe(TYPE_CHANGE);
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses to turn a dynamic code static with 400', async () => {
      const { cookie } = await signedInUser(t(), 'kindchange');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      expectRestError(await put(code.id, cookie, { isDynamic: false }), 400, 'BAD_REQUEST');
      expect(await snapshot(t())).toEqual(before);
    });

    it.each([
      ['javascript: content', { content: 'javascript:alert(1)' }, INVALID_URL],
      ['data: content', { content: 'data:text/html,<script>alert(1)</script>' }, INVALID_URL],
      ['empty content', { content: '' }, 'Content is required'],
      ['a blank name', { name: '  ' }, 'Name is required'],
      ['a 10 kB name', { name: 'n'.repeat(10 * 1024) }, 'Name must be at most 100'],
      [
        'an invalid colour',
        { customization: { foregroundColor: 'blue' } },
        'Foreground colour must be a colour',
      ],
      ['a JSON array body', [{ name: 'x' }], 'Request body must be a JSON object'],
    ])('refuses %s with 400, nothing changes', async (_n, json, message) => {
      const { cookie } = await signedInUser(t(), 'invalidput');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      const res = await put(code.id, cookie, json);
      expect(expectRestError(res, 400, 'BAD_REQUEST').message).toContain(message);
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses content that is invalid for the code’s own type (wifi without SSID)', async () => {
      const { cookie } = await signedInUser(t(), 'wifiput');
      const content = encodeContent('wifi', { ssid: 'Office', password: 'pw', encryption: 'WPA' });
      const code = await createCode(t(), cookie, { type: 'wifi', content });
      const before = await snapshot(t());
      const res = await put(code.id, cookie, {
        content: encodeContent('wifi', { ssid: '', encryption: 'WPA' }),
      });
      expect(expectRestError(res, 400).message).toBe('Network name (SSID) is required');
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses pointing the code at its own short link', async () => {
      const { cookie } = await signedInUser(t(), 'selfput');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      const res = await put(code.id, cookie, { content: code.shortUrl });
      expect(expectRestError(res, 400).message).toBe(SELF_LINK);
      expect(await snapshot(t())).toEqual(before);
    });

    it("answers 404 for another user's code, like a missing one, and changes nothing", async () => {
      const me = await signedInUser(t(), 'intruder');
      const owner = await signedInUser(t(), 'owner');
      const theirs = await createCode(t(), owner.cookie);
      const before = await snapshot(t());
      const foreign = await put(theirs.id, me.cookie, { name: 'Hijacked', content: 'https://evil.example' });
      const missing = await put(987_654, me.cookie, { name: 'Hijacked' });
      expectRestError(foreign, 404, 'NOT_FOUND');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(await snapshot(t())).toEqual(before);
    });

    it('edits the code of the path, whatever id or userId the body names', async () => {
      const me = await signedInUser(t(), 'pathwins');
      const owner = await signedInUser(t(), 'owner2');
      const mine = await createCode(t(), me.cookie);
      const theirs = await createCode(t(), owner.cookie, { name: 'Theirs' });
      const res = await put(mine.id, me.cookie, {
        id: theirs.id,
        userId: owner.user.id,
        name: 'Mine renamed',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<QrCode>()).toMatchObject({ id: mine.id, userId: me.user.id, name: 'Mine renamed' });
      expect((await findQrRow(t().db, theirs.id))?.name).toBe('Theirs');
      expect((await findQrRow(t().db, mine.id))?.user_id).toBe(me.user.id);
    });

    it("answers 404 when moving through PUT into another user's folder", async () => {
      const me = await signedInUser(t(), 'putfolder');
      const owner = await signedInUser(t(), 'owner3');
      const theirs = await insertFolderRow(t().db, owner.user.id);
      const code = await createCode(t(), me.cookie);
      const before = await snapshot(t());
      expectRestError(await put(code.id, me.cookie, { folderId: theirs.id }), 404, 'NOT_FOUND');
      expect(await snapshot(t())).toEqual(before);
    });

    it.each(badIds)('answers 400 for the id %s', async (id, message) => {
      const { cookie } = await signedInUser(t(), 'badputid');
      const res = await put(id, cookie, { name: 'x' });
      expect(expectRestError(res, 400, 'BAD_REQUEST').message).toBe(message);
    });

    it('answers 401 when signed out, nothing changes', async () => {
      const { cookie } = await signedInUser(t(), 'putout');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      expectRestError(await put(code.id, undefined, { name: 'x' }), 401, 'UNAUTHORIZED');
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses a cross-origin request with 403, nothing changes', async () => {
      const { cookie } = await signedInUser(t(), 'putcsrf');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      const res = await put(
        code.id,
        cookie,
        { content: 'https://evil.example/phish' },
        { origin: EVIL_ORIGIN },
      );
      expectRestError(res, 403, 'FORBIDDEN');
      expect(await snapshot(t())).toEqual(before);
    });
  });

  describe('PATCH /api/qr-codes/{id}', () => {
    const t = useTestApp(getDb);

    function patch(
      id: number | string,
      cookie: string | undefined,
      json: unknown,
      headers?: Record<string, string>,
    ) {
      return call(t().app, 'PATCH', `/api/qr-codes/${id}`, {
        ...(cookie ? { cookie } : {}),
        json,
        ...(headers ? { headers } : {}),
      });
    }

    it('moves a code into the caller’s folder and back to the root (null)', async () => {
      const { user, cookie } = await signedInUser(t(), 'mover');
      const folder = await insertFolderRow(t().db, user.id, 'Target');
      const code = await createCode(t(), cookie);

      const moved = await patch(code.id, cookie, { folderId: folder.id });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json<QrCode>()).toMatchObject({ id: code.id, folderId: folder.id, name: code.name });
      expect((await findQrRow(t().db, code.id))?.folder_id).toBe(folder.id);
      const folders = (await call(t().app, 'GET', '/api/folders', { cookie })).json<Folder[]>();
      expect(folders[0]?.qrCodeCount).toBe(1);

      const back = await patch(code.id, cookie, { folderId: null });
      expect(back.statusCode).toBe(200);
      expect(back.json<QrCode>().folderId).toBeNull();
      expect((await findQrRow(t().db, code.id))?.folder_id).toBeNull();
    });

    it('moves static codes too (moving is not editing)', async () => {
      const { user, cookie } = await signedInUser(t(), 'staticmover');
      const folder = await insertFolderRow(t().db, user.id);
      const code = await createCode(t(), cookie, { isDynamic: false });
      const res = await patch(code.id, cookie, { folderId: folder.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<QrCode>()).toMatchObject({
        folderId: folder.id,
        isDynamic: false,
        content: code.content,
      });
    });

    it('changes nothing but the folder, even when the body names other fields', async () => {
      const { user, cookie } = await signedInUser(t(), 'onlyfolder');
      const folder = await insertFolderRow(t().db, user.id);
      const code = await createCode(t(), cookie, { isDynamic: false });
      const res = await patch(code.id, cookie, {
        folderId: folder.id,
        name: 'Sneaky rename',
        content: 'https://evil.example',
        type: 'text',
      });
      expect(res.statusCode).toBe(200);
      const row = (await findQrRow(t().db, code.id))!;
      expect(row.name).toBe(code.name);
      expect(row.content).toBe(code.content);
      expect(row.type).toBe('url');
      expect(row.folder_id).toBe(folder.id);
    });

    it("answers 404 for another user's folder (or a missing one), the code stays where it was", async () => {
      const me = await signedInUser(t(), 'patchintruder');
      const owner = await signedInUser(t(), 'folderowner');
      const theirs = await insertFolderRow(t().db, owner.user.id);
      const code = await createCode(t(), me.cookie);
      const before = await snapshot(t());
      const foreign = await patch(code.id, me.cookie, { folderId: theirs.id });
      const missing = await patch(code.id, me.cookie, { folderId: 999_999 });
      expect(expectRestError(foreign, 404, 'NOT_FOUND').message).toBe('Folder not found');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(await snapshot(t())).toEqual(before);
    });

    it("answers 404 for another user's code, even into the caller's own folder", async () => {
      const me = await signedInUser(t(), 'codethief');
      const owner = await signedInUser(t(), 'codeowner');
      const mine = await insertFolderRow(t().db, me.user.id);
      const theirs = await createCode(t(), owner.cookie);
      const before = await snapshot(t());
      expectRestError(await patch(theirs.id, me.cookie, { folderId: mine.id }), 404, 'NOT_FOUND');
      expect(await snapshot(t())).toEqual(before);
    });

    it.each([
      ['no folderId', {}, 'folderId is required (null for the root)'],
      ['folderId as a string', { folderId: '3' }, 'Folder must be a folder id or null'],
      ['folderId 0', { folderId: 0 }, 'Folder must be a folder id or null'],
      // Any 400 will do here: the array is refused one way or another and nothing moves.
      ['a JSON array body', [{ folderId: null }], /JSON object|folderId is required/],
    ] as [string, unknown, string | RegExp][])(
      'refuses %s with 400, nothing changes',
      async (_n, json, message) => {
        const { user, cookie } = await signedInUser(t(), 'badpatch');
        const folder = await insertFolderRow(t().db, user.id);
        const code = await createCode(t(), cookie, { folderId: folder.id });
        const before = await snapshot(t());
        const res = await patch(code.id, cookie, json);
        expect(expectRestError(res, 400, 'BAD_REQUEST').message).toMatch(message);
        expect(await snapshot(t())).toEqual(before);
      },
    );

    it.each(badIds)('answers 400 for the id %s', async (id, message) => {
      const { cookie } = await signedInUser(t(), 'badpatchid');
      const res = await patch(id, cookie, { folderId: null });
      expect(expectRestError(res, 400, 'BAD_REQUEST').message).toBe(message);
    });

    it('answers 401 when signed out and refuses a cross-origin move with 403', async () => {
      const { user, cookie } = await signedInUser(t(), 'patchguard');
      const folder = await insertFolderRow(t().db, user.id);
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      expectRestError(await patch(code.id, undefined, { folderId: folder.id }), 401, 'UNAUTHORIZED');
      expectRestError(await patch(code.id, cookie, { folderId: folder.id }, { origin: EVIL_ORIGIN }), 403);
      expect(await snapshot(t())).toEqual(before);
    });
  });

  describe('DELETE /api/qr-codes/{id}', () => {
    const t = useTestApp(getDb);

    function del(id: number | string, cookie?: string, headers?: Record<string, string>) {
      return call(t().app, 'DELETE', `/api/qr-codes/${id}`, {
        ...(cookie ? { cookie } : {}),
        ...(headers ? { headers } : {}),
      });
    }

    it('deletes the code and its scans; other codes and their scans stay', async () => {
      const { cookie } = await signedInUser(t(), 'remover');
      const doomed = await createCode(t(), cookie);
      const kept = await createCode(t(), cookie, { name: 'Kept' });
      await insertScans(t().db, doomed.id, 4);
      await insertScans(t().db, kept.id, 2);

      const res = await del(doomed.id, cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: expect.any(String) as string });
      expect(await findQrRow(t().db, doomed.id)).toBeUndefined();
      expect(
        await t().db.selectFrom('qr_scans').select('id').where('qr_code_id', '=', doomed.id).execute(),
      ).toEqual([]);
      expect(await findQrRow(t().db, kept.id)).toBeDefined();
      expect(await countRows(t().db, 'qr_scans')).toBe(2);
      expectRestError(await call(t().app, 'GET', `/api/qr-codes/${doomed.id}`, { cookie }), 404);
    });

    it('deletes a static code', async () => {
      const { cookie } = await signedInUser(t(), 'staticdel');
      const code = await createCode(t(), cookie, { isDynamic: false });
      expect((await del(code.id, cookie)).statusCode).toBe(200);
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it("answers 404 for another user's code, like a missing one, and deletes nothing", async () => {
      const me = await signedInUser(t(), 'vandal');
      const owner = await signedInUser(t(), 'owner');
      const theirs = await createCode(t(), owner.cookie);
      await insertScans(t().db, theirs.id, 3);
      const before = await snapshot(t());
      const foreign = await del(theirs.id, me.cookie);
      const missing = await del(123_456, me.cookie);
      expectRestError(foreign, 404, 'NOT_FOUND');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(await snapshot(t())).toEqual(before);
    });

    it('answers 404 the second time', async () => {
      const { cookie } = await signedInUser(t(), 'twice');
      const code = await createCode(t(), cookie);
      expect((await del(code.id, cookie)).statusCode).toBe(200);
      expectRestError(await del(code.id, cookie), 404, 'NOT_FOUND');
    });

    it.each(badIds)('answers 400 for the id %s', async (id, message) => {
      const { cookie } = await signedInUser(t(), 'baddelid');
      await createCode(t(), cookie);
      expect(expectRestError(await del(id, cookie), 400, 'BAD_REQUEST').message).toBe(message);
      expect(await countRows(t().db, 'qr_codes')).toBe(1);
    });

    it('answers 401 when signed out and refuses a cross-origin delete with 403; nothing is deleted', async () => {
      const { cookie } = await signedInUser(t(), 'delguard');
      const code = await createCode(t(), cookie);
      await insertScans(t().db, code.id, 2);
      const before = await snapshot(t());
      expectRestError(await del(code.id), 401, 'UNAUTHORIZED');
      expectRestError(await del(code.id, cookie, { origin: EVIL_ORIGIN }), 403, 'FORBIDDEN');
      expectRestError(await del(code.id, cookie, { 'sec-fetch-site': 'cross-site' }), 403);
      expect(await snapshot(t())).toEqual(before);
    });
  });
  describe('GET /api/qr-codes/{id}/image', () => {
    const t = useTestApp(getDb);

    it('names the image after the code, with an ASCII fallback', async () => {
      const { cookie } = await signedInUser(t(), 'imagename');
      const code = await createCode(t(), cookie, { name: 'Café Menü' });
      for (const format of ['png', 'svg'] as const) {
        const res = await call(t().app, 'GET', `/api/qr-codes/${code.id}/image?format=${format}&size=128`, {
          cookie,
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-disposition']).toBe(
          `inline; filename="qrcode-${code.id}.${format}"; filename*=UTF-8''cafe-menu.${format}`,
        );
      }
    });
  });
});
