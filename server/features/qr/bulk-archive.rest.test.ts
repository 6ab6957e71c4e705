import { JSDOM } from 'jsdom';
import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { BulkCreateAnswer } from '../../../src/qr/bulk.js';
import { insertQrRow } from '../../test/fixtures.js';
import { decodeQr } from '../../test/qr-decode.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';

const PATH = '/api/qr-codes/archive';

/** Control, format (bidi overrides, zero-width) and separator characters, and lone surrogates. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

function archive(t: TestApp, cookie: string, body: unknown) {
  return call(t.app, 'POST', PATH, { cookie, json: body });
}

/** The archive's files, checked to be a ZIP attachment. */
async function files(t: TestApp, cookie: string, body: unknown): Promise<Record<string, Uint8Array>> {
  const res = await archive(t, cookie, body);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  expect(res.headers['content-disposition']).toBe('attachment; filename="qr-codes.zip"');
  expect(res.headers['cache-control']).toBe('no-store');
  return unzipSync(new Uint8Array(res.rawPayload));
}

/** The CSV's rows (quoted fields as RFC 4180 writes them). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  const field = /(?:"((?:[^"]|"")*)"|([^",\r\n]*))(,|\r\n)/gy;
  let row: string[] = [];
  let m: RegExpExecArray | null;
  while ((m = field.exec(text))) {
    row.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!);
    if (m[3] === '\r\n') {
      rows.push(row);
      row = [];
    }
    if (field.lastIndex === text.length) break;
  }
  expect(rows.flat().length).toBeGreaterThan(0);
  return rows;
}

describeOnSqlite('bulk creation REST paths', (getDb) => {
  describe('POST /api/qr-codes/archive', () => {
    const t = useTestApp(getDb);

    async function fiveCodes() {
      const me = await signedInUser(t(), 'archivist', { subscriptionTier: 'premium' });
      const res = await call(t().app, 'POST', '/api/qr-codes/bulk', {
        cookie: me.cookie,
        json: {
          codes: [
            { name: 'Menu/Drinks', type: 'url', content: 'https://example.com/menu', isDynamic: true },
            { name: 'Flyer', type: 'url', content: 'https://example.com/flyer-a' },
            { name: 'flyer', type: 'url', content: 'https://example.com/flyer-b', isDynamic: true },
            { name: 'Guest Wi-Fi', type: 'wifi', content: 'WIFI:T:WPA;S:Guests;P:welcome;;' },
            { name: '=SUM(A1)', type: 'text', content: 'Hello, "world"' },
          ],
          customization: { foregroundColor: '#1A237E' },
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { ...me, created: res.json<BulkCreateAnswer>().created };
    }

    it('answers a ZIP of PNGs named after the codes, each scanning to its content or short link, and codes.csv', async () => {
      const { cookie, created } = await fiveCodes();
      const zip = await files(t(), cookie, { ids: created.map((c) => c.id) });
      expect(Object.keys(zip)).toEqual([
        'codes.csv',
        'Menu-Drinks.png',
        'Flyer.png',
        'flyer (2).png',
        'Guest Wi-Fi.png',
        '=SUM(A1).png',
      ]);
      const contents = [
        created[0]!.shortUrl!,
        'https://example.com/flyer-a',
        created[2]!.shortUrl!,
        'WIFI:T:WPA;S:Guests;P:welcome;;',
        'Hello, "world"',
      ];
      const names = Object.keys(zip).slice(1);
      for (const [i, name] of names.entries()) {
        const png = Buffer.from(zip[name]!);
        expect(png.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
        // 512 px by default, as the downloads.
        expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
        expect(await decodeQr(png), name).toEqual([contents[i]]);
      }
      expect(csvRows(strFromU8(zip['codes.csv']!))).toEqual([
        ['id', 'name', 'short_url'],
        [String(created[0]!.id), 'Menu/Drinks', created[0]!.shortUrl],
        [String(created[1]!.id), 'Flyer', ''],
        [String(created[2]!.id), 'flyer', created[2]!.shortUrl],
        [String(created[3]!.id), 'Guest Wi-Fi', ''],
        [String(created[4]!.id), "'=SUM(A1)", ''],
      ]);
    });

    it('answers SVGs on request, in the order and size asked, each id once', async () => {
      const { cookie, created } = await fiveCodes();
      const ids = [created[3]!.id, created[0]!.id, created[3]!.id];
      const zip = await files(t(), cookie, { ids, format: 'svg', size: 300 });
      expect(Object.keys(zip)).toEqual(['codes.csv', 'Guest Wi-Fi.svg', 'Menu-Drinks.svg']);
      for (const name of ['Guest Wi-Fi.svg', 'Menu-Drinks.svg']) {
        const text = strFromU8(zip[name]!);
        const doc = new JSDOM(text, { contentType: 'image/svg+xml' }).window.document;
        expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
        expect(doc.documentElement.tagName).toBe('svg');
        expect(doc.documentElement.getAttribute('width')).toBe('300');
      }
    });

    it('answers 404 before sending anything when any id is not one of the caller’s codes', async () => {
      const { cookie, created } = await fiveCodes();
      const other = await signedInUser(t(), 'neighbour');
      const theirs = await insertQrRow(t().db, { userId: other.user.id });
      for (const ids of [
        [created[0]!.id, theirs.id],
        [created[0]!.id, 999_999],
      ]) {
        const body = expectRestError(await archive(t(), cookie, { ids }), 404, 'NOT_FOUND');
        expect(body.message).toBe('QR code not found');
      }
      expect(expectRestError(await archive(t(), other.cookie, { ids: [created[1]!.id] }), 404).message).toBe(
        'QR code not found',
      );
      expectRestError(await archive(t(), cookie, { ids: [] }), 400);
      expectRestError(await archive(t(), cookie, { ids: [created[0]!.id], format: 'gif' }), 400);
    });

    it('names files without the invisible characters a code name may carry (U+202E, controls, separators)', async () => {
      const { cookie } = await signedInUser(t(), 'disguiser', { subscriptionTier: 'premium' });
      const names = [
        // With the right-to-left override this shows as "invoiceexe.png".
        'invoice\u202Egnp.exe',
        'Q1\u001B\u0007 report\u2028\u200F\u2066draft\u2069',
        '\u202E\u200B\u2066',
      ];
      const ids: number[] = [];
      for (const name of names) {
        const res = await call(t().app, 'POST', '/api/qr-codes', {
          cookie,
          json: { name, type: 'url', content: 'https://example.com/invoice', customization: {} },
        });
        expect(res.statusCode, res.body).toBe(201);
        const code = res.json<{ id: number; name: string }>();
        // The name itself is kept as typed: only the files made from it are cleaned.
        expect(code.name).toBe(name);
        ids.push(code.id);
      }
      const zip = await files(t(), cookie, { ids });
      expect(Object.keys(zip)).toEqual([
        'codes.csv',
        'invoicegnp.exe.png',
        'Q1 report draft.png',
        `qrcode-${ids[2]}.png`,
      ]);
      for (const entry of Object.keys(zip)) expect(entry).not.toMatch(INVISIBLE);

      for (const [i, id] of ids.entries()) {
        const image = await call(t().app, 'GET', `/api/qr-codes/${id}/image?format=png`, { cookie });
        expect(image.statusCode).toBe(200);
        const disposition = String(image.headers['content-disposition']);
        const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
        expect(encoded, disposition).toBeDefined();
        const fileName = decodeURIComponent(encoded!);
        expect(fileName).not.toMatch(INVISIBLE);
        expect(fileName).toBe(['invoicegnp-exe.png', 'q1-report-draft.png', `qrcode-${id}.png`][i]);
        expect(disposition).not.toMatch(INVISIBLE);
      }
    });

    it('starts sending before the images are rendered', async () => {
      const { user, cookie } = await signedInUser(t(), 'streamer', { subscriptionTier: 'premium' });
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) {
        ids.push(
          (await insertQrRow(t().db, { userId: user.id, content: `https://example.com/stream/${i}` })).id,
        );
      }
      const base = await t().app.listen({ port: 0, host: '127.0.0.1' });
      const started = performance.now();
      const res = await fetch(`${base}${PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `qr_session=${cookie}` },
        body: JSON.stringify({ ids, size: 1024 }),
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      const firstAt = performance.now() - started;
      expect(Buffer.from(first.value!).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
      const chunks = [Buffer.from(first.value!)];
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        chunks.push(Buffer.from(chunk.value));
      const endAt = performance.now() - started;
      expect(Object.keys(unzipSync(new Uint8Array(Buffer.concat(chunks))))).toHaveLength(31);
      // codes.csv leaves at once; 30 images of 1024 px take far longer.
      expect(firstAt).toBeLessThan(endAt / 3);
    });
  });
});
