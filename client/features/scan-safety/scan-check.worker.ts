/**
 * The designer's decoder, off the main thread: zxing-wasm, its wasm served from our own origin (bundled by
 * Vite as an asset; the library's default would fetch it from a CDN). Decodes the rasters the page sends,
 * the large one first; the small print sizes only while none has decoded yet.
 */
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { greyOnWhite, measureQuietZone, type DecodeAttempt } from '../../../src/qr/scan-safety';

export interface ScanCheckRequest {
  id: number;
  expected: string;
  /** RGBA on white; the first is the large render, then the print sizes smallest first. */
  rasters: { px: number; width: number; height: number; data: Uint8ClampedArray }[];
}

export interface ScanCheckResponse {
  id: number;
  attempts: DecodeAttempt[];
  error?: string;
}

prepareZXingModule({
  overrides: {
    locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
  },
});

async function decode(raster: ScanCheckRequest['rasters'][number], measure: boolean): Promise<DecodeAttempt> {
  const [found] = (
    await readBarcodes({ data: raster.data, width: raster.width, height: raster.height } as ImageData, {
      formats: ['QRCode'],
      maxNumberOfSymbols: 1,
      tryInvert: true,
    })
  ).filter((r) => r.isValid);
  if (!found) return { px: raster.px, text: null };
  const { topLeft, topRight, bottomRight, bottomLeft } = found.position;
  return {
    px: raster.px,
    text: found.text,
    inverted: found.isInverted,
    quietZoneModules: measure
      ? measureQuietZone(greyOnWhite(raster.data, found.isInverted), raster.width, raster.height, {
          points: [topLeft, topRight, bottomRight, bottomLeft],
          version: Number.parseInt(found.version, 10) || 0,
        })
      : null,
  };
}

self.onmessage = async (event: MessageEvent<ScanCheckRequest>) => {
  const { id, expected, rasters } = event.data;
  try {
    const [large, ...small] = rasters;
    const attempts: DecodeAttempt[] = [];
    if (large) attempts.push(await decode(large, true));
    if (attempts[0]?.text === expected) {
      for (const raster of small) {
        const attempt = await decode(raster, false);
        attempts.push(attempt);
        if (attempt.text === expected) break;
      }
    }
    self.postMessage({ id, attempts } satisfies ScanCheckResponse);
  } catch (error) {
    self.postMessage({ id, attempts: [], error: String(error) } satisfies ScanCheckResponse);
  }
};
