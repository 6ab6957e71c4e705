/**
 * The PNG's physical resolution (its pHYs chunk), so print and layout software place a 300 dpi download
 * at its intended size instead of assuming 72 or 96 dpi. Canvas encoders write no pHYs; this inserts one
 * right after IHDR (the specification wants it before the first IDAT) and drops any existing one.
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const METRES_PER_INCH = 0.0254;

let crcTable: Uint32Array | null = null;

/** CRC-32 (ISO 3309, as PNG uses) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

interface Chunk {
  type: string;
  /** Offset of the chunk (its length field) and its total size, length to CRC. */
  start: number;
  size: number;
  data: Uint8Array;
}

function chunks(png: Uint8Array): Chunk[] {
  if (png.length < 8 || SIGNATURE.some((b, i) => png[i] !== b)) throw new Error('Not a PNG image');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const list: Chunk[] = [];
  let offset = 8;
  while (offset + 12 <= png.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    if (offset + 12 + length > png.length) throw new Error('Truncated PNG chunk');
    list.push({
      type,
      start: offset,
      size: 12 + length,
      data: png.subarray(offset + 8, offset + 8 + length),
    });
    offset += 12 + length;
    if (type === 'IEND') break;
  }
  if (list[0]?.type !== 'IHDR') throw new Error('PNG without IHDR');
  return list;
}

/** Pixels per metre for `dpi` (300 dpi → 11811). */
export function pixelsPerMetre(dpi: number): number {
  return Math.round(dpi / METRES_PER_INCH);
}

function physChunk(dpi: number): Uint8Array {
  const ppm = pixelsPerMetre(dpi);
  const chunk = new Uint8Array(4 + 4 + 9 + 4);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, 9);
  chunk.set([0x70, 0x48, 0x59, 0x73], 4); // 'pHYs'
  view.setUint32(8, ppm);
  view.setUint32(12, ppm);
  chunk[16] = 1; // unit: metre
  view.setUint32(17, crc32(chunk.subarray(4, 17)));
  return chunk;
}

/** `png` with a pHYs chunk saying `dpi` (both axes); any earlier pHYs is replaced. */
export function withPngDpi(png: Uint8Array, dpi: number): Uint8Array<ArrayBuffer> {
  if (!(dpi > 0) || !Number.isFinite(dpi)) throw new RangeError('DPI must be a positive number');
  const list = chunks(png);
  const ihdr = list[0]!;
  const phys = physChunk(dpi);
  const kept = list.slice(1).filter((c) => c.type !== 'pHYs');
  const head = png.subarray(0, ihdr.start + ihdr.size);
  const tailEnd = (list.at(-1)?.start ?? 0) + (list.at(-1)?.size ?? 0);
  const size = head.length + phys.length + kept.reduce((n, c) => n + c.size, 0) + (png.length - tailEnd);
  const out = new Uint8Array(size);
  out.set(head, 0);
  let offset = head.length;
  out.set(phys, offset);
  offset += phys.length;
  for (const c of kept) {
    out.set(png.subarray(c.start, c.start + c.size), offset);
    offset += c.size;
  }
  out.set(png.subarray(tailEnd), offset);
  return out;
}

/** The resolution a PNG declares: pixels per unit on each axis, the unit (1 = metre), or null without pHYs. */
export function readPngPhys(png: Uint8Array): { x: number; y: number; unit: number; crcOk: boolean } | null {
  const chunk = chunks(png).find((c) => c.type === 'pHYs');
  if (!chunk || chunk.data.length !== 9) return null;
  const view = new DataView(chunk.data.buffer, chunk.data.byteOffset, 9);
  const stored = new DataView(png.buffer, png.byteOffset + chunk.start + chunk.size - 4, 4).getUint32(0);
  return {
    x: view.getUint32(0),
    y: view.getUint32(4),
    unit: view.getUint8(8),
    crcOk: stored === crc32(png.subarray(chunk.start + 4, chunk.start + chunk.size - 4)),
  };
}

/** The DPI a PNG declares (rounded), or null when it declares none in metres. */
export function readPngDpi(png: Uint8Array): number | null {
  const phys = readPngPhys(png);
  return phys && phys.unit === 1 ? Math.round(phys.x * METRES_PER_INCH) : null;
}
