import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { REDIRECT_EXPORT_FORMATS } from '../../../src/qr/redirect-export.schema.js';
import { insertQrRow } from '../../test/fixtures.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { createCode } from './qr.test-helpers.js';

const PATH = '/api/qr-codes/redirects/export';

/** The CSV's rows (every field is quoted by the export; RFC 4180 doubled quotes). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  const field = /"((?:[^"]|"")*)"(,|\r\n)/gy;
  let row: string[] = [];
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = field.exec(text))) {
    row.push(m[1]!.replace(/""/g, '"'));
    end = field.lastIndex;
    if (m[2] === '\r\n') {
      rows.push(row);
      row = [];
    }
  }
  expect(end, 'the whole file is quoted fields').toBe(text.length);
  return rows;
}

/** What a browser requests after a Location header: the characters RFC 3986 forbids, percent-encoded. */
function asFollowed(location: string): string {
  return location.replace(/[{}|\\^`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

async function exportAs(t: TestApp, cookie: string, format: string) {
  return call(t.app, 'GET', `${PATH}?format=${format}`, { cookie });
}

describeEachDb('QR code REST paths', (getDb) => {
  describe('GET /api/qr-codes/redirects/export', () => {
    const t = useTestApp(getDb);

    it('answers each format as an attachment of the caller’s own redirects', async () => {
      const me = await signedInUser(t(), 'exporter');
      const other = await signedInUser(t(), 'neighbour');
      const menu = await createCode(t(), me.cookie, {
        name: 'Menu, "winter"',
        content: 'https://example.com/menu',
      });
      await createCode(t(), me.cookie, {
        name: 'Static',
        content: 'https://example.com/static',
        isDynamic: false,
      });
      const theirs = await createCode(t(), other.cookie, {
        name: 'Secret',
        content: 'https://secret.example/x',
      });

      const expected = {
        csv: ['text/csv; charset=utf-8; header=present', 'qr-redirects.csv'],
        nginx: ['text/plain; charset=utf-8', 'qr-redirects.nginx.conf'],
        caddy: ['text/plain; charset=utf-8', 'Caddyfile'],
        netlify: ['text/plain; charset=utf-8', '_redirects'],
      } as const;
      for (const format of REDIRECT_EXPORT_FORMATS) {
        const res = await exportAs(t(), me.cookie, format);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe(expected[format][0]);
        expect(res.headers['content-disposition']).toBe(`attachment; filename="${expected[format][1]}"`);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toContain(`/r/${menu.slug}`);
        expect(res.body).toContain('https://example.com/menu');
        expect(res.body).not.toContain(theirs.slug!);
        expect(res.body).not.toContain('secret.example');
        expect(res.body).not.toContain('example.com/static');
      }
      const rows = csvRows((await exportAs(t(), me.cookie, 'csv')).body);
      expect(rows).toEqual([
        ['slug', 'short_url', 'destination', 'name', 'not_exported'],
        [menu.slug, menu.shortUrl, 'https://example.com/menu', 'Menu, "winter"', ''],
      ]);
    });

    it('exports the destination each short link sends today, for every code', async () => {
      const { user, cookie } = await signedInUser(t(), 'agreement', { hasUnlimitedAccess: true });
      const contents = [
        'https://example.com/a;b?c=d&e=$1',
        'https://bücher.example/straße?q=ü#frag',
        'https://example.com/p?q={x}|y^z`w\\v',
        "https://example.com/it's",
        'http://example.com:8080/x%20y',
      ];
      const codes = [];
      for (const content of contents)
        codes.push(await insertQrRow(t().db, { userId: user.id, isDynamic: true, content }));
      // A landing-page code: listed as a comment, never as a redirect.
      const card = await insertQrRow(t().db, {
        userId: user.id,
        isDynamic: true,
        type: 'text',
        content: 'Hello there',
      });
      const rows = csvRows((await exportAs(t(), cookie, 'csv')).body).slice(1);
      expect(rows.map((r) => r[0])).toEqual(codes.map((c) => c.slug));
      for (const [i, code] of codes.entries()) {
        const scan = await call(t().app, 'GET', `/r/${code.slug}`);
        expect(scan.statusCode).toBe(302);
        expect(rows[i]![2]).toBe(asFollowed(String(scan.headers.location)));
        expect(rows[i]![1]).toBe(`${t().config.publicUrl}/r/${code.slug}`);
      }
      const netlify = (await exportAs(t(), cookie, 'netlify')).body;
      expect(netlify).toContain(`# /r/${card.slug} (text): shows a page of this server, not a redirect`);
      expect(netlify).not.toMatch(new RegExp(`^/r/${card.slug}\\s`, 'm'));
    });

    it('carries UTM parameters, notes what a plain redirect cannot do, and leaves password-protected codes out', async () => {
      const { cookie } = await signedInUser(t(), 'smartexport');
      const tagged = await createCode(t(), cookie, {
        name: 'Tagged',
        content: 'https://example.com/shop?ref=print',
        redirectOptions: {
          rules: [{ conditions: [{ kind: 'os', os: ['ios'] }], destination: 'https://apps.apple.com/app' }],
          maxScans: 500,
          utm: { source: '', medium: 'poster', campaign: 'spring', term: '', content: '' },
        },
      });
      const locked = await createCode(t(), cookie, {
        name: 'Locked',
        content: 'https://example.com/members',
        password: 'open sesame',
      });

      // What a scan matching no rule is sent to today, UTM parameters and all.
      const scan = await call(t().app, 'GET', `/r/${tagged.slug}`, {
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0' },
      });
      expect(scan.statusCode).toBe(302);
      expect(String(scan.headers.location)).toContain('utm_campaign=spring');

      const rows = csvRows((await exportAs(t(), cookie, 'csv')).body);
      expect(rows.slice(1)).toEqual([
        [
          tagged.slug,
          tagged.shortUrl,
          String(scan.headers.location),
          'Tagged',
          '1 redirect rule; a limit of 500 scans',
        ],
      ]);
      for (const format of ['nginx', 'caddy', 'netlify']) {
        const body = (await exportAs(t(), cookie, format)).body;
        expect(body).toContain(`# /r/${tagged.slug}: 1 redirect rule, a limit of 500 scans`);
        expect(body).toContain(`# /r/${locked.slug} (url): asks for a password`);
        expect(body).not.toContain('example.com/members');
      }
    });

    it('answers an empty table to a user without dynamic codes', async () => {
      const { cookie } = await signedInUser(t(), 'nocodes');
      const res = await exportAs(t(), cookie, 'csv');
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('"slug","short_url","destination","name","not_exported"\r\n');
      expect((await exportAs(t(), cookie, 'netlify')).body).toContain('0 dynamic code(s)');
    });

    it.each([
      ['xlsx', `${PATH}?format=xlsx`],
      ['no format', PATH],
      ['two formats', `${PATH}?format=csv&format=nginx`],
    ])('answers 400 naming the field for %s', async (_n, url) => {
      const { cookie } = await signedInUser(t(), 'badformat');
      const body = expectRestError(await call(t().app, 'GET', url, { cookie }), 400, 'VALIDATION_FAILED');
      expect(body.message).toBe('format must be one of csv, nginx, caddy, netlify');
      expect(body.issues?.map((i) => i.path)).toEqual(['format']);
    });

    it('answers 401 when signed out', async () => {
      expectRestError(await call(t().app, 'GET', `${PATH}?format=csv`), 401, 'NOT_SIGNED_IN');
    });

    it('leaves /api/qr-codes/{id} to ids', async () => {
      const { cookie } = await signedInUser(t(), 'routes');
      const code = await createCode(t(), cookie);
      const byId = await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie });
      expect(byId.json<QrCode>().id).toBe(code.id);
      expectRestError(
        await call(t().app, 'GET', '/api/qr-codes/redirects', { cookie }),
        400,
        'VALIDATION_FAILED',
      );
    });
  });
});
