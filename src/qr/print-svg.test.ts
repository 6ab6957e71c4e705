import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import {
  addCaption,
  CAPTION_SIDE_MARGIN,
  captionBandHeight,
  captionBandSvg,
  captionLayout,
  captionWidthEm,
  isPdfTextSafe,
  normalizeCaption,
  sizeSvgInCm,
} from './print-svg';

const require = createRequire(import.meta.url);
const DEJAVU_SANS = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

/** A code as renderQrSvg returns it: a root with width, height and viewBox, a background, modules. */
const CODE =
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="140" height="140" ' +
  'viewBox="0 0 140 140"><rect width="140" height="140" fill="#FFFFEE"/>' +
  '<rect x="10" y="10" width="40" height="40" fill="#1A237E"/><rect x="90" y="90" width="40" height="40" fill="#1A237E"/></svg>';
const COLOURS = { foreground: '#1A237E', background: '#FFFFEE' };

function root(svg: string): Element {
  const doc = new new JSDOM('').window.DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  return doc.documentElement;
}

function captionText(svg: string): Element {
  const texts = root(svg).getElementsByTagName('text');
  const last = texts[texts.length - 1];
  if (!last) throw new Error('no <text>');
  return last;
}

/** RGBA pixels of `svg` drawn `width` px wide with DejaVu Sans as the only font (wider than Arial). */
function rasterise(svg: string, width: number) {
  const image = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: {
      loadSystemFonts: false,
      fontFiles: [DEJAVU_SANS],
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
    },
    logLevel: 'off',
  }).render();
  return { pixels: image.pixels, width: image.width, height: image.height };
}

/** Columns [first, last] in rows [y0, y1) holding dark ink (the text), or null. */
function inkColumns(img: ReturnType<typeof rasterise>, y0: number, y1: number): [number, number] | null {
  let first = -1;
  let last = -1;
  for (let y = y0; y < y1; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      if (img.pixels[i]! + img.pixels[i + 1]! + img.pixels[i + 2]! < 3 * 160) {
        if (first < 0 || x < first) first = x;
        if (x > last) last = x;
      }
    }
  }
  return first < 0 ? null : [first, last];
}

describe('addCaption', () => {
  it('grows the canvas downwards by the band and draws the text centred in the code colours', () => {
    const svg = addCaption(CODE, 'qr.example.com/abc', COLOURS);
    const band = captionBandHeight(140);
    expect(band).toBe(20);
    const el = root(svg);
    expect(el.getAttribute('viewBox')).toBe('0 0 140 160');
    expect(el.getAttribute('width')).toBe('140');
    expect(el.getAttribute('height')).toBe('160');
    // The code itself is untouched, the band and text follow it.
    expect(svg).toContain(CODE.slice(CODE.indexOf('<rect'), -'</svg>'.length));
    expect(svg).toContain('<rect x="0" y="140" width="140" height="20" fill="#FFFFEE"/>');
    const text = captionText(svg);
    expect(text.textContent).toBe('qr.example.com/abc');
    expect(text.getAttribute('fill')).toBe('#1A237E');
    expect(text.getAttribute('text-anchor')).toBe('middle');
    expect(text.getAttribute('x')).toBe('70');
    expect(text.getAttribute('font-family')).toMatch(/sans-serif$/);
    expect(Number(text.getAttribute('font-size'))).toBe(10); // 140 / 14
    const y = Number(text.getAttribute('y'));
    expect(y).toBeGreaterThan(150);
    expect(y).toBeLessThan(160);
  });

  it('uses black on white under a transparent background', () => {
    const svg = addCaption(CODE.replace('<rect width="140" height="140" fill="#FFFFEE"/>', ''), 'Menu', {
      foreground: '#1A237E',
      background: null,
    });
    expect(svg).toContain('height="20" fill="#FFFFFF"/>');
    expect(captionText(svg).getAttribute('fill')).toBe('#000000');
  });

  it('never lets a colour other than #RRGGBB into the file', () => {
    const svg = addCaption(CODE, 'Menu', { foreground: '"/><script>', background: 'red' });
    expect(svg).not.toContain('script');
    expect(captionText(svg).getAttribute('fill')).toBe('#000000');
  });

  it('escapes the text and keeps the file well-formed XML', () => {
    const tricky = `<b>Tom & "Jerry's"</b> ]]> \u0007\u0000 tab\there \uD800 😀`;
    const svg = addCaption(CODE, tricky, COLOURS);
    expect(svg).not.toContain('<b>');
    expect(captionText(svg).textContent).toBe(`<b>Tom & "Jerry's"</b> ]]> tab here \uFFFD 😀`);
  });

  it('leaves the SVG as it is for an empty caption', () => {
    expect(addCaption(CODE, '', COLOURS)).toBe(CODE);
    expect(addCaption(CODE, ' \n\t ', COLOURS)).toBe(CODE);
  });

  it('works in the viewBox units when they differ from width and height', () => {
    const svg = addCaption(
      '<svg xmlns="http://www.w3.org/2000/svg" width="220" height="220" viewBox="-5 -5 110 110"><g/></svg>',
      'Hi',
      COLOURS,
    );
    const el = root(svg);
    expect(el.getAttribute('viewBox')).toBe('-5 -5 110 126');
    expect(el.getAttribute('height')).toBe('252');
    expect(svg).toContain('<rect x="-5" y="105" width="110" height="16"');
    expect(captionText(svg).getAttribute('x')).toBe('50');
  });

  it('adds a viewBox to an SVG sized by width and height only', () => {
    const svg = addCaption(
      '<svg xmlns="http://www.w3.org/2000/svg" width="70" height="70"></svg>',
      'A',
      COLOURS,
    );
    expect(root(svg).getAttribute('viewBox')).toBe('0 0 70 80');
    expect(root(svg).getAttribute('height')).toBe('80');
  });

  it('refuses what is not an SVG', () => {
    expect(() => addCaption('<html></html>', 'x', COLOURS)).toThrow('Not an SVG image');
    expect(() => addCaption('<svg width="10" height="10"/>', 'x', COLOURS)).toThrow('Not an SVG image');
  });

  it('shrinks a long caption to fit the width, within the side margins', () => {
    const long = 'WWW.MOMENTUM-WORKSHOP.EXAMPLE.COM/MENU?TABLE=42&LANG=EN — WELCOME, WILLKOMMEN!';
    const layout = captionLayout(140, long);
    expect(layout.fontSize).toBeLessThan(10);
    expect(layout.fontSize * captionWidthEm(long)).toBeLessThanOrEqual(140 * (1 - 2 * CAPTION_SIDE_MARGIN));
  });

  it.each([
    ['a short URL', 'qr.example.com/abc123'],
    ['80 wide capitals', 'W'.repeat(80)],
    ['a long mixed caption', 'Scan for our menu & wine list: Café Luna, 12 Rue de la Paix, 75002 Paris (FR)'],
    ['CJK text', '扫码查看菜单和酒单'],
  ])('%s rendered in DejaVu Sans stays inside the band', (_label, caption) => {
    const px = 700;
    const img = rasterise(addCaption(CODE, caption, COLOURS), px);
    expect(img.height).toBe(800);
    const bandTop = 700;
    const ink = inkColumns(img, bandTop, img.height);
    if (!/[\u4e00-\u9fff]/.test(caption)) {
      // DejaVu Sans has no CJK glyphs: only check that nothing overflows.
      expect(ink).not.toBeNull();
    }
    if (ink) {
      expect(ink[0]).toBeGreaterThanOrEqual(Math.floor(px * CAPTION_SIDE_MARGIN) - 1);
      expect(ink[1]).toBeLessThanOrEqual(Math.ceil(px * (1 - CAPTION_SIDE_MARGIN)));
      // Centred: equal room on both sides, to a few pixels.
      expect(Math.abs(ink[0] - (px - 1 - ink[1]))).toBeLessThanOrEqual(px * 0.02);
    }
    // The code above the band is drawn as before.
    const plain = rasterise(CODE, px);
    expect(Buffer.from(img.pixels.subarray(0, px * bandTop * 4)).equals(Buffer.from(plain.pixels))).toBe(
      true,
    );
  });
});

describe('captionBandSvg', () => {
  it('is the band alone, as wide as the code', () => {
    const svg = captionBandSvg(140, 'Menu', COLOURS);
    const el = root(svg);
    expect(el.getAttribute('width')).toBe('140');
    expect(el.getAttribute('height')).toBe('20');
    expect(captionText(svg).textContent).toBe('Menu');
  });
});

describe('sizeSvgInCm', () => {
  it('gives the root a size in cm and keeps the viewBox', () => {
    const el = root(sizeSvgInCm(CODE, 3));
    expect(el.getAttribute('width')).toBe('3cm');
    expect(el.getAttribute('height')).toBe('3cm');
    expect(el.getAttribute('viewBox')).toBe('0 0 140 140');
  });

  it('keeps the aspect ratio of a captioned code', () => {
    const el = root(sizeSvgInCm(addCaption(CODE, 'Menu', COLOURS), 3));
    expect(el.getAttribute('width')).toBe('3cm');
    expect(el.getAttribute('height')).toBe(`${Math.round(((3 * 160) / 140) * 10_000) / 10_000}cm`);
    expect(el.getAttribute('viewBox')).toBe('0 0 140 160');
  });

  it('adds a viewBox when there is none', () => {
    const el = root(
      sizeSvgInCm('<svg xmlns="http://www.w3.org/2000/svg" width="50" height="100"></svg>', 2.5),
    );
    expect(el.getAttribute('viewBox')).toBe('0 0 50 100');
    expect(el.getAttribute('width')).toBe('2.5cm');
    expect(el.getAttribute('height')).toBe('5cm');
  });

  it('keeps the XML prolog', () => {
    expect(sizeSvgInCm(`<?xml version="1.0"?>\n${CODE}`, 3)).toMatch(/^<\?xml version="1.0"\?>\n<svg /);
  });
});

describe('normalizeCaption and isPdfTextSafe', () => {
  it('makes one printable line', () => {
    expect(normalizeCaption('  a\r\n b\u2028c\u0000 ')).toBe('a b c');
    expect(normalizeCaption('\uDC00x')).toBe('\uFFFDx');
    expect(normalizeCaption('😀')).toBe('😀');
  });

  it.each([
    ['qr.example.com/r/abc123', true],
    ['Café Luna – 10 % off', false], // the en dash is not Latin-1
    ['Café Luna - 10 % off', true],
    ['Ørsted Straße', true],
    ['Меню', false],
    ['菜单', false],
    ['😀', false],
  ])('%j → %s', (text, safe) => {
    expect(isPdfTextSafe(text)).toBe(safe);
  });
});
