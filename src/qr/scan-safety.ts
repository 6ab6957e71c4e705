/**
 * The scan-safety check: will a design scan? Shared by the designer (which decodes its preview in a worker)
 * and the server (which decodes its own renders when a code is saved). Both render the same SVG, rasterise
 * it at CHECK_SIZE_PX and at the small print sizes, decode each raster with zxing and hand the results
 * here; this module turns them, with what the design itself says, into a verdict, plain reasons and
 * one-click fixes.
 *
 * Thresholds, and why:
 * - Symbol contrast (ISO/IEC 15415): the reflectance of the light modules minus that of the dark ones,
 *   estimated by the colours' relative luminance (a transparent background counts as white paper).
 *   Grade C, the lowest grade print applications usually accept, starts at 40 %: below that, decoding a
 *   crisp render proves little, since ink, paper, glare and a dim room all take contrast away.
 * - Light on dark: the symbol is decodable when a reader tries the inverted image, which many phone
 *   scanners (and older camera apps) never do.
 * - Logo: the hole it cuts is sized against the most modules this QR version can lose (logoHiddenModules);
 *   past 75 % of that budget little is left for print and camera defects.
 * - Quiet zone: the light margin measured on the render, in modules, from the symbol to the first dark
 *   pixel or the image edge. ISO asks for 4 modules; the paper around a print usually adds to it, but
 *   under one module a finder pattern merges with whatever surrounds the code.
 * - Print size: §9's guidance is at least 1 cm, which is ~118 px at 300 dpi; the check also decodes at
 *   2 and 3 cm and says when only larger prints will scan.
 */
import type { Customization, ErrorCorrectionLevel } from './customization';
import { LOGO_SIZE, TRANSPARENT } from './customization';
import { hasLogo, logoHiddenModules, relativeLuminance, safeColor } from './render-options';

export const scanVerdicts = ['scannable', 'risky', 'unscannable'] as const;
export type ScanVerdict = (typeof scanVerdicts)[number];

export const scanVerdictLabels: Record<ScanVerdict, string> = {
  scannable: 'Scannable',
  risky: 'Risky',
  unscannable: "Won't scan",
};

/** The large render every check decodes first. */
export const CHECK_SIZE_PX = 512;
/** Small renders at 300 dpi: 1, 2 and 3 cm wide (1 cm ≈ 118 px). */
export const PRINT_CHECKS = [
  { cm: 1, px: 118 },
  { cm: 2, px: 236 },
  { cm: 3, px: 354 },
] as const;
export const MIN_SYMBOL_CONTRAST = 0.4;
/** What "darken the foreground" aims for: ISO/IEC 15415 grade B (55 %). */
const TARGET_SYMBOL_CONTRAST = 0.55;
export const LOGO_BUDGET_RISKY = 0.75;
export const MIN_QUIET_ZONE_MODULES = 1;

/** One decode of one render. */
export interface DecodeAttempt {
  /** Width of the render in pixels. */
  px: number;
  /** The decoded text, or null when nothing decoded. */
  text: string | null;
  /** It decoded only as an inverted (light-on-dark) symbol. */
  inverted?: boolean;
  /** The light margin around the symbol, in modules (measured on the large render). */
  quietZoneModules?: number | null;
}

export type ScanFixId =
  'raise-error-correction' | 'lower-error-correction' | 'shrink-logo' | 'darken-foreground' | 'swap-colours';

export interface ScanFix {
  id: ScanFixId;
  label: string;
}

export interface ScanCheck {
  verdict: ScanVerdict;
  /** Plain-words reasons, the most important first (at least one). */
  reasons: string[];
  fixes: ScanFix[];
  /** The smallest print width (cm) that decoded, when the check tried the small sizes. */
  minPrintCm: number | null;
  /** The largest print width (cm) below minPrintCm (or of all, when none did) that did not decode. */
  failedPrintCm: number | null;
}

const fixLabels: Record<ScanFixId, string> = {
  'raise-error-correction': 'Raise error correction',
  'lower-error-correction': 'Lower error correction',
  'shrink-logo': 'Shrink the logo',
  'darken-foreground': 'Darken the foreground',
  'swap-colours': 'Swap colours',
};

const WHITE = '#FFFFFF';

function colours(c: Customization): { fg: string; bg: string } {
  const fg = safeColor(c.foregroundColor, '#000000');
  const bg = c.backgroundColor === TRANSPARENT ? WHITE : safeColor(c.backgroundColor, WHITE);
  return { fg, bg };
}

/** Symbol contrast (0–1): background luminance minus foreground luminance (negative when inverted). */
export function symbolContrast(c: Customization): number {
  const { fg, bg } = colours(c);
  return relativeLuminance(bg) - relativeLuminance(fg);
}

/** Share (0–1) of the logo budget the logo uses; 0 without a logo. */
export function logoBudgetUsed(data: string, c: Customization): number {
  if (!hasLogo(c)) return 0;
  const { modules, maxModules } = logoHiddenModules(data, c.logo?.size);
  return maxModules > 0 ? modules / maxModules : 1;
}

const ecOrder: ErrorCorrectionLevel[] = ['L', 'M', 'Q', 'H'];

function hex(n: number): string {
  return Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, '0')
    .toUpperCase();
}

/** The foreground scaled towards black (hue kept) until the symbol contrast reaches the target. */
function darkened(fg: string, bg: string): string {
  const rgb = [1, 3, 5].map((i) => parseInt(fg.slice(i, i + 2), 16));
  const target = Math.min(TARGET_SYMBOL_CONTRAST, relativeLuminance(bg) - 0.05);
  for (let k = 1; k >= 0; k -= 0.02) {
    const candidate = `#${rgb.map((v) => hex(v * k)).join('')}`;
    if (relativeLuminance(bg) - relativeLuminance(candidate) >= target) return candidate;
  }
  return '#000000';
}

/** What a one-click fix does to the design. */
export function applyScanFix(id: ScanFixId, c: Customization): Customization {
  const { fg, bg } = colours(c);
  switch (id) {
    case 'raise-error-correction': {
      const next = ecOrder[Math.min(ecOrder.length - 1, ecOrder.indexOf(c.errorCorrectionLevel) + 1)]!;
      return { ...c, errorCorrectionLevel: next };
    }
    case 'lower-error-correction': {
      const next = ecOrder[Math.max(0, ecOrder.indexOf(c.errorCorrectionLevel) - 1)]!;
      return { ...c, errorCorrectionLevel: next };
    }
    case 'shrink-logo': {
      if (!c.logo) return c;
      const size = Math.max(LOGO_SIZE.min, Math.min(50, c.logo.size - 2 * LOGO_SIZE.step));
      return { ...c, logo: { ...c.logo, size } };
    }
    case 'darken-foreground':
      return { ...c, foregroundColor: darkened(fg, bg) };
    case 'swap-colours':
      // A transparent background becomes the foreground colour's opposite number: white.
      return { ...c, foregroundColor: bg, backgroundColor: fg };
  }
}

const percent = (x: number) => `${Math.round(x * 100)} %`;

/** The verdict on a design from its decodes (see the module comment for the thresholds). */
export function assessScan(input: {
  /** What the code must decode to. */
  expected: string;
  customization: Customization;
  attempts: DecodeAttempt[];
}): ScanCheck {
  const { expected, customization: c, attempts } = input;
  const large = attempts.find((a) => a.px === CHECK_SIZE_PX) ?? attempts[0];
  const contrast = symbolContrast(c);
  const inverted = contrast < 0;
  const budget = logoBudgetUsed(expected, c);
  const fixes = new Set<ScanFixId>();
  const reasons: string[] = [];

  const designCauses = () => {
    if (inverted) {
      reasons.push('The code is lighter than its background; most scanners need dark modules on light.');
      fixes.add('swap-colours');
    } else if (contrast < MIN_SYMBOL_CONTRAST) {
      reasons.push(
        `The foreground and background differ by only ${percent(contrast)} in brightness; print needs at least ${percent(MIN_SYMBOL_CONTRAST)}.`,
      );
      fixes.add('darken-foreground');
    }
    if (budget > LOGO_BUDGET_RISKY) {
      reasons.push(
        `The logo hides ${percent(budget)} of what error correction can repair, leaving little for print and camera flaws.`,
      );
      fixes.add('shrink-logo');
    }
  };

  if (!large || large.text === null) {
    reasons.push('No scanner could read it, even at full size.');
    designCauses();
    if (hasLogo(c) && !fixes.has('shrink-logo') && (c.logo?.size ?? 0) > LOGO_SIZE.min)
      fixes.add('shrink-logo');
    if (!hasLogo(c) && c.errorCorrectionLevel !== 'H') fixes.add('raise-error-correction');
    return {
      verdict: 'unscannable',
      reasons,
      fixes: [...fixes].map(fix),
      minPrintCm: null,
      failedPrintCm: null,
    };
  }
  if (large.text !== expected) {
    reasons.push('It reads as different content from what you entered.');
    return { verdict: 'unscannable', reasons, fixes: [], minPrintCm: null, failedPrintCm: null };
  }

  designCauses();
  if (!inverted && large.inverted) {
    reasons.push('It decodes only as an inverted code; most scanners never try that.');
    fixes.add('swap-colours');
  }
  if (large.quietZoneModules != null && large.quietZoneModules < MIN_QUIET_ZONE_MODULES) {
    reasons.push('The light margin around the code is under one module wide; leave white space around it.');
  }

  let minPrintCm: number | null = null;
  let failedPrintCm: number | null = null;
  const small = PRINT_CHECKS.map((p) => ({ ...p, attempt: attempts.find((a) => a.px === p.px) }));
  if (small.some((s) => s.attempt)) {
    const smallest = small.find((s) => s.attempt?.text === expected);
    minPrintCm = smallest ? smallest.cm : null;
    const failed = small.filter(
      (s) => s.attempt && s.attempt.text !== expected && (!smallest || s.cm < smallest.cm),
    );
    failedPrintCm = failed.length > 0 ? failed[failed.length - 1]!.cm : null;
    if (!smallest) {
      const largest = PRINT_CHECKS[PRINT_CHECKS.length - 1]!.cm;
      reasons.push(
        `Only large prints will scan: it did not decode at ${largest} cm wide (300 dpi). Print it bigger or shorten the content.`,
      );
    } else if (smallest.cm > PRINT_CHECKS[0].cm) {
      reasons.push(
        `Only prints at least ${smallest.cm} cm wide will scan; at ${PRINT_CHECKS[0].cm} cm (300 dpi) it did not decode.`,
      );
    }
    if (smallest?.cm !== PRINT_CHECKS[0].cm && !hasLogo(c) && ecOrder.indexOf(c.errorCorrectionLevel) > 1) {
      fixes.add('lower-error-correction');
    }
  }

  if (reasons.length > 0)
    return { verdict: 'risky', reasons, fixes: [...fixes].map(fix), minPrintCm, failedPrintCm };
  return {
    verdict: 'scannable',
    reasons: [
      minPrintCm === null
        ? `Decodes to exactly your content; contrast ${percent(contrast)}.`
        : `Decodes to exactly your content, down to ${minPrintCm} cm wide at 300 dpi; contrast ${percent(contrast)}.`,
    ],
    fixes: [],
    minPrintCm,
    failedPrintCm,
  };
}

function fix(id: ScanFixId): ScanFix {
  return { id, label: fixLabels[id] };
}

/** Where a symbol was found in a raster: its corner points (zxing's position) and QR version. */
export interface SymbolPlacement {
  points: { x: number; y: number }[];
  version: number;
}

/**
 * The light margin around a decoded symbol, in modules: from each side of the symbol's bounding box
 * outwards to the first dark pixel or the image edge; the smallest side wins. `grey` is one byte per pixel
 * (0 black … 255 white, transparency already composited on white).
 */
export function measureQuietZone(
  grey: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  placement: SymbolPlacement,
): number | null {
  if (placement.points.length === 0 || placement.version < 1) return null;
  const xs = placement.points.map((p) => p.x);
  const ys = placement.points.map((p) => p.y);
  const left = Math.max(0, Math.floor(Math.min(...xs)));
  const right = Math.min(width - 1, Math.ceil(Math.max(...xs)));
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  const modulePx = (right - left) / (17 + 4 * placement.version);
  if (!(modulePx > 0)) return null;
  const dark = (x: number, y: number) => (grey[y * width + x] ?? 255) < 128;
  const inset = Math.ceil(modulePx / 2);
  const rowDark = (y: number) => {
    for (let x = left + inset; x <= right - inset; x++) if (dark(x, y)) return true;
    return false;
  };
  const colDark = (x: number) => {
    for (let y = top + inset; y <= bottom - inset; y++) if (dark(x, y)) return true;
    return false;
  };
  // Skip two pixels next to the symbol (anti-aliased edge), then walk out to the first dark line.
  const gap = 2;
  const margins = [
    (() => {
      for (let x = left - gap; x >= 0; x--) if (colDark(x)) return left - x - 1;
      return left;
    })(),
    (() => {
      for (let x = right + gap; x < width; x++) if (colDark(x)) return x - right - 1;
      return width - 1 - right;
    })(),
    (() => {
      for (let y = top - gap; y >= 0; y--) if (rowDark(y)) return top - y - 1;
      return top;
    })(),
    (() => {
      for (let y = bottom + gap; y < height; y++) if (rowDark(y)) return y - bottom - 1;
      return height - 1 - bottom;
    })(),
  ];
  return Math.max(0, Math.min(...margins)) / modulePx;
}

/**
 * RGBA → grey with transparency composited on white (zxing's own conversion ignores alpha); `invert` for a
 * symbol that decoded as light-on-dark, so its margin is measured in its own polarity.
 */
export function greyOnWhite(rgba: Uint8Array | Uint8ClampedArray, invert = false): Uint8Array {
  const grey = new Uint8Array(rgba.length >> 2);
  for (let i = 0, p = 0; p < grey.length; i += 4, p++) {
    const a = rgba[i + 3]! / 255;
    const y = (306 * rgba[i]! + 601 * rgba[i + 1]! + 117 * rgba[i + 2]!) >> 10;
    const v = Math.round(y * a + 255 * (1 - a));
    grey[p] = invert ? 255 - v : v;
  }
  return grey;
}
