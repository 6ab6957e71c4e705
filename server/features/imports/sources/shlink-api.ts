import {
  IMPORT_MAX_LINKS,
  importMessages,
  importSourceLabels,
} from '../../../../src/imports/import.schema.js';
import { countryName } from '../../scans/geo.js';
import { SourceError, type SourceApi, type SourceLink, type SourceVisit } from './source.js';

/**
 * Shlink's REST API, read with an API key.
 *
 * Where it is documented: shlinkio/shlink docs/swagger (swagger.json: the key in the X-Api-Key header;
 * paths/v1_short-urls.json: GET /rest/v{version}/short-urls?page=&itemsPerPage= → { shortUrls: { data,
 * pagination } }, 10 a page unless told; paths/v1_short-urls_{shortCode}_visits.json:
 * GET /rest/v{version}/short-urls/{shortCode}/visits?page=&itemsPerPage=&domain= → { visits: { data,
 * pagination } }, every visit unless told; definitions/ShortUrl.json, Visit.json, VisitLocation.json,
 * Pagination.json, Error.json). Errors are problem+json; a missing or wrong key answers 401
 * (module/Rest/src/Middleware/AuthenticationMiddleware.php, Exception/VerifyAuthenticationException.php).
 * Shlink 3 and 4 route versions 1 to 3 (module/Rest/src/ConfigProvider.php); version 3 is asked first,
 * version 2 when a Shlink 2 answers 404. Servers before 2.x gave `visitsCount` where `visitsSummary` is now.
 */

export interface JsonAnswer {
  status: number;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

/** GETs an API address (connect.ts: through safeFetch, 401/403 and network failures already refused). */
export type FetchJson = (url: string, headers: Record<string, string>) => Promise<JsonAnswer>;

/** Short URLs asked a page. */
export const SHLINK_PAGE_SIZE = 100;
/** Visits asked a page. */
export const SHLINK_VISITS_PAGE_SIZE = 1000;
/** The most visits read of one link (its newest: Shlink lists them newest first). */
export const SHLINK_MAX_VISITS_PER_LINK = 100_000;

const label = importSourceLabels.shlink;
const notShlink = () => new SourceError(importMessages.notSource(label));

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A page's items and page count, or null when the answer is not shaped like Shlink's. */
function pageOf(
  json: unknown,
  key: 'shortUrls' | 'visits',
): { data: unknown[]; pagesCount: number | null } | null {
  if (!isObject(json)) return null;
  const box = json[key];
  if (!isObject(box) || !Array.isArray(box.data)) return null;
  const pagination = isObject(box.pagination) ? box.pagination : {};
  const pagesCount = typeof pagination.pagesCount === 'number' ? pagination.pagesCount : null;
  return { data: box.data, pagesCount };
}

function isLastPage(page: number, pagesCount: number | null, items: number, size: number): boolean {
  if (items === 0) return true;
  return pagesCount !== null ? page >= pagesCount : items < size;
}

function linkOf(item: unknown): SourceLink {
  if (!isObject(item)) throw notShlink();
  const slug = text(item.shortCode);
  const destination = text(item.longUrl);
  if (slug === null || destination === null) throw notShlink();
  const summary = isObject(item.visitsSummary) ? item.visitsSummary : null;
  const visitCount =
    typeof summary?.total === 'number'
      ? summary.total
      : typeof item.visitsCount === 'number'
        ? item.visitsCount
        : null;
  const created = Date.parse(text(item.dateCreated) ?? '');
  return {
    slug,
    destination,
    title: text(item.title)?.trim() || null,
    createdAt: Number.isNaN(created) ? null : created,
    tags: Array.isArray(item.tags) ? item.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    domain: text(item.domain)?.trim().toLowerCase() || null,
    visitCount,
    shortUrl: text(item.shortUrl) || null,
  };
}

/** A visit's location as the analytics store it: "City, Country" or "Country"; null when unknown. */
function locationOf(location: unknown): string | null {
  if (!isObject(location)) return null;
  const code = text(location.countryCode)?.trim() ?? '';
  let country: string | null = null;
  if (/^[A-Za-z]{2}$/.test(code)) {
    const name = countryName(code.toUpperCase());
    if (name && name.toUpperCase() !== code.toUpperCase() && name !== 'Unknown Region') country = name;
  }
  country ??= text(location.countryName)?.trim() || null;
  if (!country || country.toLowerCase() === 'unknown') return null;
  const city = text(location.cityName)?.trim();
  return city ? `${city}, ${country}` : country;
}

function visitOf(item: unknown): SourceVisit | null {
  if (!isObject(item)) throw notShlink();
  const at = Date.parse(text(item.date) ?? '');
  if (Number.isNaN(at)) return null;
  return {
    at,
    userAgent: text(item.userAgent)?.trim() || null,
    referrer: text(item.referer)?.trim() || null,
    location: locationOf(item.visitLocation),
    ipAddress: null,
    bot: item.potentialBot === true,
  };
}

/** Shlink's API at `base` (the server's address, no trailing slash, no /rest). */
export function shlinkApi(base: string, apiKey: string, fetchJson: FetchJson): SourceApi {
  const headers = { 'X-Api-Key': apiKey };
  let version = 'v3';

  async function linksPage(page: number) {
    const query = `page=${page}&itemsPerPage=${SHLINK_PAGE_SIZE}`;
    let answer = await fetchJson(`${base}/rest/${version}/short-urls?${query}`, headers);
    if (answer.status === 404 && page === 1 && version === 'v3' && isObject(answer.json)) {
      // A Shlink 2 answers its own 404 (problem+json) to version 3: ask version 2.
      const older = await fetchJson(`${base}/rest/v2/short-urls?${query}`, headers);
      if (older.status === 200) {
        version = 'v2';
        answer = older;
      }
    }
    if (answer.status !== 200) throw notShlink();
    const found = pageOf(answer.json, 'shortUrls');
    if (!found) throw notShlink();
    return found;
  }

  return {
    source: 'shlink',

    async links() {
      const links: SourceLink[] = [];
      const maxPages = Math.ceil((IMPORT_MAX_LINKS + 1) / SHLINK_PAGE_SIZE) + 1;
      for (let page = 1; page <= maxPages; page++) {
        const { data, pagesCount } = await linksPage(page);
        for (const item of data) links.push(linkOf(item));
        // One more than the limit is enough for the service to refuse the import.
        if (links.length > IMPORT_MAX_LINKS) return links.slice(0, IMPORT_MAX_LINKS + 1);
        if (isLastPage(page, pagesCount, data.length, SHLINK_PAGE_SIZE)) break;
      }
      return links;
    },

    async visits(link) {
      const visits: SourceVisit[] = [];
      const path = `${base}/rest/${version}/short-urls/${encodeURIComponent(link.slug)}/visits`;
      const domain = link.domain ? `&domain=${encodeURIComponent(link.domain)}` : '';
      for (let page = 1; visits.length < SHLINK_MAX_VISITS_PER_LINK; page++) {
        const answer = await fetchJson(
          `${path}?page=${page}&itemsPerPage=${SHLINK_VISITS_PAGE_SIZE}${domain}`,
          headers,
        );
        // Deleted since it was listed: no visits to bring.
        if (answer.status === 404 && isObject(answer.json)) break;
        if (answer.status !== 200) throw notShlink();
        const found = pageOf(answer.json, 'visits');
        if (!found) throw notShlink();
        for (const item of found.data) {
          const visit = visitOf(item);
          if (visit) visits.push(visit);
        }
        if (isLastPage(page, found.pagesCount, found.data.length, SHLINK_VISITS_PAGE_SIZE)) break;
      }
      return visits.slice(0, SHLINK_MAX_VISITS_PER_LINK);
    },
  };
}
