import { readCustomization } from '../../../src/qr/customization.js';
import { scanVerdicts, type ScanVerdict } from '../../../src/qr/scan-safety.js';
import { readSmartRedirect } from '../../../src/qr/smart-redirect.js';
import { normalizeQrType } from '../../../src/qr/qr-types.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { toIso, type QrCodeRow } from '../../db/database.js';
import type { ShortLinks } from '../domains/short-domains.registry.js';

/** The short link on the app's own address, which answers for every code whatever its domain. */
export function shortUrlOf(publicUrl: string, slug: string): string {
  return `${publicUrl}/r/${slug}`;
}

/** A code as the APIs answer it; its short link on its domain (`links`: server/features/domains). */
export function toQrCode(row: QrCodeRow, links: ShortLinks): QrCode {
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
    shortUrl: dynamic && row.slug ? links.shortUrl(row.slug, row.domain_id) : null,
    domainId: dynamic && row.domain_id !== null && row.domain_id !== undefined ? Number(row.domain_id) : null,
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
