/**
 * zxing-wasm on the server: its wasm read from the package on first use (by default the library would
 * fetch it from a CDN; the server never reaches out).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as ReaderModule from 'zxing-wasm/reader';

let ready: Promise<typeof ReaderModule> | undefined;

export function zxingReader(): Promise<typeof ReaderModule> {
  ready ??= (async () => {
    const reader = await import('zxing-wasm/reader');
    const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
    await reader.prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
    return reader;
  })();
  return ready;
}

export interface DecodedSymbol {
  text: string;
  inverted: boolean;
  points: { x: number; y: number }[];
  version: number;
}

/** Decodes one QR code from an image file (PNG…) or from RGBA pixels; null when none decodes. */
export async function decodeQrSymbol(
  input: Uint8Array | { data: Uint8Array | Uint8ClampedArray; width: number; height: number },
): Promise<DecodedSymbol | null> {
  const { readBarcodes } = await zxingReader();
  const results = await readBarcodes(input as Uint8Array, {
    formats: ['QRCode'],
    maxNumberOfSymbols: 1,
    tryInvert: true,
  });
  const found = results.find((r) => r.isValid);
  if (!found) return null;
  const { topLeft, topRight, bottomRight, bottomLeft } = found.position;
  return {
    text: found.text,
    inverted: found.isInverted,
    points: [topLeft, topRight, bottomRight, bottomLeft],
    version: Number.parseInt(found.version, 10) || 0,
  };
}
