/**
 * Browser QR rendering: the same render-options as the server (src/qr/render-options.ts), drawn by
 * styled-qr-code, plus conversions for the downloads.
 *
 * Logos are read once per URL and inlined as data: URLs before styled-qr-code sees them: own uploads
 * (/api/uploads/…) are fetched same-origin; an external http(s) logo is loaded as an image with CORS
 * (crossOrigin 'anonymous', allowed by the CSP's img-src, unlike a fetch() under connect-src 'self') and
 * redrawn to a PNG. A logo that cannot be loaded or decoded is left out — the code still renders
 * (styled-qr-code itself would wait forever for an image that never loads).
 *
 * styled-qr-code inlines a logo by fetch()ing its URL again (QRSVG._getBase64Image). Our logo is already a
 * data: URL, and the page's Content-Security-Policy (connect-src 'self') forbids fetching data: URLs: the
 * preview and every download broke on the first logo. So the renderer is handed the data: URL as it is
 * (handDataUrlsToRenderer below); the browser tests fail on any CSP violation, which guards this.
 *
 * Downloads: PNG 1024 px; SVG as a standalone file; PDF vector, the code DOWNLOAD_PDF_MM (50 mm) square
 * on a page that fits it with a 10 mm margin (70 × 70 mm), so it prints or places at its exact size.
 */
import QRCodeStyling from 'styled-qr-code';
import type { Customization } from '../../../src/qr/customization';
import {
  buildStyledOptions,
  frameLayout,
  hasLogo,
  normalizeStyledSvg,
  qrFileName,
  wrapWithFrame,
} from '../../../src/qr/render-options';
import { saveBlob } from '../../lib/save-blob';

export const DOWNLOAD_PNG_PX = 1024;
export const DOWNLOAD_PDF_MM = 50;
const PDF_MARGIN_MM = 10;
const LOGO_TIMEOUT_MS = 8000;
const LOGO_CACHE_MAX = 20;

const logoCache = new Map<string, Promise<string | null>>();

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('read'));
    reader.onerror = () => reject(reader.error ?? new Error('read'));
    reader.readAsDataURL(blob);
  });
}

/** Resolves when the browser can decode the image, so styled-qr-code's loader cannot hang on it. */
function canDecode(src: string): Promise<boolean> {
  return new Promise((resolve) => {
    const img = new Image();
    const timer = setTimeout(() => resolve(false), LOGO_TIMEOUT_MS);
    img.onload = () => {
      clearTimeout(timer);
      resolve(img.naturalWidth > 0 && img.naturalHeight > 0);
    };
    img.onerror = () => {
      clearTimeout(timer);
      resolve(false);
    };
    img.src = src;
  });
}

/** An external logo, loaded as an image (CORS) and redrawn to a PNG data: URL; null when refused. */
function externalLogo(url: string): Promise<string | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    const timer = setTimeout(() => resolve(null), LOGO_TIMEOUT_MS);
    img.onerror = () => {
      clearTimeout(timer);
      resolve(null);
    };
    img.onload = () => {
      clearTimeout(timer);
      try {
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        canvas.getContext('2d')?.drawImage(img, 0, 0);
        resolve(img.naturalWidth > 0 ? canvas.toDataURL('image/png') : null);
      } catch {
        resolve(null); // a tainted canvas: the server did not allow CORS
      }
    };
    img.src = url;
  });
}

async function fetchLogo(url: string): Promise<string | null> {
  if (url.startsWith('data:image/')) return (await canDecode(url)) ? url : null;
  if (/^https?:\/\//i.test(url)) return externalLogo(url);
  if (!url.startsWith('/api/uploads/')) return null;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), LOGO_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      mode: 'same-origin',
      credentials: 'same-origin',
      signal: controller.signal,
    });
    if (!response.ok) return null;
    const blob = await response.blob();
    if (!blob.type.startsWith('image/')) return null;
    const dataUrl = await blobToDataUrl(blob);
    return (await canDecode(dataUrl)) ? dataUrl : null;
  } catch {
    return null; // network error, timeout: render without the logo
  } finally {
    clearTimeout(timer);
  }
}

/** The logo as a data: URL (cached per URL), or null when it cannot be used. */
export function loadLogo(url: string): Promise<string | null> {
  const cached = logoCache.get(url);
  if (cached) return cached;
  const promise = fetchLogo(url);
  logoCache.set(url, promise);
  // Failures are retried on a later render; successes stay (up to LOGO_CACHE_MAX URLs).
  void promise.then((value) => {
    if (value === null) logoCache.delete(url);
  });
  while (logoCache.size > LOGO_CACHE_MAX) {
    const oldest = logoCache.keys().next().value;
    if (oldest === undefined) break;
    logoCache.delete(oldest);
  }
  return promise;
}

interface RendererWithLogo {
  _getBase64Image(url: string): Promise<string>;
}

/**
 * Makes styled-qr-code's SVG renderer use a data: URL logo as it is instead of fetch()ing it (see the
 * top of this file). Patched once on its SVG class, reached through a probe instance, because the class
 * is not exported. Any other URL still goes through the original (we only ever pass data: URLs).
 */
function handDataUrlsToRenderer() {
  const probe = new QRCodeStyling({ type: 'svg', data: '0', width: 100, height: 100, margin: 0 });
  const proto = probe._svg ? (Object.getPrototypeOf(probe._svg) as RendererWithLogo) : null;
  if (!proto || typeof proto._getBase64Image !== 'function') {
    throw new Error('styled-qr-code changed: its SVG renderer has no _getBase64Image to hand logos to');
  }
  const original = proto._getBase64Image.bind(proto);
  proto._getBase64Image = function (this: RendererWithLogo, url: string) {
    return url.startsWith('data:') ? Promise.resolve(url) : original(url);
  };
}
handDataUrlsToRenderer();

/** The QR code as an SVG string, `size × size` with its frame; same output as the server's renderer. */
export async function renderQrSvg(data: string, c: Customization, size: number): Promise<string> {
  const layout = frameLayout(size, c);
  const options = buildStyledOptions(data, c, layout.code.size);
  delete options.image;
  if (hasLogo(c) && c.logo) {
    const image = await loadLogo(c.logo.url.trim());
    if (image) options.image = image;
  }
  const qr = new QRCodeStyling(options);
  const blob = await qr.getRawData('svg');
  if (!blob) throw new Error('Could not render the QR code');
  const raw = await blob.text();
  return wrapWithFrame(normalizeStyledSvg(raw, c), c, size);
}

function svgSize(svg: string): { width: number; height: number } {
  const tag = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const width = Number(/\swidth="([0-9.]+)/.exec(tag)?.[1] ?? 0) || 1;
  const height = Number(/\sheight="([0-9.]+)/.exec(tag)?.[1] ?? 0) || width;
  return { width, height };
}

/** Rasterises an SVG string to a PNG `pixelSize` pixels wide (height keeps the aspect ratio). */
export async function svgToPngBlob(svg: string, pixelSize: number): Promise<Blob> {
  const { width, height } = svgSize(svg);
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(pixelSize);
  canvas.height = Math.round((pixelSize * height) / width);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Canvas is not available');
  context.imageSmoothingEnabled = true;
  context.drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('Could not create the PNG'))),
      'image/png',
    ),
  );
}

/** A vector PDF: the code `mmSize` mm square on a page that fits it with a 10 mm margin. */
export async function svgToPdfBlob(svg: string, mmSize: number = DOWNLOAD_PDF_MM): Promise<Blob> {
  const [{ jsPDF }, { svg2pdf }] = await Promise.all([import('jspdf'), import('svg2pdf.js')]);
  const { width, height } = svgSize(svg);
  const w = mmSize;
  const h = (mmSize * height) / width;
  const doc = new jsPDF({
    unit: 'mm',
    format: [w + 2 * PDF_MARGIN_MM, h + 2 * PDF_MARGIN_MM],
    orientation: w > h ? 'landscape' : 'portrait',
    compress: true,
  });
  const element = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
  await svg2pdf(element, doc, { x: PDF_MARGIN_MM, y: PDF_MARGIN_MM, width: w, height: h });
  return doc.output('blob');
}

/** Renders and downloads the code, named after it (`cafe-menu.png`; see qrFileName). */
export async function downloadQr(
  format: 'png' | 'svg' | 'pdf',
  data: string,
  c: Customization,
  file: { name?: string; id?: number } = {},
): Promise<string> {
  const svg = await renderQrSvg(data, c, DOWNLOAD_PNG_PX);
  let blob: Blob;
  if (format === 'png') {
    blob = await svgToPngBlob(svg, DOWNLOAD_PNG_PX);
  } else if (format === 'pdf') {
    blob = await svgToPdfBlob(svg, DOWNLOAD_PDF_MM);
  } else {
    blob = new Blob([`<?xml version="1.0" encoding="UTF-8"?>\n${svg}`], { type: 'image/svg+xml' });
  }
  const fileName = qrFileName(format, file.name, file.id);
  saveBlob(blob, fileName);
  return fileName;
}
