import { t } from '@lingui/core/macro';
import { useCallback, useState } from 'react';
import { redirectExportFiles, type RedirectExportFormat } from '../../../src/qr/redirect-export.schema';
import { translateShared } from '../../i18n/shared-messages';
import { failureMessage } from '../../lib/failure-message';
import { notify } from '../../lib/notify';
import { saveBlob } from '../../lib/save-blob';
import { workspaceHeaders } from '../../lib/trpc';

/**
 * GET /api/qr-codes/redirects/export as a file (a download, like the analytics report, so a plain
 * fetch rather than tRPC), saved under the format's file name. Failures become a toast.
 */
export function useRedirectExport() {
  const [pending, setPending] = useState<RedirectExportFormat | null>(null);

  const download = useCallback(async (format: RedirectExportFormat) => {
    setPending(format);
    const { fileName, label } = redirectExportFiles[format];
    try {
      // The current workspace's codes (X-Workspace), not those of the workspace the server remembers.
      const res = await fetch(`/api/qr-codes/redirects/export?format=${format}`, {
        credentials: 'same-origin',
        headers: workspaceHeaders(),
      });
      if (!res.ok) throw new Error(await failureMessage(res));
      // A neutral type: Chrome would save a text/plain `Caddyfile` or `_redirects` as `….txt`.
      const blob = new Blob([await res.arrayBuffer()], { type: 'application/octet-stream' });
      saveBlob(blob, fileName);
      notify.success(t`Redirects Exported`, `${translateShared(label)}: ${fileName}`);
    } catch (error) {
      notify.error(
        t`Export Failed`,
        error instanceof TypeError
          ? t`The server could not be reached. Please try again.`
          : error instanceof Error && error.message
            ? translateShared(error.message)
            : t`The redirects could not be exported.`,
      );
    } finally {
      setPending(null);
    }
  }, []);

  return { download, pending };
}
