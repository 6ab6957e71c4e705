import { describe, expect, it } from 'vitest';
import {
  CAPTION_MAX,
  captionFor,
  captionPrintPt,
  designPrintWarning,
  MAX_PNG_PX,
  maxPngWidthCm,
  MIN_CAPTION_PT,
  minPrintCmForDistance,
  pixelsFor,
  pngPixelSize,
  pngSizeProblem,
  PRINT_DPI,
  PRINT_PRESETS,
  PRINT_WIDTH_CM,
  printedShortUrl,
  printOptionsInput,
  printProblem,
  scanDistanceAdvice,
} from './print-size';

/** The first message for each field, as the dialog shows them. */
function errors(input: unknown): Record<string, string> {
  const result = printOptionsInput.safeParse(input);
  const out: Record<string, string> = {};
  if (!result.success) {
    for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message;
  }
  return out;
}

const valid = { format: 'png', widthCm: 3, dpi: 300, caption: 'none', captionText: '' };

describe('pixelsFor', () => {
  it.each([
    [3, 300, 354],
    [1, 300, 118],
    [2.54, 300, 300],
    [2.54, 72, 72],
    [10, 600, 2362],
    [67.7, 300, 7996],
  ])('%s cm at %s dpi → %s px', (cm, dpi, px) => {
    expect(pixelsFor(cm, dpi)).toBe(px);
  });
});

describe('PNG size limit', () => {
  it('the widest allowed PNG at every DPI stays within MAX_PNG_PX', () => {
    for (let dpi = PRINT_DPI.min; dpi <= PRINT_DPI.max; dpi++) {
      const cm = maxPngWidthCm(dpi);
      expect(pixelsFor(cm, dpi), `${dpi} dpi`).toBeLessThanOrEqual(MAX_PNG_PX);
      expect(pngSizeProblem(cm, dpi)).toBeNull();
    }
  });

  it('past the limit the size is refused with the largest width that fits', () => {
    expect(maxPngWidthCm(300)).toBe(67.7);
    expect(maxPngWidthCm(600)).toBe(33.8);
    expect(pngSizeProblem(100, 300)).toBe(
      'At 300 dpi a PNG can be at most 67.7 cm wide (8000 px; this would be 11811 px). ' +
        'Choose a smaller width or DPI, or SVG or PDF.',
    );
    expect(pngSizeProblem(67.8, 300)).not.toBeNull();
  });

  it('counts the caption band in the PNG height, not in its width', () => {
    expect(pngPixelSize(3, 300, false)).toEqual({ width: 354, height: 354 });
    expect(pngPixelSize(3, 300, true)).toEqual({ width: 354, height: 354 + 51 });
  });
});

describe('minPrintCmForDistance (distance ÷ 10, at least 1 cm, up to the next 0.5 cm)', () => {
  it.each([
    [0.3, 3],
    [1, 10],
    [2, 20],
    [0.35, 3.5],
    [0.11, 1.5],
    [1.1, 11], // 1.1 × 10 is 11.000000000000002 in floating point
    [1.11, 11.5],
    [0.7, 7],
    [0.1, 1],
    [0.05, 1],
    [0, 1],
    [-2, 1],
    [Number.NaN, 1],
  ])('%s m → %s cm', (m, cm) => {
    expect(minPrintCmForDistance(m)).toBe(cm);
  });

  it('says it in one line', () => {
    expect(scanDistanceAdvice(0.3)).toBe('Scanned from 0.3 m away, print it at least 3 cm wide.');
    expect(scanDistanceAdvice(1.25)).toBe('Scanned from 1.25 m away, print it at least 12.5 cm wide.');
  });
});

describe("designPrintWarning (the scan check's own smallest print)", () => {
  it('is silent when every tried size decoded, or at and above the smallest that did', () => {
    expect(designPrintWarning(1, { minPrintCm: 1, failedPrintCm: null })).toBeNull();
    expect(designPrintWarning(2, { minPrintCm: 2, failedPrintCm: 1 })).toBeNull();
    expect(designPrintWarning(5, { minPrintCm: null, failedPrintCm: 3 })).toBeNull();
  });

  it('warns below the smallest size that decoded, untried widths included', () => {
    expect(designPrintWarning(1.5, { minPrintCm: 2, failedPrintCm: 1 })).toBe(
      'At 1.5 cm this design may not scan: the check could not read it 1 cm wide (300 dpi), only from 2 cm. ' +
        'Print it at least 2 cm wide, or shorten the content.',
    );
    expect(designPrintWarning(2.5, { minPrintCm: 3, failedPrintCm: 2 })).not.toBeNull();
  });

  it('warns up to the largest size tried when none decoded', () => {
    expect(designPrintWarning(3, { minPrintCm: null, failedPrintCm: 3 })).toBe(
      'At 3 cm this design may not scan: the check could not read it even 3 cm wide (300 dpi). ' +
        'Print it bigger, or shorten the content.',
    );
  });
});

describe('PRINT_PRESETS', () => {
  it('follow the rule for their own distance and fit the width bounds', () => {
    expect(new Set(PRINT_PRESETS.map((p) => p.id)).size).toBe(PRINT_PRESETS.length);
    for (const p of PRINT_PRESETS) {
      expect(p.widthCm, p.id).toBeGreaterThanOrEqual(minPrintCmForDistance(p.distanceM));
      expect(p.widthCm).toBeGreaterThanOrEqual(PRINT_WIDTH_CM.min);
      expect(p.widthCm).toBeLessThanOrEqual(PRINT_WIDTH_CM.max);
    }
  });
});

describe('printOptionsInput', () => {
  it('accepts the dialog defaults and fills in the optional fields', () => {
    expect(printOptionsInput.parse({ format: 'svg', widthCm: 3 })).toEqual({
      format: 'svg',
      widthCm: 3,
      dpi: 300,
      caption: 'none',
      captionText: '',
    });
    expect(printOptionsInput.safeParse(valid).success).toBe(true);
  });

  it.each([
    [{ format: 'gif' }, 'format', 'Format must be PNG, SVG or PDF'],
    [{ widthCm: '' }, 'widthCm', 'Print width is required'],
    [{ widthCm: 'wide' }, 'widthCm', 'Print width must be a number'],
    [{ widthCm: 0.5 }, 'widthCm', 'Print width must be at least 1 cm'],
    [{ widthCm: 101, format: 'pdf' }, 'widthCm', 'Print width must be at most 100 cm'],
    [{ widthCm: Number.POSITIVE_INFINITY }, 'widthCm', 'Print width must be a number'],
    [{ dpi: '' }, 'dpi', 'DPI is required'],
    [{ dpi: 71 }, 'dpi', 'DPI must be at least 72'],
    [{ dpi: 1201 }, 'dpi', 'DPI must be at most 1200'],
    [{ dpi: 300.5 }, 'dpi', 'DPI must be a whole number'],
    [{ caption: 'banner' }, 'caption', 'Caption must be none, short URL or custom text'],
    [{ caption: 'custom', captionText: '  \n ' }, 'captionText', 'Caption text is required'],
    [
      { caption: 'custom', captionText: 'x'.repeat(CAPTION_MAX + 1) },
      'captionText',
      'Caption text must be at most 80 characters',
    ],
  ])('%j → %s: %s', (change, field, message) => {
    expect(errors({ ...valid, ...change })[field]).toBe(message);
  });

  it('limits the PNG size, not the vector ones', () => {
    expect(errors({ ...valid, widthCm: 100 }).widthCm).toMatch(/^At 300 dpi a PNG can be at most 67.7 cm/);
    expect(errors({ ...valid, widthCm: 100, format: 'svg' })).toEqual({});
    expect(errors({ ...valid, widthCm: 100, format: 'pdf', dpi: 1200 })).toEqual({});
  });

  it('printProblem gives the first message or null', () => {
    expect(printProblem('png', 3, 300)).toBeNull();
    expect(printProblem('pdf', 100, 1200)).toBeNull();
    expect(printProblem('svg', 0.5, 300)).toBe('Print width must be at least 1 cm');
    expect(printProblem('png', 40, 600)).toMatch(/at most 33.8 cm wide/);
  });
});

describe('captionFor', () => {
  it('prints the short URL without https:// and a trailing slash', () => {
    expect(printedShortUrl('https://qr.example.com/r/abc123/')).toBe('qr.example.com/r/abc123');
    expect(printedShortUrl('http://intranet.local/r/x')).toBe('http://intranet.local/r/x');
    expect(captionFor({ caption: 'short-url', captionText: '' }, 'https://qr.example.com/r/abc')).toBe(
      'qr.example.com/r/abc',
    );
  });

  it('prints nothing without a caption, or for a short URL the code does not have', () => {
    expect(captionFor({ caption: 'none', captionText: 'ignored' }, 'https://qr.example.com/r/a')).toBeNull();
    expect(captionFor({ caption: 'short-url', captionText: '' }, null)).toBeNull();
    expect(captionFor({ caption: 'short-url', captionText: '' })).toBeNull();
    expect(captionFor({ caption: 'custom', captionText: '   ' })).toBeNull();
  });

  it('prints custom text as one line', () => {
    expect(captionFor({ caption: 'custom', captionText: '  Table\n4\t menu ' })).toBe('Table 4 menu');
  });

  it('estimates the printed caption height', () => {
    const short = captionPrintPt(3, 'qr.example.com/abc123');
    expect(short).toBeGreaterThan(5.5);
    expect(short).toBeLessThanOrEqual(6.1); // 3 cm / 14 = 2.14 mm = 6.07 pt at most
    expect(captionPrintPt(3, 'x'.repeat(80))).toBeLessThan(MIN_CAPTION_PT);
    expect(captionPrintPt(30, 'x'.repeat(80))).toBeGreaterThan(MIN_CAPTION_PT);
  });
});
