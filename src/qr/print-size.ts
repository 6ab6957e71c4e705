/**
 * Print sizes for the print-ready downloads (issue 16, item 3): pixels for a width at a DPI, the smallest
 * print for a scanning distance, presets, and the options the download dialog validates.
 *
 * Decisions:
 * - The minimum print width follows the common rule of thumb: scanning distance ÷ 10, never below §9's
 *   1 cm, rounded up to the next half centimetre so the advice is a round figure on a ruler.
 * - A PNG is at most MAX_PNG_PX wide (the code's width; a caption band adds below it). Past that the
 *   options are rejected, not clamped: a silently smaller file would print blurry or at the wrong size.
 *   Canvas memory is the reason (8000 × 9143 RGBA is already ~290 MB); SVG and PDF have no such limit.
 * - Widths are measured across the whole exported code: quiet zone and frame included, caption excluded.
 */
import { z } from 'zod';
import { captionBandHeight, captionLayout, normalizeCaption } from './print-svg';

export const CM_PER_INCH = 2.54;
/** §9: at least 1 cm by 1 cm. */
export const MIN_PRINT_CM = 1;
export const PRINT_WIDTH_CM = { min: MIN_PRINT_CM, max: 100, default: 3 } as const;
export const PRINT_DPI = { min: 72, max: 1200, default: 300 } as const;
/** The DPI choices the dialog offers. */
export const PRINT_DPI_CHOICES = [150, 300, 600] as const;
export const MAX_PNG_PX = 8000;
export const CAPTION_MAX = 80;
export const SCAN_DISTANCE_M = { min: 0.05, max: 50, default: 0.3 } as const;

export const printFormats = ['png', 'svg', 'pdf'] as const;
export type PrintFormat = (typeof printFormats)[number];
export const captionModes = ['none', 'short-url', 'custom'] as const;
export type CaptionMode = (typeof captionModes)[number];

/** Pixels across `widthCm` printed at `dpi`: round(cm / 2.54 × dpi). */
export function pixelsFor(widthCm: number, dpi: number): number {
  return Math.round((widthCm / CM_PER_INCH) * dpi);
}

/** The widest PNG (cm, one decimal, rounded down) that stays within MAX_PNG_PX at `dpi`. */
export function maxPngWidthCm(dpi: number): number {
  return Math.floor((MAX_PNG_PX / dpi) * CM_PER_INCH * 10) / 10;
}

/** Pixel size of the PNG: the code is `pixelsFor` square, a caption adds its band underneath. */
export function pngPixelSize(
  widthCm: number,
  dpi: number,
  withCaption: boolean,
): { width: number; height: number } {
  const width = pixelsFor(widthCm, dpi);
  return { width, height: width + (withCaption ? captionBandHeight(width) : 0) };
}

/**
 * Smallest print width (cm) that scans from `distanceM` metres: distance ÷ 10, at least 1 cm, rounded up
 * to 0.5 cm. A distance that is not a positive number (an empty field) gives the 1 cm floor.
 */
export function minPrintCmForDistance(distanceM: number): number {
  if (!Number.isFinite(distanceM) || distanceM <= 0) return MIN_PRINT_CM;
  const cm = (distanceM * 100) / 10;
  // toFixed drops float noise (1.1 m → 11.000000000000002 cm would otherwise round up to 11.5).
  const halves = Math.ceil(Number((cm * 2).toFixed(6)));
  return Math.max(MIN_PRINT_CM, halves / 2);
}

/** A number for display: at most two decimals, no trailing zeros (3, 2.5, 0.25). */
export function formatDecimal(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** The advice shown next to the download. */
export function scanDistanceAdvice(distanceM: number): string {
  return `Scanned from ${formatDecimal(distanceM)} m away, print it at least ${formatDecimal(
    minPrintCmForDistance(distanceM),
  )} cm wide.`;
}

/**
 * The warning for a print narrower than this design decoded in the scan check (src/qr/scan-safety.ts
 * tries 1, 2 and 3 cm at 300 dpi), or null. Widths the check never tried below a failure are warned
 * about too: nothing says they scan.
 */
export function designPrintWarning(
  widthCm: number,
  check: { minPrintCm: number | null; failedPrintCm: number | null },
): string | null {
  const { minPrintCm, failedPrintCm } = check;
  if (failedPrintCm === null) return null;
  const w = formatDecimal(widthCm);
  if (minPrintCm !== null) {
    if (widthCm >= minPrintCm) return null;
    return `At ${w} cm this design may not scan: the check could not read it ${formatDecimal(failedPrintCm)} cm wide (300 dpi), only from ${formatDecimal(minPrintCm)} cm. Print it at least ${formatDecimal(minPrintCm)} cm wide, or shorten the content.`;
  }
  if (widthCm > failedPrintCm) return null;
  return `At ${w} cm this design may not scan: the check could not read it even ${formatDecimal(failedPrintCm)} cm wide (300 dpi). Print it bigger, or shorten the content.`;
}

export interface PrintPreset {
  id: string;
  label: string;
  widthCm: number;
  /** Typical scanning distance; widthCm meets the distance ÷ 10 rule for it. */
  distanceM: number;
}

export const PRINT_PRESETS: readonly PrintPreset[] = [
  { id: 'business-card', label: 'Business card', widthCm: 2, distanceM: 0.2 },
  { id: 'flyer', label: 'Flyer or leaflet', widthCm: 3, distanceM: 0.3 },
  { id: 'table-tent', label: 'Menu or table tent', widthCm: 4, distanceM: 0.4 },
  { id: 'poster', label: 'Poster', widthCm: 10, distanceM: 1 },
  { id: 'window', label: 'Shop window or banner', widthCm: 30, distanceM: 3 },
];

/** Why a PNG of this size cannot be made, or null when it can. */
export function pngSizeProblem(widthCm: number, dpi: number): string | null {
  const px = pixelsFor(widthCm, dpi);
  if (px <= MAX_PNG_PX) return null;
  return (
    `At ${dpi} dpi a PNG can be at most ${formatDecimal(maxPngWidthCm(dpi))} cm wide ` +
    `(${MAX_PNG_PX} px; this would be ${px} px). Choose a smaller width or DPI, or SVG or PDF.`
  );
}

const numberField = (label: string) =>
  z.number({
    error: (issue) =>
      issue.input === '' || issue.input === undefined ? `${label} is required` : `${label} must be a number`,
  });

export const printOptionsInput = z
  .object({
    format: z.enum(printFormats, { error: 'Format must be PNG, SVG or PDF' }),
    widthCm: numberField('Print width')
      .min(PRINT_WIDTH_CM.min, `Print width must be at least ${PRINT_WIDTH_CM.min} cm`)
      .max(PRINT_WIDTH_CM.max, `Print width must be at most ${PRINT_WIDTH_CM.max} cm`),
    dpi: numberField('DPI')
      .int('DPI must be a whole number')
      .min(PRINT_DPI.min, `DPI must be at least ${PRINT_DPI.min}`)
      .max(PRINT_DPI.max, `DPI must be at most ${PRINT_DPI.max}`)
      .default(PRINT_DPI.default),
    caption: z
      .enum(captionModes, { error: 'Caption must be none, short URL or custom text' })
      .default('none'),
    captionText: z
      .string({ error: 'Caption text must be text' })
      .trim()
      .max(CAPTION_MAX, `Caption text must be at most ${CAPTION_MAX} characters`)
      .default(''),
  })
  .superRefine((o, ctx) => {
    if (o.caption === 'custom' && normalizeCaption(o.captionText) === '') {
      ctx.addIssue({ code: 'custom', path: ['captionText'], message: 'Caption text is required' });
    }
    // (zod skips this when a field failed; the guard keeps a NaN out of the message regardless.)
    if (o.format === 'png' && Number.isFinite(o.widthCm) && Number.isFinite(o.dpi)) {
      const problem = pngSizeProblem(o.widthCm, o.dpi);
      if (problem) ctx.addIssue({ code: 'custom', path: ['widthCm'], message: problem });
    }
  });

export type PrintOptions = z.output<typeof printOptionsInput>;
export type PrintOptionsInput = z.input<typeof printOptionsInput>;

/**
 * A short URL as printed: without `https://` and a trailing slash (what people type); any other scheme
 * (a self-hosted http:// instance) stays, so the printed address still works.
 */
export function printedShortUrl(shortUrl: string): string {
  return shortUrl
    .trim()
    .replace(/^https:\/\//i, '')
    .replace(/\/$/, '');
}

/** The caption line to print for these options, or null for none. */
export function captionFor(
  options: Pick<PrintOptions, 'caption' | 'captionText'>,
  shortUrl?: string | null,
): string | null {
  if (options.caption === 'short-url') {
    const url = shortUrl ? printedShortUrl(shortUrl) : '';
    return url === '' ? null : url;
  }
  if (options.caption === 'custom') {
    const text = normalizeCaption(options.captionText);
    return text === '' ? null : text;
  }
  return null;
}

/** Why a download of this format, width and DPI cannot be made (the schema's first message), or null. */
export function printProblem(format: PrintFormat, widthCm: number, dpi: number): string | null {
  const result = printOptionsInput.safeParse({ format, widthCm, dpi });
  return result.success ? null : (result.error.issues[0]?.message ?? 'These print options are not valid');
}

const MM_PER_PT = 25.4 / 72;
/** Below this a printed caption is hard to read. */
export const MIN_CAPTION_PT = 6;

/** How high (pt) the caption prints on a code `widthCm` wide, after shrinking to fit (estimated). */
export function captionPrintPt(widthCm: number, caption: string): number {
  const reference = 1000;
  const { fontSize } = captionLayout(reference, normalizeCaption(caption));
  return Math.round(((fontSize / reference) * widthCm * 10 * 10) / MM_PER_PT) / 10;
}
