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
 *
 * Print-ready downloads (downloadQr's `print` argument, src/qr/print-size.ts): the PNG is drawn at the
 * pixel width of the chosen print width and DPI (the code rendered at that size, so modules fall on whole
 * pixels) and declares that DPI in a pHYs chunk; the SVG carries width/height in cm; the PDF is the code
 * exactly that wide plus the 10 mm margin. An optional caption is drawn under the code (src/qr/print-svg.ts):
 * in the PDF as real Helvetica text set by jsPDF under the svg2pdf vector code, or, when jsPDF's standard
 * fonts cannot set it (non-Latin-1 characters), as a 600 dpi image of the caption band.
 */
import QRCodeStyling from 'styled-qr-code';
import type { Customization } from '../../src/qr/customization';
import {
  backgroundOf,
  buildStyledOptions,
  frameLayout,
  hasLogo,
  normalizeStyledSvg,
  qrFileName,
  safeColor,
  wrapWithFrame,
} from '../../src/qr/render-options';
import { withPngDpi } from '../../src/qr/png-dpi';
import { MAX_PNG_PX, pixelsFor, printProblem } from '../../src/qr/print-size';
import {
  addCaption,
  CAPTION_FONT_RATIO,
  CAPTION_SIDE_MARGIN,
  captionBandSvg,
  captionLayout,
  captionPaint,
  isPdfTextSafe,
  normalizeCaption,
  sizeSvgInCm,
  type CaptionColours,
} from '../../src/qr/print-svg';
import { saveBlob } from './save-blob';
import { workspaceHeaders } from './trpc';

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
      headers: workspaceHeaders(),
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
 * top of this file). Patched once, before the first code is drawn, on its SVG class, reached through a probe instance, because the class
 * is not exported. Any other URL still goes through the original (we only ever pass data: URLs).
 */
let handed = false;
function handDataUrlsToRenderer() {
  if (handed) return;
  const probe = new QRCodeStyling({ type: 'svg', data: '0', width: 100, height: 100, margin: 0 });
  const proto = probe._svg ? (Object.getPrototypeOf(probe._svg) as RendererWithLogo) : null;
  if (!proto || typeof proto._getBase64Image !== 'function') {
    throw new Error('styled-qr-code changed: its SVG renderer has no _getBase64Image to hand logos to');
  }
  const original = proto._getBase64Image.bind(proto);
  proto._getBase64Image = function (this: RendererWithLogo, url: string) {
    return url.startsWith('data:') ? Promise.resolve(url) : original(url);
  };
  handed = true;
}

/** The QR code as an SVG string, `size × size` with its frame; same output as the server's renderer. */
export async function renderQrSvg(data: string, c: Customization, size: number): Promise<string> {
  const layout = frameLayout(size, c);
  const options = buildStyledOptions(data, c, layout.code.size);
  delete options.image;
  if (hasLogo(c) && c.logo) {
    const image = await loadLogo(c.logo.url.trim());
    if (image) options.image = image;
  }
  // Before the first code drawn, not as this module loads: the probe took about 100 ms of the move to
  // My QR Codes, whose list view draws no code.
  handDataUrlsToRenderer();
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

/** A print-ready download: the code `widthCm` wide (the PNG at `dpi`), `caption` printed under it or null. */
export interface PrintDownload {
  widthCm: number;
  dpi: number;
  caption: string | null;
}

/** Resolution of a caption drawn as an image in a PDF (non-Latin-1 text, see the top of this file). */
const PDF_CAPTION_DPI = 600;

function captionColours(c: Customization): CaptionColours {
  return { foreground: safeColor(c.foregroundColor, '#000000'), background: backgroundOf(c) };
}

const MM_PER_PT = 25.4 / 72;

/**
 * A vector PDF of the code `mm` wide with `caption` under it. The caption is set by jsPDF itself rather
 * than svg2pdf: svg2pdf centres text with the browser's metrics for the SVG font (Arial, or whatever the
 * system substitutes) while the PDF sets it in Helvetica, so a substitute with other widths would shift
 * it off centre; jsPDF centres and shrinks it with Helvetica's own metrics.
 */
async function svgToCaptionedPdfBlob(
  svg: string,
  mm: number,
  caption: string,
  colours: CaptionColours,
  widthCm: number,
): Promise<Blob> {
  const [{ jsPDF }, { svg2pdf }] = await Promise.all([import('jspdf'), import('svg2pdf.js')]);
  const { width, height } = svgSize(svg);
  const scale = mm / width;
  const codeH = height * scale;
  const layout = captionLayout(width, caption);
  const bandH = layout.bandHeight * scale;
  const doc = new jsPDF({
    unit: 'mm',
    format: [mm + 2 * PDF_MARGIN_MM, codeH + bandH + 2 * PDF_MARGIN_MM],
    orientation: mm > codeH + bandH ? 'landscape' : 'portrait',
    compress: true,
  });
  const element = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
  await svg2pdf(element, doc, { x: PDF_MARGIN_MM, y: PDF_MARGIN_MM, width: mm, height: codeH });
  const bandY = PDF_MARGIN_MM + codeH;
  if (isPdfTextSafe(caption)) {
    const { band, ink } = captionPaint(colours);
    doc.setFillColor(band);
    doc.rect(PDF_MARGIN_MM, bandY, mm, bandH, 'F');
    doc.setFont('helvetica', 'normal');
    const available = mm * (1 - 2 * CAPTION_SIDE_MARGIN);
    const sizeMm = Math.min(
      mm * CAPTION_FONT_RATIO,
      available / Math.max(0.01, doc.getStringUnitWidth(caption)),
    );
    doc.setFontSize(sizeMm / MM_PER_PT);
    doc.setTextColor(ink);
    doc.text(caption, PDF_MARGIN_MM + mm / 2, bandY + bandH / 2 + sizeMm * 0.35, { align: 'center' });
  } else {
    const bandPx = Math.min(MAX_PNG_PX, pixelsFor(widthCm, PDF_CAPTION_DPI));
    const image = await svgToPngBlob(captionBandSvg(width, caption, colours), bandPx);
    doc.addImage(new Uint8Array(await image.arrayBuffer()), 'PNG', PDF_MARGIN_MM, bandY, mm, bandH);
  }
  return doc.output('blob');
}

async function printBlob(
  format: 'png' | 'svg' | 'pdf',
  data: string,
  c: Customization,
  print: PrintDownload,
): Promise<Blob> {
  const problem = printProblem(format, print.widthCm, print.dpi);
  if (problem) throw new RangeError(problem);
  const caption = normalizeCaption(print.caption ?? '');
  const colours = captionColours(c);
  const withCaption = (svg: string) => (caption ? addCaption(svg, caption, colours) : svg);

  if (format === 'png') {
    const px = pixelsFor(print.widthCm, print.dpi);
    const svg = withCaption(await renderQrSvg(data, c, px));
    const png = await svgToPngBlob(svg, px);
    const bytes = withPngDpi(new Uint8Array(await png.arrayBuffer()), print.dpi);
    return new Blob([bytes], { type: 'image/png' });
  }
  const svg = await renderQrSvg(data, c, DOWNLOAD_PNG_PX);
  if (format === 'pdf') {
    const mm = print.widthCm * 10;
    return caption ? svgToCaptionedPdfBlob(svg, mm, caption, colours, print.widthCm) : svgToPdfBlob(svg, mm);
  }
  const sized = sizeSvgInCm(withCaption(svg), print.widthCm);
  return new Blob([`<?xml version="1.0" encoding="UTF-8"?>\n${sized}`], { type: 'image/svg+xml' });
}

/**
 * Renders and downloads the code, named after it (`cafe-menu.png`; see qrFileName). Without `print`:
 * PNG 1024 px, SVG, PDF 50 mm. With it: the print-ready files described at the top of this file.
 */
export async function downloadQr(
  format: 'png' | 'svg' | 'pdf',
  data: string,
  c: Customization,
  file: { name?: string; id?: number } = {},
  print?: PrintDownload,
): Promise<string> {
  let blob: Blob;
  if (print) {
    blob = await printBlob(format, data, c, print);
  } else {
    const svg = await renderQrSvg(data, c, DOWNLOAD_PNG_PX);
    if (format === 'png') {
      blob = await svgToPngBlob(svg, DOWNLOAD_PNG_PX);
    } else if (format === 'pdf') {
      blob = await svgToPdfBlob(svg, DOWNLOAD_PDF_MM);
    } else {
      blob = new Blob([`<?xml version="1.0" encoding="UTF-8"?>\n${svg}`], { type: 'image/svg+xml' });
    }
  }
  const fileName = qrFileName(format, file.name, file.id);
  saveBlob(blob, fileName);
  return fileName;
}
