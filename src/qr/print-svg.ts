/**
 * String work on the code's SVG for the print-ready downloads: a caption line under the code and a size
 * in centimetres. Pure: no DOM, so the browser's downloads and Node tests run the same code.
 *
 * Caption layout (in the SVG's own units, W = the code's width):
 * - the canvas grows downwards by a band of round(W × 2/14); the code above is untouched;
 * - the band is filled with the code's background colour, the text drawn in its foreground colour;
 *   a transparent background gets a white band with black text, so the caption reads on any paper;
 * - the text is centred, sans-serif, W/14 high, and shrinks (never wraps) until its estimated width fits
 *   within 5 % side margins. Its width is estimated from DejaVu Sans advances (wider than Arial and
 *   Helvetica), so it fits whatever sans-serif the viewer substitutes.
 */
import { escapeXml, safeColor } from './render-options';

export const CAPTION_FONT_RATIO = 1 / 14;
export const CAPTION_BAND_RATIO = 2 / 14;
/** Share of the width kept clear on each side of the caption. */
export const CAPTION_SIDE_MARGIN = 0.05;
export const CAPTION_FONT_FAMILY = 'Arial, Helvetica, sans-serif';

export interface CaptionColours {
  foreground: string;
  /** null for a transparent background. */
  background: string | null;
}

/**
 * One printable line: control characters (which XML 1.0 forbids) and line breaks become spaces, runs of
 * whitespace collapse, unpaired surrogates become U+FFFD.
 */
export function normalizeCaption(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g, ' ')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Height of the caption band under a code `width` units wide. */
export function captionBandHeight(width: number): number {
  return Math.max(1, Math.round(width * CAPTION_BAND_RATIO));
}

/** Advance width of a regular sans-serif glyph in ems, rounded up from DejaVu Sans. */
function glyphEm(ch: string): number {
  const base = ch.normalize('NFD').charAt(0) || ch;
  if (/[WMm@%]/.test(base)) return 1;
  if (/[IJijl.,:;'!|`/\\ ]/.test(base)) return 0.36;
  if (/[frt()[\]{}"-]/.test(base)) return 0.42;
  if (/[w#&]/.test(base)) return 0.86;
  if (/[A-Z]/.test(base)) return 0.8;
  if (/[a-z0-9$*+<=>_~^?]/.test(base)) return 0.65;
  return 1; // CJK, emoji, anything else: a full em
}

/** Estimated width of `text` in ems of its font size. */
export function captionWidthEm(text: string): number {
  let em = 0;
  for (const ch of text) em += glyphEm(ch);
  return Math.max(1, em);
}

export interface CaptionLayout {
  bandHeight: number;
  fontSize: number;
  /** Centre of the text, from the band's left edge. */
  textX: number;
  /** Baseline, from the band's top edge. */
  baseline: number;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Where the caption goes in a band under a code `width` units wide. */
export function captionLayout(width: number, text: string): CaptionLayout {
  const bandHeight = captionBandHeight(width);
  const available = width * (1 - 2 * CAPTION_SIDE_MARGIN);
  // Rounded down, so rounding never pushes the text past the margins.
  const fontSize =
    Math.floor(Math.min(width * CAPTION_FONT_RATIO, available / captionWidthEm(text)) * 100) / 100;
  return {
    bandHeight,
    fontSize,
    textX: round2(width / 2),
    // Baseline ≈ middle + 0.35 em centres the text without relying on dominant-baseline.
    baseline: round2(bandHeight / 2 + fontSize * 0.35),
  };
}

/** The band's fill and the text's colour: the code's colours, black on white under a transparent one. */
export function captionPaint(colours: CaptionColours): { band: string; ink: string } {
  return colours.background === null
    ? { band: '#FFFFFF', ink: '#000000' }
    : { band: safeColor(colours.background, '#FFFFFF'), ink: safeColor(colours.foreground, '#000000') };
}

/** The band's background and text, drawn at (x, y). */
function captionElements(x: number, y: number, width: number, text: string, colours: CaptionColours): string {
  const layout = captionLayout(width, text);
  const { band, ink } = captionPaint(colours);
  return (
    `<rect x="${x}" y="${y}" width="${width}" height="${layout.bandHeight}" fill="${band}"/>` +
    `<text x="${round2(x + layout.textX)}" y="${round2(y + layout.baseline)}" text-anchor="middle" ` +
    `font-family="${CAPTION_FONT_FAMILY}" font-size="${layout.fontSize}" fill="${ink}">` +
    `${escapeXml(text)}</text>`
  );
}

const SVG_OPEN_TAG = /<svg\b[^>]*>/;

function attr(tag: string, name: string): string | null {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null;
}

function setAttr(tag: string, name: string, value: string): string {
  const re = new RegExp(`(\\s${name}=")[^"]*(")`);
  return re.test(tag) ? tag.replace(re, `$1${value}$2`) : tag.replace(/^<svg/, `<svg ${name}="${value}"`);
}

/** [minX, minY, width, height] of the root element: its viewBox, else its width and height. */
function rootBox(tag: string): [number, number, number, number] {
  const vb = attr(tag, 'viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (vb?.length === 4 && vb.every(Number.isFinite) && vb[2]! > 0 && vb[3]! > 0) {
    return vb as [number, number, number, number];
  }
  const width = parseFloat(attr(tag, 'width') ?? '');
  const height = parseFloat(attr(tag, 'height') ?? '') || width;
  if (!(width > 0)) throw new Error('The SVG has neither a viewBox nor a width');
  return [0, 0, width, height];
}

function rootTag(svg: string): { tag: string; index: number } {
  const open = SVG_OPEN_TAG.exec(svg);
  if (!open || open[0].endsWith('/>')) throw new Error('Not an SVG image');
  return { tag: open[0], index: open.index };
}

/**
 * Adds `caption` as a line under the code: the canvas (viewBox, and height in proportion) grows by the
 * caption band. Returns `svg` unchanged when the caption is empty.
 */
export function addCaption(svg: string, caption: string, colours: CaptionColours): string {
  const text = normalizeCaption(caption);
  if (text === '') return svg;
  const { tag, index } = rootTag(svg);
  const [minX, minY, width, height] = rootBox(tag);
  const band = captionBandHeight(width);
  let newTag = setAttr(tag, 'viewBox', `${minX} ${minY} ${width} ${height + band}`);
  const heightAttr = /^([0-9.]+)([a-z%]*)$/i.exec(attr(tag, 'height') ?? '');
  if (heightAttr) {
    const scaled = (Number(heightAttr[1]) * (height + band)) / height;
    newTag = setAttr(newTag, 'height', `${Math.round(scaled * 10_000) / 10_000}${heightAttr[2]}`);
  }
  const close = svg.lastIndexOf('</svg>');
  if (close < index) throw new Error('Not an SVG image');
  return (
    svg.slice(0, index) +
    newTag +
    svg.slice(index + tag.length, close) +
    captionElements(minX, minY + height, width, text, colours) +
    svg.slice(close)
  );
}

/** The caption band alone, `width` units wide, as a standalone SVG (PDFs rasterise it for non-Latin text). */
export function captionBandSvg(width: number, caption: string, colours: CaptionColours): string {
  const text = normalizeCaption(caption);
  const band = captionBandHeight(width);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${band}" viewBox="0 0 ${width} ${band}">` +
    (text === '' ? '' : captionElements(0, 0, width, text, colours)) +
    `</svg>`
  );
}

/**
 * Gives the root element a physical size: `width="3cm"` and the height in proportion, keeping (or
 * adding) the viewBox, so the file prints and places at exactly `widthCm`.
 */
export function sizeSvgInCm(svg: string, widthCm: number): string {
  const { tag, index } = rootTag(svg);
  const [minX, minY, width, height] = rootBox(tag);
  const cm = (n: number) => `${Math.round(n * 10_000) / 10_000}cm`;
  let newTag = setAttr(tag, 'viewBox', `${minX} ${minY} ${width} ${height}`);
  newTag = setAttr(newTag, 'width', cm(widthCm));
  newTag = setAttr(newTag, 'height', cm((widthCm * height) / width));
  return svg.slice(0, index) + newTag + svg.slice(index + tag.length);
}

/**
 * Whether jsPDF's standard fonts (WinAnsi) can set `text` as real PDF text: printable Latin-1 only.
 * Anything else (Greek, CJK, emoji, …) would come out garbled, so PDFs draw such captions as an image.
 */
export function isPdfTextSafe(text: string): boolean {
  return /^[\x20-\x7E\xA0-\xFF]*$/.test(text);
}
