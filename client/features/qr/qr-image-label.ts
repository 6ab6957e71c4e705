import { describeContent } from '../../../src/qr/content';
import type { QrCode } from '../../../src/qr/qr.schema';
import { normalizeQrType, qrTypeLabels } from '../../../src/qr/qr-types';

/**
 * The alt text of a saved code's picture: its name, its type and what a scan gets. A dynamic code
 * encodes its short link (the destination can change behind it), so that is what it names; a static
 * code names its content, summarised as the details page shows it.
 */
export function qrImageLabel(code: Pick<QrCode, 'name' | 'type' | 'content' | 'shortUrl'>): string {
  if (code.shortUrl) {
    const type = qrTypeLabels[normalizeQrType(code.type)];
    return `QR code for ${code.name}: dynamic ${type} code, encodes ${code.shortUrl}`;
  }
  return `QR code for ${code.name}: static code, encodes ${describeContent(code.type, code.content)}`;
}
