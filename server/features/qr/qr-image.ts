/**
 * Server-side QR images: the same render-options as the browser, drawn by styled-qr-code inside jsdom,
 * rasterised by resvg.
 *
 * jsdom setup (lazy, local, no global pollution): on first use one JSDOM window is created with
 * `runScripts: 'outside-only'` and styled-qr-code's UMD bundle is evaluated *inside* that window, so the
 * library's free identifiers (`document`, `XMLSerializer`, `Blob`, `Image`, `FileReader`, `fetch`) resolve
 * to the window's globals, never to Node's `globalThis`. Three window globals are shims:
 * - `Image`: onload fires (asynchronously) with the logo's real pixel size, read from the data: URL's bytes
 *   (PNG, JPEG, GIF, WebP, SVG);
 * - `fetch`: answers data: URLs only (the server never fetches a network URL);
 * - `FileReader`: `readAsDataURL` accepts the Node Blob that `fetch` returned.
 *
 * Logos: an own upload (/api/uploads/…) is turned into a data: URL through the caller's `resolveLogo`;
 * an external http(s) logo is simply omitted server-side (the browser draws it) — the error correction
 * stays H either way, so the module pattern is the same as in the browser.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as ResvgModule from '@resvg/resvg-js';
import { lazyRequire } from '../../lazy-require.js';
import type * as JsdomModule from 'jsdom';
import type { Options } from 'styled-qr-code';
import type QRCodeStyling from 'styled-qr-code';
import type { Customization } from '../../../src/qr/customization';
import {
  buildStyledOptions,
  frameLayout,
  hasLogo,
  normalizeStyledSvg,
  wrapWithFrame,
} from '../../../src/qr/render-options';

export type ResolveLogo = (url: string) => Promise<{ bytes: Buffer; mime: string } | null>;

/** Logo types the renderer embeds. */
const LOGO_MIME = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
]);

type QrStylingCtor = new (options?: Partial<Options>) => QRCodeStyling;

interface QrWindow {
  QRCodeStyling?: QrStylingCtor;
  eval(code: string): unknown;
  [key: string]: unknown;
}

let styling: QrStylingCtor | null = null;

/** Creates the one jsdom window and loads styled-qr-code into it (first call only). */
function getQrStyling(): QrStylingCtor {
  if (styling) return styling;
  const require = createRequire(import.meta.url);
  // Loaded on first use, not at start-up: jsdom costs ~0.3 s and tens of MB that most processes never need.
  const { JSDOM } = require('jsdom') as typeof JsdomModule;
  const source = readFileSync(require.resolve('styled-qr-code'), 'utf8');
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { runScripts: 'outside-only' });
  const win = dom.window as unknown as QrWindow;
  win.Image = ShimImage;
  win.FileReader = ShimFileReader;
  win.fetch = dataUrlFetch;
  win.eval(source);
  if (typeof win.QRCodeStyling !== 'function') throw new Error('styled-qr-code did not load');
  styling = win.QRCodeStyling;
  return styling;
}

// ---------------------------------------------------------------------------------------------------------
// Shims

function parseDataUrl(url: string): { mime: string; bytes: Buffer } | null {
  const m = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!m) return null;
  const mime = (m[1] || 'text/plain').toLowerCase();
  const base64 = /;base64/i.test(m[2] ?? '');
  const payload = m[3] ?? '';
  const bytes = base64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  return { mime, bytes };
}

/** Pixel size of a PNG, JPEG, GIF, WebP or SVG image; null when it is none of these. */
export function imageDimensions(bytes: Buffer, mime: string): { width: number; height: number } | null {
  const positive = (width: number, height: number) =>
    width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height) ? { width, height } : null;
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) {
    return positive(bytes.readUInt32BE(16), bytes.readUInt32BE(20));
  }
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') {
    return positive(bytes.readUInt16LE(6), bytes.readUInt16LE(8));
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) {
        i++;
        continue;
      }
      const marker = bytes[i + 1] ?? 0;
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0xff) {
        i += marker === 0xff ? 1 : 2;
        continue;
      }
      const length = bytes.readUInt16BE(i + 2);
      const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isSof) return positive(bytes.readUInt16BE(i + 7), bytes.readUInt16BE(i + 5));
      i += 2 + length;
    }
    return null;
  }
  if (
    bytes.length >= 30 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    const chunk = bytes.toString('latin1', 12, 16);
    if (chunk === 'VP8X') return positive(1 + bytes.readUIntLE(24, 3), 1 + bytes.readUIntLE(27, 3));
    if (chunk === 'VP8L') {
      const b = bytes.readUInt32LE(21);
      return positive(1 + (b & 0x3fff), 1 + ((b >> 14) & 0x3fff));
    }
    if (chunk === 'VP8 ') return positive(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
    return null;
  }
  if (mime === 'image/svg+xml' || /^\s*(<\?xml|<svg|<!--)/.test(bytes.toString('utf8', 0, 64))) {
    const tag = /<svg\b[^>]*>/.exec(bytes.toString('utf8'))?.[0];
    if (!tag) return null;
    const num = (name: string) => {
      const v = new RegExp(`\\s${name}="\\s*([0-9.]+)\\s*(px)?\\s*"`).exec(tag);
      return v?.[1] ? Number(v[1]) : null;
    };
    const viewBox = /\sviewBox="([^"]*)"/
      .exec(tag)?.[1]
      ?.trim()
      .split(/[\s,]+/)
      .map(Number);
    const vw = viewBox?.[2];
    const vh = viewBox?.[3];
    const width = num('width');
    const height = num('height');
    if (width && height) return positive(width, height);
    if (vw && vh) return width ? positive(width, (width * vh) / vw) : positive(vw, vh);
    return { width: 300, height: 150 }; // the SVG default size
  }
  return null;
}

/** `Image` whose onload fires with the real size of a data: URL image. */
class ShimImage {
  crossOrigin: string | null = null;
  width = 0;
  height = 0;
  naturalWidth = 0;
  naturalHeight = 0;
  onload: (() => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  #src = '';

  get src(): string {
    return this.#src;
  }

  set src(value: string) {
    this.#src = value;
    const parsed = parseDataUrl(value);
    const size = parsed ? imageDimensions(parsed.bytes, parsed.mime) : null;
    setImmediate(() => {
      if (!size) {
        this.onerror?.(new Error('Unsupported image'));
        return;
      }
      this.width = this.naturalWidth = size.width;
      this.height = this.naturalHeight = size.height;
      this.onload?.();
    });
  }
}

/** `FileReader` whose readAsDataURL accepts a Node Blob. */
class ShimFileReader {
  result: string | null = null;
  onload: (() => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;

  readAsDataURL(blob: Blob): void {
    blob.arrayBuffer().then(
      (buffer) => {
        this.result = `data:${blob.type || 'application/octet-stream'};base64,${Buffer.from(buffer).toString('base64')}`;
        this.onload?.();
      },
      (error: unknown) => this.onerror?.(error),
    );
  }
}

/** `fetch` for data: URLs only: the server never fetches a network address for a QR code. */
function dataUrlFetch(url: string): Promise<{ ok: boolean; blob(): Promise<Blob> }> {
  const parsed = typeof url === 'string' ? parseDataUrl(url) : null;
  if (!parsed) return Promise.reject(new Error('QR renderer only loads data: URLs'));
  const blob = new Blob([new Uint8Array(parsed.bytes)], { type: parsed.mime });
  return Promise.resolve({ ok: true, blob: () => Promise.resolve(blob) });
}

// ---------------------------------------------------------------------------------------------------------
// Rendering

/** The logo as a data: URL, or null (external URL, not resolvable, unsupported or unreadable image). */
async function logoDataUrl(c: Customization, resolveLogo: ResolveLogo | undefined): Promise<string | null> {
  const url = c.logo?.url?.trim() ?? '';
  if (!url.startsWith('/api/uploads/') || !resolveLogo) return null;
  try {
    const logo = await resolveLogo(url);
    if (!logo || logo.bytes.length === 0) return null;
    const mime = logo.mime.toLowerCase().split(';')[0]?.trim() ?? '';
    if (!LOGO_MIME.has(mime) || !imageDimensions(logo.bytes, mime)) return null;
    return `data:${mime === 'image/jpg' ? 'image/jpeg' : mime};base64,${logo.bytes.toString('base64')}`;
  } catch {
    return null;
  }
}

/**
 * The QR code as an SVG string, `size × size` (frame included), identical in structure to the browser's.
 * Own-upload logos are read through `resolveLogo`; external logos are omitted (see the module comment).
 */
export async function renderQrSvgNode(
  data: string,
  c: Customization,
  size: number,
  resolveLogo?: ResolveLogo,
): Promise<string> {
  const QRStyling = getQrStyling();
  const layout = frameLayout(size, c);
  const options = buildStyledOptions(data, c, layout.code.size);
  delete options.image;
  if (hasLogo(c)) {
    const image = await logoDataUrl(c, resolveLogo);
    if (image) options.image = image;
  }
  const qr = new QRStyling(options);
  const blob = await qr.getRawData('svg');
  if (!blob) throw new Error('styled-qr-code returned no SVG');
  const raw = await blob.text();
  return wrapWithFrame(normalizeStyledSvg(raw, c), c, size);
}

/** Rasterises an SVG to a PNG `size` pixels wide (system fonts are loaded only for frame text). */
const loadResvg = lazyRequire<typeof ResvgModule>('@resvg/resvg-js');

/** Rasterises an SVG `size` pixels wide on white: RGBA pixels (the scan-safety check decodes them). */
export function renderQrPixels(
  svg: string,
  size: number,
): { data: Uint8Array; width: number; height: number } {
  const { Resvg } = loadResvg();
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: Math.max(1, Math.round(size)) },
    font: { loadSystemFonts: svg.includes('<text') },
    background: '#FFFFFF',
    logLevel: 'off',
  });
  const image = resvg.render();
  return { data: new Uint8Array(image.pixels), width: image.width, height: image.height };
}

export function renderQrPng(svg: string, size: number): Buffer {
  const { Resvg } = loadResvg();
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: Math.max(1, Math.round(size)) },
    font: { loadSystemFonts: svg.includes('<text') },
    logLevel: 'off',
  });
  return resvg.render().asPng();
}

// ---------------------------------------------------------------------------------------------------------
// Cache

export type QrImageFormat = 'png' | 'svg';

export interface QrImageRequest {
  data: string;
  customization: Customization;
  size: number;
  format: QrImageFormat;
}

export interface QrImageCache {
  /** Hash of (data, customization JSON with sorted keys, size, format). */
  key(request: QrImageRequest): string;
  get(key: string): Buffer | undefined;
  set(key: string, value: Buffer): void;
  /** The cached image, or renders, stores and returns it (concurrent misses share one render). */
  getOrRender(request: QrImageRequest, render: () => Promise<Buffer>): Promise<Buffer>;
  readonly size: number;
  clear(): void;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * In-memory LRU of rendered images. Entries are keyed by content, so the logo's bytes are not part of the
 * key: a logo replaced under the same URL is picked up once its entries age out (uploads get new URLs).
 */
export function createQrImageCache(maxEntries = 500): QrImageCache {
  const entries = new Map<string, Buffer>();
  const pending = new Map<string, Promise<Buffer>>();

  const cache: QrImageCache = {
    key(request) {
      return createHash('sha256')
        .update(stableJson([request.data, request.customization, Math.round(request.size), request.format]))
        .digest('base64url');
    },
    get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        // Re-insert: Map iteration order is insertion order, so the first key is the least recent.
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > Math.max(1, maxEntries)) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    async getOrRender(request, render) {
      const key = cache.key(request);
      const hit = cache.get(key);
      if (hit) return hit;
      const inFlight = pending.get(key);
      if (inFlight) return inFlight;
      const promise = render().then((value) => {
        cache.set(key, value);
        return value;
      });
      pending.set(key, promise);
      try {
        return await promise;
      } finally {
        pending.delete(key);
      }
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
      pending.clear();
    },
  };
  return cache;
}

/** Renders a QR image as PNG or SVG bytes through the cache. */
export function renderQrImage(
  cache: QrImageCache,
  request: QrImageRequest,
  resolveLogo?: ResolveLogo,
): Promise<Buffer> {
  return cache.getOrRender(request, async () => {
    const svg = await renderQrSvgNode(request.data, request.customization, request.size, resolveLogo);
    return request.format === 'png' ? renderQrPng(svg, request.size) : Buffer.from(svg, 'utf8');
  });
}
