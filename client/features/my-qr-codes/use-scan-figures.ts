import { useMemo } from 'react';
import { viewerTimeZone } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import type { CodeScanFigures } from './code-summary';

/**
 * Every code's scans (all time, as its details page counts them) from the analytics summary: one call for
 * the whole list, shared with the dashboard's cache. A code's last scan is read from the same rows when
 * the server sends it (`lastScanAt` per code); until then `hasLastScan` is false and the list leaves the
 * column out rather than guess.
 */
export function useScanFigures(): {
  figures: Map<number, CodeScanFigures> | undefined;
  hasLastScan: boolean;
  isError: boolean;
} {
  const summary = trpc.analytics.user.useQuery({ tz: viewerTimeZone() });
  return useMemo(() => {
    if (!summary.data) return { figures: undefined, hasLastScan: false, isError: summary.isError };
    const figures = new Map<number, CodeScanFigures>();
    let hasLastScan = summary.data.qrCodeScans.length > 0;
    for (const row of summary.data.qrCodeScans) {
      const last = (row as { lastScanAt?: string | null }).lastScanAt;
      if (last === undefined) hasLastScan = false;
      figures.set(row.id, { scans: row.scans, lastScanAt: last });
    }
    return { figures, hasLastScan, isError: summary.isError };
  }, [summary.data, summary.isError]);
}
