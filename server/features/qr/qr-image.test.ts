import { decodeQr } from '../../test/qr-decode.js';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { customizationSchema, errorCorrectionLevels, templates } from '../../../src/qr/customization';
import type { Customization } from '../../../src/qr/customization';
import {
  LOGO_MAX_AREA,
  logoHiddenModules,
  qrFileName,
  qrVersionH,
  toQrByteString,
} from '../../../src/qr/render-options';
import { createQrImageCache, renderQrImage, renderQrPng, renderQrSvgNode } from './qr-image';
import type { ResolveLogo } from './qr-image';

const PAYLOADS = ['http://localhost:3000/r/Ab3dE9x', 'WIFI:T:WPA;S:Café \\;Guest;P:espresso2024;;'];
const LOGO_URL = '/api/uploads/logo-test.png';
const SIZE = 512;

/** A 256 px PNG logo with dark and light areas, made by resvg (no fixture file). */
function makeLogo(width = 256, height = 256): Buffer {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 256 256" preserveAspectRatio="none">` +
    `<rect width="256" height="256" rx="40" fill="#E11D48"/>` +
    `<circle cx="128" cy="118" r="70" fill="none" stroke="#FFFFFF" stroke-width="28"/>` +
    `<path d="M150 150 L210 215" stroke="#FFFFFF" stroke-width="30" stroke-linecap="round"/></svg>`;
  return new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
}

const logoPng = makeLogo();
const resolveLogo: ResolveLogo = (url) =>
  Promise.resolve(url === LOGO_URL ? { bytes: logoPng, mime: 'image/png' } : null);

function withLogo(c: Customization, size = 80): Customization {
  return { ...c, logo: { url: LOGO_URL, size } };
}

describe('scannability', () => {
  it('decodes every template × error correction × {no logo, largest logo} × payload', async () => {
    const failures: string[] = [];
    let total = 0;
    let decoded = 0;
    const rows: string[] = [];
    for (const template of templates) {
      const cells: string[] = [];
      for (const level of errorCorrectionLevels) {
        for (const logo of [false, true]) {
          let ok = 0;
          for (const payload of PAYLOADS) {
            const base: Customization = { ...template.customization, errorCorrectionLevel: level };
            const c = logo ? withLogo(base) : base;
            const svg = await renderQrSvgNode(payload, c, SIZE, resolveLogo);
            if (logo) expect(svg).toContain('<image');
            const texts = await decodeQr(renderQrPng(svg, SIZE));
            total++;
            if (texts.length === 1 && texts[0] === payload) {
              decoded++;
              ok++;
            } else {
              failures.push(
                `${template.id} ${level} ${logo ? 'logo80' : 'no-logo'} ${JSON.stringify(payload)} → ${JSON.stringify(texts)}`,
              );
            }
          }
          cells.push(`${level}${logo ? '+logo' : ''} ${ok}/${PAYLOADS.length}`);
        }
      }
      rows.push(`${template.id.padEnd(16)} ${cells.join('  ')}`);
    }
    console.log(
      `QR scannability at ${SIZE}px (zxing-wasm): decoded ${decoded} of ${total}\n${rows.join('\n')}` +
        (failures.length ? `\nFailures:\n${failures.join('\n')}` : ''),
    );
    expect(failures).toEqual([]);
  }, 300_000);
});

/** Module area (px²), logo area (px²) and module count of a square-style code, from the finder patterns. */
function areas(svg: string): { code: number; logo: number; modules: number } {
  const corners = [...svg.matchAll(/d="M ([0-9.]+) ([0-9.]+)v ([0-9.]+)h/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    s: Number(m[3]),
  }));
  const left = corners[0];
  const right = corners.find((c) => left && c.y === left.y && c.x > left.x);
  if (!left || !right) throw new Error('finder patterns not found');
  const side = right.x + right.s - left.x;
  const image = /<image\b[^>]*\swidth="([0-9.]+)px" height="([0-9.]+)px"/.exec(svg);
  const logo = image ? Number(image[1]) * Number(image[2]) : 0;
  return { code: side * side, logo, modules: Math.round((7 * side) / left.s) };
}

describe('renderer properties', () => {
  const classic = templates[0]!.customization;

  it('keeps the logo within 20% of the code area at every logo size and shape', async () => {
    const wide = makeLogo(400, 100);
    const tall = makeLogo(120, 360);
    for (const bytes of [logoPng, wide, tall]) {
      for (let size = 20; size <= 80; size += 5) {
        for (const payload of PAYLOADS) {
          const svg = await renderQrSvgNode(payload, withLogo(classic, size), SIZE, () =>
            Promise.resolve({ bytes, mime: 'image/png' }),
          );
          const { code, logo } = areas(svg);
          expect(logo).toBeGreaterThan(0);
          expect(logo / code).toBeLessThanOrEqual(LOGO_MAX_AREA);
        }
      }
    }
  }, 60_000);

  it('predicts the QR version styled-qr-code picks at level H', async () => {
    const payloads = [
      '0123456789'.repeat(30),
      'HTTP://EXAMPLE.COM/ABC-123'.repeat(5),
      PAYLOADS[0]!,
      PAYLOADS[1]!,
      'Grüße aus Köln 🎉 '.repeat(8),
      'x'.repeat(500),
    ];
    for (const payload of payloads) {
      const svg = await renderQrSvgNode(payload, withLogo(classic, 80), 1024, resolveLogo);
      const { modules, code, logo } = areas(svg);
      const expected = logoHiddenModules(payload, 80);
      expect(modules).toBe(4 * qrVersionH(toQrByteString(payload)) + 17);
      expect(modules).toBe(expected.moduleCount);
      expect(logo / code).toBeLessThanOrEqual(expected.maxModules / (modules * modules));
    }
  });

  it('keeps the largest logo scannable at every QR version', async () => {
    const wide = makeLogo(400, 100);
    const failures: string[] = [];
    const versions = [...Array.from({ length: 20 }, (_, i) => i + 1), 27, 40];
    for (const version of versions) {
      // The longest byte payload of this version at level H (the densest case; 1273 bytes fill v40).
      let payload = 'h';
      while (payload.length < 1273 && qrVersionH(payload + 'x') <= version) {
        payload += 'abcdefghijklmnopqrstuvwxyz0123456789/-.'[(payload.length * 7) % 39];
      }
      expect(qrVersionH(payload)).toBe(version);
      for (const [shape, bytes] of [
        ['square', logoPng],
        ['wide', wide],
      ] as const) {
        const svg = await renderQrSvgNode(payload, withLogo(classic, 80), 1024, () =>
          Promise.resolve({ bytes, mime: 'image/png' }),
        );
        const texts = await decodeQr(renderQrPng(svg, 1024));
        if (texts[0] !== payload) failures.push(`v${version} ${shape}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('omits external logos on the server but keeps level H', async () => {
    const external = { ...classic, logo: { url: 'https://example.com/logo.png', size: 40 } };
    const svg = await renderQrSvgNode(PAYLOADS[0]!, external, SIZE, resolveLogo);
    expect(svg).not.toContain('<image');
    const sameAsH = await renderQrSvgNode(PAYLOADS[0]!, { ...classic, errorCorrectionLevel: 'H' }, SIZE);
    expect(svg).toBe(sameAsH);
    expect(await decodeQr(renderQrPng(svg, SIZE))).toEqual([PAYLOADS[0]]);
  });

  it('renders without the logo when it cannot be resolved or read', async () => {
    const c = withLogo(classic, 60);
    const missing = await renderQrSvgNode(PAYLOADS[0]!, c, SIZE, () => Promise.resolve(null));
    const broken = await renderQrSvgNode(PAYLOADS[0]!, c, SIZE, () =>
      Promise.resolve({ bytes: Buffer.from('not an image'), mime: 'image/png' }),
    );
    const throwing = await renderQrSvgNode(PAYLOADS[0]!, c, SIZE, () => Promise.reject(new Error('io')));
    for (const svg of [missing, broken, throwing]) expect(svg).not.toContain('<image');
  });

  it('XML-escapes the frame text', async () => {
    const text = '<script>alert("x")</script>&';
    const c = customizationSchema.parse({
      frame: { enabled: true, text: text.slice(0, 30), style: 'rounded', color: '#111827' },
    });
    const svg = await renderQrSvgNode(PAYLOADS[0]!, c, SIZE);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    // Still one well-formed SVG that renders and scans.
    expect(await decodeQr(renderQrPng(svg, SIZE))).toEqual([PAYLOADS[0]]);
  });

  it('supports a transparent background', async () => {
    const c = customizationSchema.parse({ backgroundColor: 'transparent' });
    const svg = await renderQrSvgNode(PAYLOADS[0]!, c, SIZE);
    expect(svg).not.toMatch(/fill="transparent"|<rect width=/);
    const rgba = new Resvg(svg).render();
    const pixels = rgba.pixels;
    expect(pixels[3]).toBe(0); // top-left corner (quiet zone) is see-through
    // Scans once put on a light background.
    const onWhite = new Resvg(svg, { background: '#FFFFFF', fitTo: { mode: 'width', value: SIZE } })
      .render()
      .asPng();
    expect(await decodeQr(onWhite)).toEqual([PAYLOADS[0]]);

    const framed = customizationSchema.parse({
      backgroundColor: 'transparent',
      frame: { enabled: true, text: 'Scan Me', style: 'square', color: '#1F2937' },
    });
    const framedSvg = await renderQrSvgNode(PAYLOADS[0]!, framed, SIZE);
    expect(framedSvg).toContain('fill="none" stroke="#1F2937"');
  });

  it('gives identical SVG for identical inputs', async () => {
    for (const template of templates) {
      const c = withLogo(template.customization, 50);
      const a = await renderQrSvgNode(PAYLOADS[1]!, c, 300, resolveLogo);
      const b = await renderQrSvgNode(PAYLOADS[1]!, structuredClone(c), 300, resolveLogo);
      expect(a).toBe(b);
    }
  });

  it('serves a repeated request from the cache', async () => {
    const cache = createQrImageCache(2);
    const request = { data: PAYLOADS[0]!, customization: classic, size: 300, format: 'png' as const };
    let renders = 0;
    const render = async () => {
      renders++;
      return renderQrPng(await renderQrSvgNode(request.data, request.customization, 300), 300);
    };
    const first = await cache.getOrRender(request, render);
    const second = await cache.getOrRender({ ...request, customization: { ...classic } }, render);
    expect(second).toBe(first);
    expect(renders).toBe(1);

    // Key order of the customization does not matter; format and size do.
    const reordered = Object.fromEntries(Object.entries(classic).reverse()) as Customization;
    expect(cache.key({ ...request, customization: reordered })).toBe(cache.key(request));
    expect(cache.key({ ...request, format: 'svg' })).not.toBe(cache.key(request));
    expect(cache.key({ ...request, size: 301 })).not.toBe(cache.key(request));

    // renderQrImage goes through the same cache; LRU keeps at most 2 entries.
    const svgBytes = await renderQrImage(cache, { ...request, format: 'svg' });
    expect(svgBytes.toString('utf8')).toMatch(/^<svg /);
    expect(await renderQrImage(cache, { ...request, format: 'svg' })).toBe(svgBytes);
    await renderQrImage(cache, { ...request, size: 200 });
    expect(cache.size).toBe(2);
    expect(cache.get(cache.key(request))).toBeUndefined();
  });

  it('names downloads after the code, falling back to qrcode.png or qrcode-{id}.png', () => {
    expect(qrFileName('png', 'Cafe menu', 4)).toBe('cafe-menu.png');
    expect(qrFileName('pdf', '  Café Menü — Été 2026! ')).toBe('cafe-menu-ete-2026.pdf');
    expect(qrFileName('svg', 'Меню кафе')).toBe('меню-кафе.svg');
    expect(qrFileName('png', '🙂 !!', 12)).toBe('qrcode-12.png');
    expect(qrFileName('svg', '', 7)).toBe('qrcode-7.svg');
    expect(qrFileName('pdf')).toBe('qrcode.pdf');
    expect(qrFileName('png', 'x'.repeat(200))).toBe(`${'x'.repeat(60)}.png`);
  });
});
