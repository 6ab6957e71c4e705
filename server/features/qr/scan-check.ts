/**
 * The server's scan-safety check: the same SVG the browser draws (renderQrSvgNode), rasterised by resvg at
 * the check sizes, decoded by zxing and judged by src/qr/scan-safety.ts. A logo at an external address is
 * never fetched by the server, so it is left out of the server's renders and its check (the designer's
 * check, which draws it, still covers it).
 */
import type { Customization } from '../../../src/qr/customization.js';
import {
  assessScan,
  CHECK_SIZE_PX,
  greyOnWhite,
  measureQuietZone,
  PRINT_CHECKS,
  type DecodeAttempt,
  type ScanCheck,
} from '../../../src/qr/scan-safety.js';
import { renderQrPixels, renderQrSvgNode, type ResolveLogo } from './qr-image.js';
import { decodeQrSymbol } from '../scan-safety/zxing.js';

/** Decodes one raster of `svg` `px` wide; the large one also measures the quiet zone. */
async function attemptAt(svg: string, px: number, measure: boolean): Promise<DecodeAttempt> {
  const image = renderQrPixels(svg, px);
  const symbol = await decodeQrSymbol(image);
  if (!symbol) return { px, text: null };
  return {
    px,
    text: symbol.text,
    inverted: symbol.inverted,
    quietZoneModules: measure
      ? measureQuietZone(greyOnWhite(image.data, symbol.inverted), image.width, image.height, symbol)
      : null,
  };
}

/** The verdict on an already rendered SVG that must decode to `expected`. */
export async function checkSvg(
  svg: string,
  expected: string,
  customization: Customization,
): Promise<ScanCheck> {
  const attempts = [await attemptAt(svg, CHECK_SIZE_PX, true)];
  if (attempts[0]!.text === expected) {
    // Smallest first; stop at the first print size that decodes.
    for (const { px } of PRINT_CHECKS) {
      const attempt = await attemptAt(svg, px, false);
      attempts.push(attempt);
      if (attempt.text === expected) break;
    }
  }
  return assessScan({ expected, customization, attempts });
}

/** The verdict on a design: rendered as the downloads are, then checked. */
export async function checkDesign(
  data: string,
  customization: Customization,
  resolveLogo?: ResolveLogo,
): Promise<ScanCheck> {
  const svg = await renderQrSvgNode(data, customization, CHECK_SIZE_PX, resolveLogo);
  return checkSvg(svg, data, customization);
}
