import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

let ready: Promise<unknown> | undefined;

/** zxing-wasm with its wasm read from the package (by default it would fetch it from a CDN). */
function prepare() {
  ready ??= (() => {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
    return prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  return ready;
}

/** The texts of the valid QR codes found in a PNG (tests: "does this image scan, and to what?"). */
export async function decodeQr(png: Buffer): Promise<string[]> {
  await prepare();
  const results = await readBarcodes(new Uint8Array(png), { formats: ['QRCode'], maxNumberOfSymbols: 1 });
  return results.filter((r) => r.isValid).map((r) => r.text);
}
