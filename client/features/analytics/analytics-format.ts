// Pure helpers of the /analytics page alone: the location chart's groups and a report's file name.
// The number and date formatters it shares with other pages are in client/lib/format.ts.
import type { LocationCount } from '../../../src/analytics/analytics.schema';
import { safeFileName } from '../../../src/file-name';

/** At most `slots` locations: the largest `slots - 1` and the rest summed as 'Other'. */
export function groupLocations(list: readonly LocationCount[], slots = 10): LocationCount[] {
  if (list.length <= slots) return [...list];
  const sorted = [...list].sort((a, b) => b.count - a.count);
  const top = sorted.slice(0, slots - 1);
  const rest = sorted.slice(slots - 1).reduce((sum, l) => sum + l.count, 0);
  return [...top, { location: 'Other', count: rest }];
}

/**
 * The file name of a Content-Disposition header: filename* (RFC 5987) first, else filename; without
 * any directory part or invisible characters (safeFileName). Null when there is none.
 */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const star = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (star?.[1]) {
    const value = star[1].trim().replace(/^"(.*)"$/, '$1');
    const encoded = value.replace(/^[\w-]*'[\w-]*'/, '');
    try {
      name = decodeURIComponent(encoded);
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("((?:\\.|[^"\\])*)"|[^;]+)/i.exec(header);
    if (plain) name = (plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : (plain[1] ?? '')).trim();
  }
  const base = safeFileName(name?.split(/[\\/]/).pop() ?? '');
  return base ? base : null;
}
