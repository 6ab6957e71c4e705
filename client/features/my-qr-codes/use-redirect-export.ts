import { useCallback, useState } from 'react';
import { redirectExportFiles, type RedirectExportFormat } from '../../../src/qr/redirect-export.schema';
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
      notify.success('Redirects Exported', `${label}: ${fileName}`);
    } catch (error) {
      notify.error(
        'Export Failed',
        error instanceof TypeError
          ? 'The server could not be reached. Please try again.'
          : error instanceof Error && error.message
            ? error.message
            : 'The redirects could not be exported.',
      );
    } finally {
      setPending(null);
    }
  }, []);

  return { download, pending };
}
