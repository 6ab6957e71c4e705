import {
  IMPORT_MAX_LINKS,
  importMessages,
  importSourceLabels,
} from '../../../../src/imports/import.schema.js';
import type { FetchJson } from './shlink-api.js';
import { SourceError, type SourceApi, type SourceLink } from './source.js';

/**
 * Kutt's API v2, read with an API key.
 *
 * Where it is documented: thedevs-network/kutt docs/api/api.js (GET /api/v2/links?limit=&skip= with the
 * X-API-KEY header → { total, limit, skip, data: [Link] }; Link: id, address, banned, created_at,
 * updated_at, password, description, target, visit_count, link), and the server it describes:
 * server/handlers/helpers.handler.js parseQuery (limit 10 unless told, at most 50; skip 0),
 * server/handlers/links.handler.js get, server/queries/link.queries.js (newest first, `domain` the custom
 * domain's address or null), server/utils/utils.js sanitize.link (`link` the full short URL),
 * server/handlers/auth.handler.js (a wrong or missing key: 401 { error }).
 * Kutt counts visits but has no per-visit list in its API, so this SourceApi has no `visits`.
 */

/** Kutt's largest page (parseQuery caps `limit` at 50). */
export const KUTT_PAGE_SIZE = 50;

const label = importSourceLabels.kutt;
const notKutt = () => new SourceError(importMessages.notSource(label));

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function number(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  // Kutt on some databases counts as a string ("12").
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
  return null;
}

function shortUrlOf(link: unknown): string | null {
  const value = text(link)?.trim();
  if (!value) return null;
  return /^https?:\/\//i.test(value) ? value : `https://${value}`;
}

function linkOf(item: unknown): SourceLink {
  if (!isObject(item)) throw notKutt();
  const slug = text(item.address);
  const destination = text(item.target);
  if (slug === null || destination === null) throw notKutt();
  const created = Date.parse(text(item.created_at) ?? '');
  return {
    slug,
    destination,
    title: text(item.description)?.trim() || null,
    createdAt: Number.isNaN(created) ? null : created,
    tags: [],
    domain: text(item.domain)?.trim().toLowerCase() || null,
    visitCount: number(item.visit_count),
    shortUrl: shortUrlOf(item.link),
  };
}

/** Kutt's API at `base` (the server's address, no trailing slash, no /api). */
export function kuttApi(base: string, apiKey: string, fetchJson: FetchJson): SourceApi {
  const headers = { 'X-API-KEY': apiKey };
  return {
    source: 'kutt',

    async links() {
      const links: SourceLink[] = [];
      // Pages are asked by offset while links may be added: a link seen twice is kept once.
      const seen = new Set<string>();
      const maxPages = Math.ceil((IMPORT_MAX_LINKS + 1) / KUTT_PAGE_SIZE) + 1;
      let skip = 0;
      for (let page = 0; page < maxPages; page++) {
        const answer = await fetchJson(`${base}/api/v2/links?limit=${KUTT_PAGE_SIZE}&skip=${skip}`, headers);
        if (answer.status !== 200 || !isObject(answer.json) || !Array.isArray(answer.json.data))
          throw notKutt();
        const data = answer.json.data;
        const total = number(answer.json.total);
        for (const item of data) {
          const link = linkOf(item);
          const key = `${link.domain ?? ''}\n${link.slug}`;
          if (seen.has(key)) continue;
          seen.add(key);
          links.push(link);
        }
        // One more than the limit is enough for the service to refuse the import.
        if (links.length > IMPORT_MAX_LINKS) return links.slice(0, IMPORT_MAX_LINKS + 1);
        skip += data.length;
        if (data.length === 0 || (total !== null ? skip >= total : data.length < KUTT_PAGE_SIZE)) break;
      }
      return links;
    },
  };
}
