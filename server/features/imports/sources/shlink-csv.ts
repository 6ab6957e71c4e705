import type { SourceLink } from './source.js';

/**
 * Shlink's CSV export of short URLs: the "Export" button above the short URL list of Shlink's web client.
 *
 * Where the format is documented: shlinkio/shlink-web-component, src/short-urls/helpers/ExportShortUrlsBtn.tsx
 * (the row: createdAt = dateCreated, domain and shortCode taken from the short URL's host and path,
 * shortUrl, longUrl, title or '', tags joined with '|', visits = visitsSummary.total, older servers'
 * visitsCount), written by src/utils/helpers/json.ts with @json2csv/plainjs's defaults
 * (juanjoDiaz/json2csv packages/plainjs/src/BaseParser.ts: ',' between fields, '\n' between rows, a
 * header of the quoted field names, every string quoted and its quotes doubled, numbers bare). Dates are
 * ISO 8601 with an offset, as the REST API gives them (shlinkio/shlink docs/swagger/definitions/ShortUrl.json).
 *
 * The export's domain is always the short URL's host, the default domain's too, so a link's domain is
 * kept as the file names it. Its shortCode is the URL's path, percent-encoded where the slug is not
 * ASCII: it is decoded back here.
 */

const norm = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether a CSV header is Shlink's export's (shortCode and longUrl columns). */
export function isShlinkCsvHeader(header: string[]): boolean {
  const names = header.map(norm);
  return names.includes('shortcode') && names.includes('longurl');
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The short URL's host and path (without its leading '/'), when it is a web address. */
function splitShortUrl(shortUrl: string): { host: string; path: string } | null {
  try {
    const url = new URL(shortUrl);
    return { host: url.host.toLowerCase(), path: decodePath(url.pathname.replace(/^\//, '')) };
  } catch {
    return null;
  }
}

function count(value: string): number | null {
  const n = Number.parseInt(value.replace(/[\s,]/g, ''), 10);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** The links of a Shlink CSV export (`rows` without the header). */
export function readShlinkCsv(header: string[], rows: string[][]): SourceLink[] {
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    const key = norm(name);
    if (!index.has(key)) index.set(key, i);
  });
  const column = (row: string[], name: string) => {
    const i = index.get(name);
    return i === undefined ? '' : (row[i] ?? '').trim();
  };
  const links: SourceLink[] = [];
  for (const row of rows) {
    const shortUrl = column(row, 'shorturl');
    const parts = shortUrl ? splitShortUrl(shortUrl) : null;
    const code = column(row, 'shortcode');
    const slug = code ? decodePath(code) : (parts?.path ?? '');
    const destination = column(row, 'longurl');
    if (!slug && !destination) continue;
    const created = Date.parse(column(row, 'createdat') || column(row, 'datecreated'));
    const visits = column(row, 'visits') || column(row, 'visitscount');
    links.push({
      slug,
      destination,
      title: column(row, 'title') || null,
      createdAt: Number.isNaN(created) ? null : created,
      tags: column(row, 'tags')
        .split('|')
        .map((tag) => tag.trim())
        .filter((tag) => tag.length > 0),
      domain: column(row, 'domain').toLowerCase() || parts?.host || null,
      visitCount: visits ? count(visits) : null,
      shortUrl: shortUrl || null,
    });
  }
  return links;
}
