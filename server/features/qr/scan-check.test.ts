/**
 * The scan-safety verdicts on a matrix of designs, each checked against a second, independent decoder:
 * zbar (Debian's zbarimg) reads the same renders. A verdict of Scannable on an image zbar cannot read (at
 * full size and at the smallest print size the check names) fails; Risky must still decode; Won't scan
 * must not decode with either reader.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { customizationSchema, type Customization } from '../../../src/qr/customization';
import { CHECK_SIZE_PX, applyScanFix, type ScanCheck } from '../../../src/qr/scan-safety';
import { decodeQr } from '../../test/qr-decode';
import { renderQrPng, renderQrSvgNode } from './qr-image';
import { checkSvg } from './scan-check';

const zbar = spawnSync('zbarimg', ['--version']).status === 0;
const dir = mkdtempSync(path.join(tmpdir(), 'scan-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What zbar reads from the SVG rasterised `px` wide (null: nothing). */
function zbarRead(svg: string, px: number): string | null {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.png`);
  writeFileSync(file, renderQrPng(svg, px));
  const result = spawnSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', file], {
    encoding: 'utf8',
  });
  return result.status === 0 ? result.stdout.replace(/\n$/, '') : null;
}

const design = (c: Partial<Customization>) => customizationSchema.parse(c);
const URL_DATA = 'https://example.com/menu/spring';

/** The viewBox cropped by `inset` px on every side: the render loses its light margin. */
function cropped(svg: string, inset: number): string {
  return svg.replace(/viewBox="0 0 (\d+) (\d+)"/, (_, w: string, h: string) => {
    return `viewBox="${inset} ${inset} ${Number(w) - 2 * inset} ${Number(h) - 2 * inset}"`;
  });
}

/** A logo far past the error-correction budget: a solid block over the middle 45 % of the code. */
function withOversizedLogo(svg: string): string {
  const side = CHECK_SIZE_PX * 0.45;
  const at = (CHECK_SIZE_PX - side) / 2;
  return svg.replace(
    /<\/svg>\s*$/,
    `<rect x="${at}" y="${at}" width="${side}" height="${side}" fill="#E11D48"/></svg>`,
  );
}

interface Case {
  name: string;
  data: string;
  customization: Customization;
  /** Post-processing of the render the check sees (a design our own designer cannot make). */
  tamper?: (svg: string) => string;
  expected: ScanCheck['verdict'][];
  reason?: RegExp;
  fix?: string;
}

const matrix: Case[] = [
  { name: 'good: black on white', data: URL_DATA, customization: design({}), expected: ['scannable'] },
  {
    name: 'good: blue rounded with a frame',
    data: URL_DATA,
    customization: design({
      foregroundColor: '#1D4ED8',
      style: 'rounded',
      frame: { enabled: true, text: 'Scan Me', style: 'rounded', color: '#1D4ED8' },
    }),
    expected: ['scannable'],
  },
  {
    name: 'low contrast: light grey on white',
    data: URL_DATA,
    customization: design({ foregroundColor: '#DDDDDD' }),
    expected: ['risky', 'unscannable'],
    reason: /differ by only \d+ % in brightness/,
    fix: 'darken-foreground',
  },
  {
    name: 'inverted: white on black',
    data: URL_DATA,
    customization: design({ foregroundColor: '#FFFFFF', backgroundColor: '#000000' }),
    expected: ['risky'],
    reason: /lighter than its background/,
    fix: 'swap-colours',
  },
  {
    name: 'oversized logo',
    data: URL_DATA,
    customization: design({ logo: { url: '/api/uploads/logo', size: 80 } }),
    tamper: withOversizedLogo,
    expected: ['unscannable'],
    reason: /No scanner could read it/,
    fix: 'shrink-logo',
  },
  {
    name: 'tiny quiet zone',
    data: URL_DATA,
    customization: design({}),
    tamper: (svg) => cropped(svg, 30),
    expected: ['risky', 'unscannable'],
  },
  {
    name: 'long content: only large prints',
    data: `https://example.com/${'campaign-'.repeat(40)}`,
    customization: design({ errorCorrectionLevel: 'H' }),
    expected: ['risky'],
    reason: /Only (prints at least \d cm wide|large prints) will scan/,
    fix: 'lower-error-correction',
  },
];

describe('scan-safety verdicts, checked against zbar', () => {
  for (const c of matrix) {
    it.skipIf(!zbar)(`${c.name}${zbar ? '' : ' (skipped: zbarimg not installed)'}`, async () => {
      const base = await renderQrSvgNode(c.data, c.customization, CHECK_SIZE_PX);
      const svg = c.tamper ? c.tamper(base) : base;
      const check = await checkSvg(svg, c.data, c.customization);
      expect(c.expected, JSON.stringify(check)).toContain(check.verdict);
      if (c.reason) expect(check.reasons.join(' ')).toMatch(c.reason);
      if (c.fix) expect(check.fixes.map((f) => f.id)).toContain(c.fix);
      expect(check.reasons.length).toBeGreaterThan(0);
      // A print size that failed is what the print-ready dialog warns about (designPrintWarning).
      expect(check.failedPrintCm !== null, JSON.stringify(check)).toBe(
        /Only (prints|large)/.test(check.reasons.join(' ')),
      );

      const png = renderQrPng(svg, CHECK_SIZE_PX);
      if (check.verdict === 'unscannable') {
        expect(zbarRead(svg, CHECK_SIZE_PX), 'zbar reads what the check says will not scan').not.toBe(c.data);
        expect(await decodeQr(png)).not.toContain(c.data);
      } else {
        // Risky still decodes (from the PNG file, not the check's pixels); zbar, a simpler reader, may
        // not: it never tries an inverted code, which is exactly why that design is risky.
        expect(await decodeQr(png), 'the check says it decodes, zxing cannot read the PNG').toEqual([c.data]);
      }
      if (check.verdict === 'scannable') {
        // Scannable: zbar reads it too, at full size and at the smallest print size the check names.
        expect(zbarRead(svg, CHECK_SIZE_PX), 'the check says it scans, zbar cannot read it').toBe(c.data);
        expect(check.minPrintCm).not.toBeNull();
        expect(zbarRead(svg, Math.round((check.minPrintCm! / 2.54) * 300))).toBe(c.data);
      }
    });
  }

  it.skipIf(!zbar)('each one-click fix turns its risky design into a scannable one', async () => {
    const cases: [Customization, string][] = [
      [design({ foregroundColor: '#DDDDDD' }), 'darken-foreground'],
      [design({ foregroundColor: '#FFFFFF', backgroundColor: '#1F2937' }), 'swap-colours'],
    ];
    for (const [before, fixId] of cases) {
      const first = await checkSvg(await renderQrSvgNode(URL_DATA, before, CHECK_SIZE_PX), URL_DATA, before);
      expect(first.fixes.map((f) => f.id)).toContain(fixId);
      const after = applyScanFix(first.fixes.find((f) => f.id === fixId)!.id, before);
      const svg = await renderQrSvgNode(URL_DATA, after, CHECK_SIZE_PX);
      const second = await checkSvg(svg, URL_DATA, after);
      expect(second.verdict, JSON.stringify({ after, second })).toBe('scannable');
      expect(zbarRead(svg, CHECK_SIZE_PX)).toBe(URL_DATA);
    }
  });

  it('a content that differs from the image is never scannable', async () => {
    const svg = await renderQrSvgNode(URL_DATA, design({}), CHECK_SIZE_PX);
    const check = await checkSvg(svg, 'https://example.com/other', design({}));
    expect(check.verdict).toBe('unscannable');
    expect(check.reasons[0]).toBe('It reads as different content from what you entered.');
  });
});

// zbar is a real dependency of this file: say so when it is missing rather than pass quietly.
if (!zbar) {
  describe('zbar', () => {
    it.skip('zbarimg is not installed (apt-get install zbar-tools); the verdict matrix was skipped', () => {
      execFileSync('zbarimg', ['--version']);
    });
  });
}
