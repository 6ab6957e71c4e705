// What My QR Codes says about a code besides its picture: where a scan goes, and its scan figures.
import { decodeContent } from '../../../src/qr/content';
import { normalizeQrType } from '../../../src/qr/qr-types';
import { qrTypeCodecs } from '../../../src/qr/types/registry';
import type { QrCode } from '../../../src/qr/qr.schema';

/**
 * Where a scan of the code goes, or what it holds, on one line: the URL of a link code (for a dynamic code
 * the destination behind its short link), else the content as the type summarises it ('Cafe (WPA)').
 */
export function destinationOf(code: Pick<QrCode, 'type' | 'content'>): string {
  const type = normalizeQrType(code.type);
  const summary = qrTypeCodecs[type].describe(decodeContent(type, code.content));
  return summary.replace(/\s+/g, ' ').trim() || code.content.replace(/\s+/g, ' ').trim();
}

/** A code's scan figures as the list shows them; undefined while they load (or could not be read). */
export interface CodeScanFigures {
  scans: number;
  /** The latest scan's ISO time, null for none; undefined when the server does not say. */
  lastScanAt?: string | null;
}
