import { readCustomization } from '../../../src/qr/customization.js';
import { scanVerdicts, type ScanVerdict } from '../../../src/qr/scan-safety.js';
import { readSmartRedirect } from '../../../src/qr/smart-redirect.js';
import { normalizeQrType } from '../../../src/qr/qr-types.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { toIso, type QrCodeRow } from '../../db/database.js';

export function shortUrlOf(publicUrl: string, slug: string): string {
  return `${publicUrl}/r/${slug}`;
}

export function toQrCode(row: QrCodeRow, publicUrl: string): QrCode {
  const customization =
    typeof row.customization === 'string' ? (JSON.parse(row.customization) as unknown) : row.customization;
  const dynamic = Boolean(row.is_dynamic);
  return {
    id: row.id,
    name: row.name,
    type: normalizeQrType(row.type),
    content: row.content,
    isDynamic: dynamic,
    customization: readCustomization(customization),
    userId: row.user_id,
    folderId: row.folder_id,
    slug: dynamic ? row.slug : null,
    shortUrl: dynamic && row.slug ? shortUrlOf(publicUrl, row.slug) : null,
    created: toIso(row.created),
    updated: toIso(row.updated),
    scannable: scannableOf(row.scan_verdict, row.scan_reason),
    redirectOptions: dynamic ? readSmartRedirect(row.redirect_options) : null,
    hasPassword: dynamic && Boolean(row.password_hash),
  };
}

function scannableOf(
  verdict: string | null | undefined,
  reason: string | null | undefined,
): QrCode['scannable'] {
  return verdict && (scanVerdicts as readonly string[]).includes(verdict)
    ? { verdict: verdict as ScanVerdict, reason: reason ?? '' }
    : null;
}
