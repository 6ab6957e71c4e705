import type { User } from '../../../src/auth/auth.schema.js';
import { redirectExportFiles, type RedirectExportInput } from '../../../src/qr/redirect-export.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { listDynamicCodesOf } from './qr.repository.js';
import { redirectTableOf, renderRedirectTable } from './redirect-export.js';
import { shortDomainsOf } from '../domains/short-domains.registry.js';
import { oldSlugsOfOwner } from './slug.js';

export interface RedirectExport {
  body: string;
  contentType: string;
  fileName: string;
}

/** The caller's own redirect table in one of the four formats (only their codes: the query names them). */
export async function exportRedirects(
  deps: AppDeps,
  user: User,
  input: RedirectExportInput,
): Promise<RedirectExport> {
  const codes = await listDynamicCodesOf(deps.db, user.id);
  // A code's old slugs (kept because it had scans, and may be printed) redirect as it does.
  const oldSlugs = await oldSlugsOfOwner(deps.db, user.id);
  const domains = shortDomainsOf(deps.db);
  const rows = codes
    .map((code) => ({
      ...code,
      domainHost: code.domainId === null ? null : (domains.get(Number(code.domainId))?.hostname ?? null),
    }))
    .flatMap((code) => [code, ...(oldSlugs.get(code.id) ?? []).map((slug) => ({ ...code, slug }))]);
  const table = redirectTableOf(
    deps.config.publicUrl,
    rows,
    deps.clock.now(),
    shortDomainsOf(deps.db).isShortDomain,
  );
  return {
    ...renderRedirectTable(table, input.format),
    fileName: redirectExportFiles[input.format].fileName,
  };
}
