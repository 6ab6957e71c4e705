import type { SourceLink } from './source.js';

/**
 * Bitly's CSV export of links (bitly.com → Links → Export; support.bitly.com "How do I export link data
 * for a select group of links?", article 230631767).
 *
 * Where the format is documented: Bitly publishes no column list. What is written down elsewhere, and
 * disagrees by export generation:
 * - URLR/urlr-docs docs/migration/bitly.md (2025): the export's columns "Link", "Custom Link",
 *   "Destination URL".
 * - Bitly's API v4 (dev.bitly.com/api-reference, BitlinkBody), which the older "Bitlink" exports follow:
 *   link / id ("bit.ly/3abcDEF"), long_url, title, created_at, tags, custom_bitlinks.
 * - Migration tools' readers (DhananjayThomble/URL-Shortener-App pull 413): "Bitlink", "Long URL" or
 *   "Original URL", "Title", "Tags", "Created", "Total Clicks".
 * So every known variant is read, by its name with case, spaces and punctuation ignored.
 *
 * The slug: the custom back-half when the row has one (the first, if several), else the Bitlink's. A
 * custom back-half is the name its owner chose and the one printed and shared on their branded domain,
 * while the generated Bitlink stays an alias Bitly keeps: the custom link is the one to keep working. The
 * domain is the host of the link chosen, its short URL that link. Times with no offset are taken as UTC;
 * M/D/Y dates (Bitly's US format) are read month first.
 */

const norm = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Each field's accepted column names (normalized), best first. */
const COLUMNS = {
  link: ['bitlink', 'link', 'shortlink', 'shorturl', 'bitlylink', 'shortenedlink', 'shortlinkurl'],
  custom: [
    'customlink',
    'customlinks',
    'custombitlink',
    'custombitlinks',
    'custombackhalf',
    'custombackhalves',
    'customshortlink',
  ],
  destination: ['longurl', 'destinationurl', 'originalurl', 'destination', 'longlink', 'targeturl'],
  title: ['title', 'linktitle'],
  created: ['datecreated', 'createdat', 'created', 'creationdate', 'createddate', 'createdon', 'date'],
  tags: ['tags', 'tag'],
  clicks: ['totalengagements', 'engagements', 'totalclicks', 'clicks', 'clickcount', 'linkclicks'],
} as const;

type Field = keyof typeof COLUMNS;

function columnsOf(header: string[]): Partial<Record<Field, number>> {
  const names = header.map(norm);
  const found: Partial<Record<Field, number>> = {};
  for (const field of Object.keys(COLUMNS) as Field[]) {
    for (const name of COLUMNS[field]) {
      const i = names.indexOf(name);
      if (i >= 0) {
        found[field] = i;
        break;
      }
    }
  }
  return found;
}

/** Whether a CSV header is a Bitly export's: a destination column and a Bitlink or custom link column. */
export function isBitlyCsvHeader(header: string[]): boolean {
  const columns = columnsOf(header);
  return columns.destination !== undefined && (columns.link !== undefined || columns.custom !== undefined);
}

/** A short link as an export writes it ("https://bit.ly/3abc", "bit.ly/3abc", "brand.co/sale"). */
function shortLinkOf(cell: string): { slug: string; domain: string | null; shortUrl: string | null } | null {
  const value = cell.trim();
  if (!value) return null;
  // A bare back-half, no host.
  if (!value.includes('/') && !value.includes('.')) return { slug: value, domain: null, shortUrl: null };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(withScheme);
    let slug = url.pathname.replace(/^\/+|\/+$/g, '');
    try {
      slug = decodeURIComponent(slug);
    } catch {
      // kept encoded
    }
    return { slug, domain: url.host.toLowerCase(), shortUrl: withScheme };
  } catch {
    return null;
  }
}

const MONTH_FIRST =
  /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?:[ ,T]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?\s*(?:UTC|GMT|Z)?$/;

/** A date as the export may write it, in ms; null when unreadable. */
export function parseBitlyDate(cell: string): number | null {
  const value = cell.trim();
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    let iso = value.replace(/^(\d{4}-\d{2}-\d{2})[ T]/, '$1T').replace(/\s*(?:UTC|GMT)$/i, 'Z');
    iso = iso.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
    if (!/(?:Z|[+-]\d{2}:\d{2})$/i.test(iso) && iso.includes('T')) iso += 'Z';
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? null : ms;
  }
  const us = MONTH_FIRST.exec(value);
  if (us) {
    const [, mo, d, y, h, mi, s, half] = us;
    let year = Number(y);
    if (year < 100) year += 2000;
    let hour = Number(h ?? 0);
    if (half && /pm/i.test(half) && hour < 12) hour += 12;
    if (half && /am/i.test(half) && hour === 12) hour = 0;
    const ms = Date.UTC(year, Number(mo) - 1, Number(d), hour, Number(mi ?? 0), Number(s ?? 0));
    return Number.isNaN(ms) ? null : ms;
  }
  // "March 15, 2024", "Mar 15, 2024 2:23 PM": read as UTC.
  const hasZone = /(?:Z|UTC|GMT|[+-]\d{2}:?\d{2})$/i.test(value);
  const ms = Date.parse(hasZone ? value : `${value} UTC`);
  return Number.isNaN(ms) ? null : ms;
}

function count(value: string): number | null {
  const n = Number.parseInt(value.replace(/[\s,]/g, ''), 10);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** The links of a Bitly CSV export (`rows` without the header). */
export function readBitlyCsv(header: string[], rows: string[][]): SourceLink[] {
  const columns = columnsOf(header);
  const cell = (row: string[], field: Field) => {
    const i = columns[field];
    return i === undefined ? '' : (row[i] ?? '').trim();
  };
  const links: SourceLink[] = [];
  for (const row of rows) {
    // Several custom links may share a cell: the first is taken.
    const custom = cell(row, 'custom').split(/[\s,|;]+/)[0] ?? '';
    const chosen = shortLinkOf(custom) ?? shortLinkOf(cell(row, 'link'));
    const destination = cell(row, 'destination');
    if (!chosen && !destination) continue;
    const clicks = cell(row, 'clicks');
    links.push({
      slug: chosen?.slug ?? '',
      destination,
      title: cell(row, 'title') || null,
      createdAt: parseBitlyDate(cell(row, 'created')),
      tags: cell(row, 'tags')
        .split(/[,|;]/)
        .map((tag) => tag.trim())
        .filter((tag) => tag.length > 0),
      domain: chosen?.domain ?? null,
      visitCount: clicks ? count(clicks) : null,
      shortUrl: chosen?.shortUrl ?? null,
    });
  }
  return links;
}
