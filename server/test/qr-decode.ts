import { zxingReader } from '../features/scan-safety/zxing.js';

/** The texts of the valid QR codes found in a PNG (tests: "does this image scan, and to what?"). */
export async function decodeQr(png: Buffer): Promise<string[]> {
  const { readBarcodes } = await zxingReader();
  const results = await readBarcodes(new Uint8Array(png), { formats: ['QRCode'], maxNumberOfSymbols: 1 });
  return results.filter((r) => r.isValid).map((r) => r.text);
}
