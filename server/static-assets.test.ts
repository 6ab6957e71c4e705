// The built client goes out precompressed: brotli or gzip by Accept-Encoding, with Vary, for assets and
// for index.html behind deep links, with the same headers as the raw files. A file that is not there
// answers 404 (not the page), and /metrics labels files `static`, the page `app`, the rest `unmatched`.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../scripts/build/precompress';
import { call, createTestApp, type TestApp } from './test/test-app.js';
import { createTestDb, type TestDb } from './test/test-db.js';

const script = `export const greeting = ${JSON.stringify('hello, QR Creator '.repeat(400))};\n`;
const html =
  '<!doctype html><html><head><script type="module" src="/assets/app-abc.js"></script></head>' +
  `<body><div id="root"></div><!-- ${'padding '.repeat(200)}--></body></html>`;

let clientDir: string;
let db: TestDb;
let t: TestApp;

beforeAll(async () => {
  clientDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qr-client-'));
  await fs.mkdir(path.join(clientDir, 'assets'));
  await fs.writeFile(path.join(clientDir, 'index.html'), html);
  await fs.writeFile(path.join(clientDir, 'assets', 'app-abc.js'), script);
  await fs.writeFile(path.join(clientDir, 'assets', 'tiny-abc.js'), 'export {};\n');
  await precompressDir(clientDir);
  db = await createTestDb('sqlite');
  t = await createTestApp(db, { clientDir });
});

afterAll(async () => {
  await t.close();
  await db.close();
  await fs.rm(clientDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  call(t.app, 'GET', url, {
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

describe('precompressDir', () => {
  it('writes .br and .gz that decompress to each file over 1 KB, and leaves small files alone', async () => {
    const files = await fs.readdir(path.join(clientDir, 'assets'));
    expect(files.sort()).toEqual(['app-abc.js', 'app-abc.js.br', 'app-abc.js.gz', 'tiny-abc.js']);
    const br = await fs.readFile(path.join(clientDir, 'assets', 'app-abc.js.br'));
    const gz = await fs.readFile(path.join(clientDir, 'assets', 'app-abc.js.gz'));
    expect(zlib.brotliDecompressSync(br).toString()).toBe(script);
    expect(zlib.gunzipSync(gz).toString()).toBe(script);
    expect(br.length).toBeLessThan(script.length / 10);
  });
});

describe('GET /assets/…', () => {
  it('answers brotli when the browser accepts it, with Vary and the usual headers', async () => {
    const res = await get('/assets/app-abc.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^(?:application|text)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('answers gzip to a browser that accepts only gzip', async () => {
    const res = await get('/assets/app-abc.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(script);
  });

  it('answers the raw file to identity, to no Accept-Encoding, and for a file with no compressed copy', async () => {
    for (const accept of ['identity', undefined]) {
      const res = await get('/assets/app-abc.js', accept);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body).toBe(script);
    }
    const tiny = await get('/assets/tiny-abc.js', 'br, gzip');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};\n');
  });

  it('never serves the compressed copies as files of their own type', async () => {
    const res = await get('/assets/app-abc.js.br', 'identity');
    // Reachable only as the encoding of app-abc.js: a direct request gets the bytes, never as JavaScript.
    expect(res.headers['content-type'] ?? '').not.toMatch(/javascript/);
  });
});

describe('deep links', () => {
  it('answer index.html compressed, never cached, with the page security headers', async () => {
    const res = await get('/create', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toMatch(/connect-src 'self'/);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(html);
  });

  // Uptime monitors ask with HEAD: it answers as GET does, without the body.
  it.each(['/', '/create', '/admin/users', '/assets/app-abc.js'])(
    'answers HEAD %s as GET does',
    async (url) => {
      const head = await call(t.app, 'HEAD', url);
      const getRes = await call(t.app, 'GET', url);
      expect(head.statusCode).toBe(200);
      expect(getRes.statusCode).toBe(200);
      expect(head.headers['content-type']).toBe(getRes.headers['content-type']);
      expect(head.body).toBe('');
    },
  );
  it('answers HEAD of an unknown API path 404, as GET does', async () => {
    expect((await call(t.app, 'HEAD', '/api/nothing-here')).statusCode).toBe(404);
  });
});

describe('a file of the client that is not there', () => {
  const TOKEN = 'a-long-metrics-token-456';

  it('answers a short 404 while client routes get the page, and /metrics labels them static, app and unmatched', async () => {
    const m = await createTestApp(db, { clientDir, config: { metricsToken: TOKEN } });
    try {
      // A chunk of an older build, a folder, a file-like path: a plain 404, never index.html.
      for (const url of ['/assets/app-old123.js', '/assets/', '/favicon.xyz', '/assets/deep/x.css?v=1']) {
        const res = await call(m.app, 'GET', url);
        const pathname = url.split('?')[0]!;
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.body).toBe(`Not found: ${pathname}\n`);
        expect((await call(m.app, 'HEAD', url)).statusCode, url).toBe(404);
      }
      // Client routes, numeric ids included, still get the page; /api keeps its JSON 404.
      for (const url of ['/dashboard', '/qr-details/5', '/create?from=menu']) {
        const res = await call(m.app, 'GET', url);
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toBe(html);
      }
      expect((await call(m.app, 'GET', '/api/nothing.json')).json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await call(m.app, 'GET', '/assets/app-abc.js')).statusCode).toBe(200);

      const scrape = await call(m.app, 'GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      const counts: Record<string, number> = {};
      for (const [, labels, value] of scrape.body.matchAll(
        /^qr_creator_http_requests_total\{(.*)\} (\d+)$/gm,
      ))
        counts[labels!] = Number(value);
      expect(counts).toEqual({
        'method="GET",route="unmatched",status="404"': 5,
        'method="HEAD",route="unmatched",status="404"': 4,
        'method="GET",route="app",status="200"': 3,
        'method="GET",route="static",status="200"': 1,
      });
    } finally {
      await m.close();
    }
  });
});
