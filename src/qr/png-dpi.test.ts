import { crc32 as nodeCrc32 } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { crc32, pixelsPerMetre, readPngDpi, readPngPhys, withPngDpi } from './png-dpi';

/** A real PNG, as an encoder writes it. */
function samplePng(): Uint8Array {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#fff"/>' +
    '<rect x="5" y="5" width="10" height="10" fill="#000"/></svg>';
  return new Uint8Array(new Resvg(svg, { logLevel: 'off' }).render().asPng());
}

/** Every chunk: its type and data, each CRC checked against Node's zlib. */
function parseChunks(png: Uint8Array): { type: string; data: Buffer }[] {
  const buf = Buffer.from(png);
  expect(buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const out: { type: string; data: Buffer }[] = [];
  let offset = 8;
  while (offset < buf.length) {
    const length = buf.readUInt32BE(offset);
    const typeAndData = buf.subarray(offset + 4, offset + 8 + length);
    expect(buf.readUInt32BE(offset + 8 + length), 'CRC').toBe(nodeCrc32(typeAndData));
    out.push({ type: typeAndData.subarray(0, 4).toString('latin1'), data: typeAndData.subarray(4) });
    offset += 12 + length;
  }
  expect(offset).toBe(buf.length);
  return out;
}

describe('crc32', () => {
  it('matches zlib and the known IEND CRC', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
    const bytes = new Uint8Array(1000).map((_, i) => (i * 37) % 256);
    expect(crc32(bytes)).toBe(nodeCrc32(bytes));
  });
});

describe('withPngDpi', () => {
  it('converts DPI to pixels per metre', () => {
    expect(pixelsPerMetre(300)).toBe(11811);
    expect(pixelsPerMetre(72)).toBe(2835);
    expect(pixelsPerMetre(96)).toBe(3780);
  });

  it('inserts a pHYs chunk right after IHDR that reads back as the DPI', () => {
    const png = samplePng();
    const before = parseChunks(png);
    const out = withPngDpi(png, 300);
    const after = parseChunks(out);

    expect(after[0]?.type).toBe('IHDR');
    expect(after[1]?.type).toBe('pHYs');
    const phys = after[1]!.data;
    expect(phys.length).toBe(9);
    expect(phys.readUInt32BE(0)).toBe(11811);
    expect(phys.readUInt32BE(4)).toBe(11811);
    expect(phys[8]).toBe(1); // metre
    expect(readPngPhys(out)).toEqual({ x: 11811, y: 11811, unit: 1, crcOk: true });
    expect(readPngDpi(out)).toBe(300);

    // Everything else, image data included, is carried over byte for byte and in order.
    const others = after.filter((c) => c.type !== 'pHYs');
    const original = before.filter((c) => c.type !== 'pHYs');
    expect(others.map((c) => c.type)).toEqual(original.map((c) => c.type));
    others.forEach((c, i) => expect(c.data.equals(original[i]!.data)).toBe(true));
    expect(others.at(-1)?.type).toBe('IEND');
  });

  it('replaces an earlier pHYs instead of adding a second one', () => {
    const out = withPngDpi(withPngDpi(samplePng(), 72), 600);
    expect(parseChunks(out).filter((c) => c.type === 'pHYs')).toHaveLength(1);
    expect(readPngDpi(out)).toBe(600);
  });

  it('reads null from a PNG without pHYs', () => {
    const png = samplePng();
    expect(parseChunks(png).map((c) => c.type)).not.toContain('pHYs'); // resvg, like canvas, writes none
    expect(readPngPhys(png)).toBeNull();
    expect(readPngDpi(png)).toBeNull();
  });

  it('refuses what is not a PNG, and a DPI that is not positive', () => {
    expect(() => withPngDpi(new TextEncoder().encode('GIF89a…'), 300)).toThrow('Not a PNG image');
    expect(() => withPngDpi(samplePng().subarray(0, 30), 300)).toThrow('Truncated PNG chunk');
    expect(() => withPngDpi(samplePng(), 0)).toThrow(RangeError);
    expect(() => withPngDpi(samplePng(), Number.NaN)).toThrow(RangeError);
  });
});
