// The toasts' words are translated when they show (Lingui's global i18n, active by then).
import { t } from '@lingui/core/macro';
import { useCallback, useEffect, useRef, useState } from 'react';
import { reportFileName, type ReportFormat, type ReportType } from '../../../src/analytics/analytics.schema';
import { translateShared } from '../../i18n/shared-messages';
import { failureMessage } from '../../lib/failure-message';
import { notify } from '../../lib/notify';
import { saveBlob } from '../../lib/save-blob';
import { workspaceHeaders } from '../../lib/trpc';
import { filenameFromDisposition } from './analytics-format';

export interface ReportRequest {
  from: string;
  to: string;
  type: ReportType;
  format: ReportFormat;
  tz: string;
  excludeBots: boolean;
}

export interface DownloadProgress {
  received: number;
  /** Content-Length when the server sent one (and the body is not re-encoded), else null. */
  total: number | null;
}

export function reportUrl(r: ReportRequest): string {
  const query = new URLSearchParams({
    from: r.from,
    to: r.to,
    type: r.type,
    format: r.format,
    tz: r.tz,
    excludeBots: String(r.excludeBots),
  });
  return `/api/analytics/export?${query.toString()}`;
}

/**
 * GET /api/analytics/export, read as a stream so the bytes received can be shown, then saved under the
 * file name of Content-Disposition. Failures become a toast with the server's message.
 */
export function useReportDownload() {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const download = useCallback(async (request: ReportRequest) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ received: 0, total: null });
    try {
      // The current workspace's figures (X-Workspace), not those of the workspace the server remembers.
      const res = await fetch(reportUrl(request), {
        credentials: 'same-origin',
        headers: workspaceHeaders(),
        signal: abort.signal,
      });
      if (!res.ok) throw new Error(await failureMessage(res));

      const length = Number(res.headers.get('Content-Length'));
      const encoded = (res.headers.get('Content-Encoding') ?? 'identity') !== 'identity';
      const total = !encoded && Number.isFinite(length) && length > 0 ? length : null;
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let received = 0;
      if (res.body) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          received += value.byteLength;
          setProgress({ received, total });
        }
      } else {
        const all = new Uint8Array(await res.arrayBuffer());
        chunks.push(all);
        received = all.byteLength;
      }

      const blob = new Blob(chunks, { type: res.headers.get('Content-Type') ?? 'application/octet-stream' });
      const name = filenameFromDisposition(res.headers.get('Content-Disposition')) ?? reportFileName(request);
      saveBlob(blob, name);
      notify.success(t`Report Downloaded`, name);
    } catch (error) {
      if (abort.signal.aborted) return;
      notify.error(
        t`Report Failed`,
        error instanceof TypeError
          ? t`The server could not be reached. Please try again.`
          : error instanceof Error && error.message
            ? translateShared(error.message)
            : t`The report could not be downloaded.`,
      );
    } finally {
      if (controller.current === abort) {
        controller.current = null;
        setProgress(null);
      }
    }
  }, []);

  return { download, progress, downloading: progress !== null };
}
