/**
 * The one description of how a QR code looks, shared by the browser preview, the downloads and the
 * server-side image function. Everything here is pure and isomorphic: no DOM, no Node APIs.
 *
 * Pipeline (both renderers):
 *   layout = frameLayout(size, c)
 *   raw    = styled-qr-code(buildStyledOptions(data, c, layout.code.size)) → SVG string
 *   code   = normalizeStyledSvg(raw, c)          // inline colours, add background + viewBox
 *   svg    = wrapWithFrame(code, c, size)        // outer frame + text, or `code` unchanged
 *
 * Decisions (documented once, here):
 * - Quiet zone: the product's 10 px (20 px with a frame) are the values at the reference preview size of 200 px.
 *   Larger renders scale it proportionally (`max(base, round(base × size / 200))`) so a 1024 px download
 *   looks exactly like the preview; smaller previews keep the full 10/20 px.
 * - A framed code keeps the requested outer size: the output is always `size × size`, the code shrinks
 *   to leave room for the frame border and the text band.
 * - Payloads are encoded as UTF-8 in byte mode (styled-qr-code would otherwise keep only the low byte
 *   of every character, breaking anything outside Latin-1).
 * - Logos: the error correction is forced to H whenever a logo URL is set (even when a renderer ends up
 *   drawing without it, so browser and server produce the same module pattern). The logo hides at most
 *   LOGO_MAX_AREA (20 %, the product's logo rule) of the code area, and less where the QR version's error correction could not
 *   absorb it (see MAX_LOGO_MODULES_H): logo size 80 is the largest logo that still scans.
 */
import type { Options } from 'styled-qr-code';
import { safeFileName } from '../file-name';
import { HEX_COLOR, LOGO_SIZE, TRANSPARENT } from './customization';
import type { Customization } from './customization';

/** Reference preview size for the quiet zone values (10 px, 20 px with a frame). */
export const REFERENCE_SIZE = 200;
export const QUIET_ZONE = 10;
export const FRAMED_QUIET_ZONE = 20;
/** Largest share of the code area a logo may cover (the product's rule: "no more than 20% of the code area"). */
export const LOGO_MAX_AREA = 0.2;
/** Share of modules styled-qr-code lets a logo hide at level H (its errorCorrectionPercents.H). */
const H_COVER = 0.3;

const DEFAULT_FOREGROUND = '#000000';
const DEFAULT_BACKGROUND = '#FFFFFF';

/** A validated #RRGGBB colour, or the fallback: nothing else ever reaches an SVG attribute. */
export function safeColor(value: string | undefined, fallback: string): string {
  return typeof value === 'string' && HEX_COLOR.test(value) ? value : fallback;
}

/** The background colour, or null for a transparent background. */
export function backgroundOf(c: Customization): string | null {
  return c.backgroundColor === TRANSPARENT ? null : safeColor(c.backgroundColor, DEFAULT_BACKGROUND);
}

export function hasLogo(c: Customization): boolean {
  return typeof c.logo?.url === 'string' && c.logo.url.trim() !== '';
}

export function isFramed(c: Customization): boolean {
  return c.frame?.enabled === true;
}

/** The quiet zone in pixels for a code drawn `size` pixels wide (see the module comment). */
export function quietZone(size: number, framed: boolean): number {
  const base = framed ? FRAMED_QUIET_ZONE : QUIET_ZONE;
  return Math.max(base, Math.round((base * size) / REFERENCE_SIZE));
}

/** Data codewords per QR version 1–40 at level H (qrcode-generator's RS block table, ISO 18004). */
const DATA_CODEWORDS_H = [
  9, 16, 26, 36, 46, 60, 66, 86, 100, 122, 140, 158, 180, 197, 223, 253, 283, 313, 341, 385, 406, 442, 464,
  514, 538, 596, 628, 661, 701, 745, 793, 845, 901, 961, 986, 1054, 1096, 1142, 1222, 1276,
];

/**
 * Most modules a logo may hide, per QR version 1–40 at level H. A centred hole does not spread its damage
 * evenly over the Reed-Solomon blocks (codeword runs in each column pair hit the same few blocks), so a
 * fixed share of the area is not safe: a 23×23 hole (11 %) already breaks version 13. These values were
 * computed offline from the QR layout (function patterns, zig-zag placement, block interleaving) and
 * styled-qr-code's own hole sizing (calculateImageSize, logo aspect ratios 1:10 to 10:1): every codeword
 * the hole touches counts as an error, and no RS block may get more than 90 % of the errors it can
 * correct. That leaves the rest of each block's capacity for print and camera defects.
 */
const MAX_LOGO_MODULES_H = [
  48, 62, 67, 50, 114, 188, 336, 376, 342, 608, 583, 840, 296, 850, 512, 930, 1160, 636, 1362, 1214, 782,
  1700, 2000, 2256, 2424, 2928, 3125, 2184, 3537, 3704, 3920, 1176, 4440, 4322, 4243, 4488, 5364, 5712, 4133,
  6265,
];

/** styled-qr-code's encoding mode for a (byte-string) payload: its getMode(). */
function qrMode(data: string): 'numeric' | 'alphanumeric' | 'byte' {
  if (/^[0-9]*$/.test(data)) return 'numeric';
  if (/^[0-9A-Z $%*+\-./:]*$/.test(data)) return 'alphanumeric';
  return 'byte';
}

/**
 * The QR version qrcode-generator picks for `data` (already passed through toQrByteString) at level H:
 * the smallest whose data capacity holds mode + length header + payload bits.
 */
export function qrVersionH(data: string): number {
  const mode = qrMode(data);
  const n = data.length;
  const payloadBits =
    mode === 'numeric'
      ? 10 * Math.floor(n / 3) + [0, 4, 7][n % 3]!
      : mode === 'alphanumeric'
        ? 11 * Math.floor(n / 2) + 6 * (n % 2)
        : 8 * n;
  const index = mode === 'numeric' ? 0 : mode === 'alphanumeric' ? 1 : 2;
  for (let version = 1; version < 40; version++) {
    const lengthBits = (version < 10 ? [10, 9, 8] : version < 27 ? [12, 11, 16] : [14, 13, 16])[index]!;
    if (4 + lengthBits + payloadBits <= DATA_CODEWORDS_H[version - 1]! * 8) return version;
  }
  return 40;
}

/**
 * How many modules the logo hides for a payload and a logo size of 20–80: `logoSize / 80` of the largest
 * safe hole for this QR version (MAX_LOGO_MODULES_H), itself never more than LOGO_MAX_AREA (20 %) of the
 * code. So 80 is the biggest logo that still scans, 40 (the default) half of it, 20 a quarter.
 */
export function logoHiddenModules(
  data: string,
  logoSize: number | undefined,
): { version: number; moduleCount: number; modules: number; maxModules: number } {
  const encoded = toQrByteString(data);
  const version = qrVersionH(encoded);
  const moduleCount = 4 * version + 17;
  const maxModules = Math.min(
    Math.floor(LOGO_MAX_AREA * moduleCount * moduleCount),
    MAX_LOGO_MODULES_H[version - 1]!,
  );
  const s = Math.min(LOGO_SIZE.max, Math.max(LOGO_SIZE.min, logoSize ?? LOGO_SIZE.default));
  return {
    version,
    moduleCount,
    modules: Math.max(1, Math.floor((maxModules * s) / LOGO_SIZE.max)),
    maxModules,
  };
}

/**
 * UTF-8 bytes as a "binary string" (one char per byte). styled-qr-code's byte mode keeps `charCode & 0xff`,
 * so this makes it emit UTF-8; plain ASCII is returned unchanged (and keeps numeric/alphanumeric modes).
 */
export function toQrByteString(data: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(data)) return data;
  let out = '';
  for (const byte of new TextEncoder().encode(data)) out += String.fromCharCode(byte);
  return out;
}

/** styled-qr-code options (type 'svg') for the code part only (no frame), `size` pixels square. */
export function buildStyledOptions(data: string, c: Customization, size: number): Options {
  const fg = safeColor(c.foregroundColor, DEFAULT_FOREGROUND);
  const bg = backgroundOf(c);
  const logo = hasLogo(c);
  const margin = quietZone(size, isFramed(c));

  let dots: NonNullable<Options['dotsOptions']>['type'];
  let cornersSquare: NonNullable<Options['cornersSquareOptions']>['type'];
  let cornersDot: NonNullable<Options['cornersDotOptions']>['type'];
  switch (c.style) {
    case 'dots':
      dots = 'dots';
      cornersSquare = 'extra-rounded';
      cornersDot = 'dot';
      break;
    case 'rounded':
      // The rounded style uses an eye radius of 10: rounded eyes.
      dots = 'rounded';
      cornersSquare = 'extra-rounded';
      cornersDot = 'dot';
      break;
    case 'classy':
      dots = 'classy';
      cornersSquare = 'square';
      cornersDot = 'square';
      break;
    case 'square':
    default:
      dots = 'square';
      cornersSquare = 'square';
      cornersDot = 'square';
  }

  const options: Options = {
    type: 'svg',
    width: size,
    height: size,
    margin,
    data: toQrByteString(data),
    qrOptions: {
      typeNumber: 0,
      errorCorrectionLevel: logo ? 'H' : c.errorCorrectionLevel,
    },
    dotsOptions: { type: dots, color: fg },
    // Always explicit: otherwise the dot style would also reshape the finder patterns.
    cornersSquareOptions: { type: cornersSquare, color: fg },
    cornersDotOptions: { type: cornersDot, color: fg },
    backgroundOptions: { color: bg ?? TRANSPARENT },
  };
  if (logo && c.logo) {
    // styled-qr-code hides at most floor(imageSize × 0.3 × modules²) modules at level H and draws the logo
    // inside that hole: choose imageSize so the hole is exactly logoHiddenModules(…).modules.
    const { moduleCount, modules } = logoHiddenModules(data, c.logo.size);
    const dotSize = Math.max(1, Math.floor((size - 2 * margin) / moduleCount));
    options.image = c.logo.url;
    options.imageOptions = {
      hideBackgroundDots: true,
      imageSize: (modules + 0.5) / (H_COVER * moduleCount * moduleCount),
      crossOrigin: 'anonymous',
      // Half a module of clear space around the logo.
      margin: Math.floor(dotSize / 2),
    };
  }
  return options;
}

const SVG_OPEN_TAG = /<svg\b[^>]*>/;

function numberAttr(tag: string, name: string): number | null {
  const m = new RegExp(`\\s${name}="([0-9.]+)(?:px)?"`).exec(tag);
  return m?.[1] ? Number(m[1]) : null;
}

/**
 * Turns styled-qr-code's SVG into a self-contained one: drops the XML prolog, replaces its global
 * `<style>` classes (which would clash between several codes inlined in one page) by `fill`
 * attributes, adds the background rectangle it never draws in SVG mode, and a viewBox so it scales.
 */
export function normalizeStyledSvg(raw: string, c: Customization): string {
  let svg = raw.replace(/^\s*<\?xml[^>]*\?>\s*/, '');
  const fills = new Map<string, string>();
  svg = svg.replace(/<style>([\s\S]*?)<\/style>|<style\/>/, (_m, css: string | undefined) => {
    for (const rule of (css ?? '').matchAll(/\.([\w-]+)\s*\{\s*fill:\s*([^;}]+?)\s*;?\s*\}/g)) {
      if (rule[1] && rule[2]) fills.set(rule[1], rule[2]);
    }
    return '';
  });
  svg = svg.replace(/\sclass="([\w-]+)"/g, (m, name: string) => {
    const fill = fills.get(name);
    return fill && /^(#[0-9a-fA-F]{3,8}|transparent)$/.test(fill) ? ` fill="${fill}"` : m;
  });
  const open = SVG_OPEN_TAG.exec(svg);
  if (!open) return svg;
  const tag = open[0];
  const width = numberAttr(tag, 'width') ?? 0;
  const height = numberAttr(tag, 'height') ?? width;
  const newTag = tag.includes('viewBox=')
    ? tag
    : tag.replace(/^<svg/, `<svg viewBox="0 0 ${width} ${height}"`);
  const bg = backgroundOf(c);
  const background = bg ? `<rect width="${width}" height="${height}" fill="${bg}"/>` : '';
  return svg.replace(tag, newTag + background);
}

/** XML-escapes text for element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) =>
    ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '"' ? '&quot;' : '&apos;',
  );
}

/** WCAG relative luminance of a #RRGGBB colour (0 black … 1 white). */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two #RRGGBB colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever reads better on `color`. */
export function readableOn(color: string): string {
  return contrastRatio(color, '#FFFFFF') >= contrastRatio(color, '#000000') ? '#FFFFFF' : '#000000';
}

export interface FrameLayout {
  /** Outer size (always `size × size`). */
  width: number;
  height: number;
  /** Where the code (with its own quiet zone) goes. */
  code: { x: number; y: number; size: number };
  /** null when there is no frame. */
  frame: {
    style: 'rounded' | 'square' | 'minimal';
    color: string;
    /** Border width (0 for minimal). */
    border: number;
    /** Corner radius of the outer shape (0 unless rounded). */
    radius: number;
    /** Text band at the bottom. */
    band: { y: number; height: number };
    text: string;
    textColor: string;
    fontSize: number;
    /** Text baseline position (centred horizontally on x). */
    textX: number;
    textY: number;
  } | null;
}

/**
 * Estimated advance of a bold sans-serif glyph (Arial/Helvetica Bold metrics, rounded up) in ems, so the
 * text is sized to fit the frame without measuring it.
 */
function glyphEm(ch: string): number {
  if (/[WMm@%]/.test(ch)) return 0.96;
  if (/[ijlI.,:;'!|]/.test(ch)) return 0.3;
  if (/[ frt()[\]{}"-]/.test(ch)) return 0.4;
  if (/[A-Z&#?]/.test(ch)) return 0.8;
  if (/[a-z0-9$*+<=>_~^/\\]/.test(ch)) return 0.62;
  return 1; // anything else (accented capitals, CJK, emoji): assume a full em
}

function textWidthEm(text: string): number {
  let em = 0;
  for (const ch of text) em += glyphEm(ch);
  return Math.max(1, em);
}

/** Geometry of the framed code for an outer size of `size` pixels. */
export function frameLayout(size: number, c: Customization): FrameLayout {
  const f = c.frame;
  if (!f?.enabled) {
    return { width: size, height: size, code: { x: 0, y: 0, size }, frame: null };
  }
  const style = f.style;
  const color = safeColor(f.color, DEFAULT_FOREGROUND);
  const text = (f.text ?? '').trim();
  const border = style === 'minimal' ? 0 : Math.max(2, Math.round(size * 0.03));
  const bandHeight = Math.round(size * 0.16);
  const radius = style === 'rounded' ? Math.round(size * 0.06) : 0;
  const codeSize = size - 2 * border - bandHeight;
  const code = { x: Math.round((size - codeSize) / 2), y: border, size: codeSize };
  const bandY = size - border - bandHeight;

  // Text on the band is black or white against the frame colour; the minimal frame has no band, so its
  // text uses the frame colour when that reads on the background, else black or white.
  const bg = backgroundOf(c) ?? DEFAULT_BACKGROUND;
  const textColor =
    style === 'minimal' ? (contrastRatio(color, bg) >= 3 ? color : readableOn(bg)) : readableOn(color);
  const available = size - 2 * border - 2 * Math.round(size * 0.04);
  const fontSize = Math.max(4, Math.min(bandHeight * 0.55, available / textWidthEm(text)));
  const bandMiddle = style === 'minimal' ? bandY + bandHeight / 2 : (bandY + size) / 2;
  return {
    width: size,
    height: size,
    code,
    frame: {
      style,
      color,
      border,
      radius,
      band: { y: bandY, height: size - bandY },
      text,
      textColor,
      fontSize: round2(fontSize),
      textX: round2(size / 2),
      // Baseline ≈ middle + 0.35 em centres cap-height text without relying on dominant-baseline.
      textY: round2(bandMiddle + fontSize * 0.35),
    },
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * Wraps the code SVG (as produced by normalizeStyledSvg) in an outer `size × size` SVG drawing the frame
 * and its XML-escaped text; returns `innerSvg` unchanged when there is no frame. Pure string work: the
 * code's root `<svg>` becomes a nested, positioned `<svg>`. No ids are used, so several framed codes can
 * be inlined in one page.
 */
export function wrapWithFrame(innerSvg: string, c: Customization, size: number): string {
  const layout = frameLayout(size, c);
  const f = layout.frame;
  if (!f) return innerSvg;

  const inner = innerSvg.replace(/^\s*<\?xml[^>]*\?>\s*/, '');
  const open = SVG_OPEN_TAG.exec(inner);
  if (!open) return innerSvg;
  const tag = open[0];
  const w = numberAttr(tag, 'width') ?? layout.code.size;
  const h = numberAttr(tag, 'height') ?? w;
  const viewBox = /\sviewBox="([^"]*)"/.exec(tag)?.[1] ?? `0 0 ${w} ${h}`;
  const attrs = tag
    .replace(/^<svg/, '')
    .replace(/>$/, '')
    .replace(/\s(?:x|y|width|height|viewBox|xmlns|xmlns:xlink)="[^"]*"/g, '');
  const { x, y, size: s } = layout.code;
  const nested =
    `<svg x="${x}" y="${y}" width="${s}" height="${s}" viewBox="${viewBox}"${attrs}>` +
    inner.slice(open.index + tag.length);

  const bg = backgroundOf(c);
  const parts: string[] = [];
  const { border: b, radius: r, color } = f;
  if (f.style === 'minimal') {
    if (bg) parts.push(`<rect width="${size}" height="${size}" fill="${bg}"/>`);
  } else {
    // Background inside the frame, the border as a stroke (a transparent background stays transparent),
    // then the text band whose bottom corners follow the outer shape.
    if (bg) parts.push(`<rect width="${size}" height="${size}" rx="${r}" fill="${bg}"/>`);
    const ir = Math.max(0, r - b / 2);
    parts.push(
      `<rect x="${b / 2}" y="${b / 2}" width="${size - b}" height="${size - b}" rx="${ir}" ` +
        `fill="none" stroke="${color}" stroke-width="${b}"/>`,
    );
    const y0 = f.band.y;
    const band =
      r > 0
        ? `M0 ${y0}H${size}V${size - r}A${r} ${r} 0 0 1 ${size - r} ${size}H${r}A${r} ${r} 0 0 1 0 ${size - r}Z`
        : `M0 ${y0}H${size}V${size}H0Z`;
    parts.push(`<path d="${band}" fill="${color}"/>`);
  }
  if (f.text) {
    parts.push(
      `<text x="${f.textX}" y="${f.textY}" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" ` +
        `font-weight="700" font-size="${f.fontSize}" fill="${f.textColor}">${escapeXml(f.text)}</text>`,
    );
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
    `width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    parts.join('') +
    nested +
    `</svg>`
  );
}

/**
 * A download's file name, after the code: 'Café Menu' → cafe-menu.png. Invisible characters go first
 * (safeFileName: 'in\u202Evoice' → invoice, not in-voice). A name with no letters or digits (or none yet)
 * falls back to qrcode-{id}.png, or qrcode.png for a code that is not saved.
 */
export function qrFileName(format: 'png' | 'svg' | 'pdf', name?: string, id?: number): string {
  const slug = safeFileName(name ?? '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  if (slug) return `${slug}.${format}`;
  return id === undefined || !Number.isFinite(id) ? `qrcode.${format}` : `qrcode-${Math.trunc(id)}.${format}`;
}
