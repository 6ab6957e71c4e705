/**
 * The designer's scan-safety check: the preview's own SVG (renderQrSvg, the same as the downloads)
 * rasterised on white at the check sizes, decoded in a worker (scan-check.worker.ts) and judged by
 * src/qr/scan-safety.ts, exactly as the server judges its renders. Each check is timed
 * (performance.measure 'qr-scan-check', and 'qr-scan-check:decode' for the worker's part), so the decode
 * time per preview can be read off a real page (npm run bench:scan-check).
 */
import type { Customization } from '../../../src/qr/customization';
import { assessScan, CHECK_SIZE_PX, PRINT_CHECKS, type ScanCheck } from '../../../src/qr/scan-safety';
import { renderQrSvg } from '../../lib/qr-render';
import type { ScanCheckRequest, ScanCheckResponse } from './scan-check.worker';

export const SCAN_CHECK_MEASURE = 'qr-scan-check';
/** The worker's part of it: the decodes, off the main thread. */
export const SCAN_DECODE_MEASURE = 'qr-scan-check:decode';

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (response: ScanCheckResponse) => void>();

function getWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./scan-check.worker.ts', import.meta.url), {
    type: 'module',
    name: 'scan-check',
  });
  worker.onmessage = (event: MessageEvent<ScanCheckResponse>) => {
    const resolve = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    resolve?.(event.data);
  };
  worker.onerror = () => {
    // A worker that failed to start answers nothing: fail every pending check, start afresh next time.
    for (const resolve of waiting.values()) resolve({ id: 0, attempts: [], error: 'The decoder failed' });
    waiting.clear();
    worker?.terminate();
    worker = null;
  };
  return worker;
}

async function rasterise(svg: string): Promise<ScanCheckRequest['rasters']> {
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  const ratio = img.naturalHeight > 0 && img.naturalWidth > 0 ? img.naturalHeight / img.naturalWidth : 1;
  return [CHECK_SIZE_PX, ...PRINT_CHECKS.map((p) => p.px)].map((px) => {
    const canvas = document.createElement('canvas');
    canvas.width = px;
    canvas.height = Math.round(px * ratio);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('Canvas is not available');
    context.fillStyle = '#FFFFFF';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.imageSmoothingEnabled = true;
    context.drawImage(img, 0, 0, canvas.width, canvas.height);
    const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
    return { px, width, height, data };
  });
}

/** Renders, decodes (in the worker) and judges one design that must decode to `data`. */
export async function checkInBrowser(data: string, customization: Customization): Promise<ScanCheck> {
  const start = performance.now();
  const svg = await renderQrSvg(data, customization, CHECK_SIZE_PX);
  const rasters = await rasterise(svg);
  const id = nextId++;
  const decodeStart = performance.now();
  const response = await new Promise<ScanCheckResponse>((resolve) => {
    waiting.set(id, resolve);
    getWorker().postMessage({ id, expected: data, rasters } satisfies ScanCheckRequest, {
      transfer: rasters.map((r) => r.data.buffer as ArrayBuffer),
    });
  });
  if (response.error) throw new Error(response.error);
  const end = performance.now();
  performance.measure(SCAN_CHECK_MEASURE, { start, end });
  performance.measure(SCAN_DECODE_MEASURE, { start: decodeStart, end });
  return assessScan({ expected: data, customization, attempts: response.attempts });
}
