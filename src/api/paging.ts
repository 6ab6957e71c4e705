import { z } from 'zod';

/**
 * The one paging convention of the REST lists (docs/api.md): `page`, `pageSize`, `search`, `sort`, `order`
 * and each list's own filters in the query; one page of the documented array in the answer, with
 * `X-Total-Count` and a `Link` header (server/rest/paging.ts). Without any of them a list answers its
 * first PAGE_SIZE_DEFAULT rows, which is everything for every account today.
 *
 * Each message starts with the parameter's name, so a 400 says which one is wrong even where the answer
 * shows only the message.
 */

export const PAGE_SIZE_DEFAULT = 100;
export const PAGE_SIZE_LIMIT = 500;
export const SEARCH_MAX = 200;
/** Past this a page would only be empty; the bound keeps the offset a plain integer on both databases. */
export const PAGE_MAX = 1_000_000;

export const sortOrders = ['asc', 'desc'] as const;
export type SortOrder = (typeof sortOrders)[number];

/** A whole number in the query (always text there), between min and max, named in its messages. */
export function wholeNumberParam(name: string, min: number, max: number) {
  return z.coerce
    .number({ error: `${name}: must be a whole number` })
    .int(`${name}: must be a whole number`)
    .min(min, `${name}: must be at least ${min}`)
    .max(max, `${name}: must be at most ${max}`);
}

/** One of a fixed set of words. */
export function enumParam<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.enum(values, { error: `${name}: must be one of ${values.join(', ')}` });
}

/** `true` or `false`, as the words (a query has no booleans). */
export function booleanParam(name: string) {
  return z
    .enum(['true', 'false'], { error: `${name}: must be true or false` })
    .transform((value) => value === 'true');
}

const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An ISO 8601 date (`2026-11-28`, a whole UTC day) or date-time with its offset (`2026-11-28T09:00:00Z`),
 * as the instant bounding a range: a date starts its day; as the range's end (`end: true`) the bound is
 * exclusive, so a date takes in its whole day and a date-time its own instant.
 */
export function dateBoundParam(name: string, { end }: { end: boolean }) {
  const message = `${name}: must be an ISO 8601 date (2026-11-28) or date-time (2026-11-28T09:00:00Z)`;
  return z
    .string({ error: message })
    .refine((value) => DATE.test(value) || DATE_TIME.test(value), message)
    .transform((value, ctx) => {
      const dateOnly = DATE.test(value);
      const at = new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
      // Shapes that pass the pattern but name no real day (2026-02-30) are refused, not rolled over.
      if (Number.isNaN(at.getTime()) || (dateOnly && at.toISOString().slice(0, 10) !== value)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      if (end) at.setTime(at.getTime() + (dateOnly ? 86_400_000 : 1));
      // Kept within the years both databases read (0001–9999): a bound outside them keeps the same rows.
      return new Date(Math.min(Math.max(at.getTime(), EARLIEST), LATEST)).toISOString();
    })
    .meta({ description: 'ISO 8601 date or date-time; a date means the whole UTC day.' });
}

/** Options of one list's query: its sort keys, the default one, and its filters. */
export interface PagedQueryOptions<
  Sort extends readonly [string, ...string[]],
  Filters extends z.ZodRawShape,
> {
  sort: Sort;
  defaultSort: Sort[number];
  /** The order without `order=`: newest first unless the list says otherwise. */
  defaultOrder?: SortOrder;
  filters?: Filters;
  /** What `search` is matched in, for the reference ("name", "name or content"). */
  searchIn: string;
}

/** The query schema of a paged list: paging, search, sort and order, plus the list's filters. */
export function pagedQuery<
  const Sort extends readonly [string, ...string[]],
  Filters extends z.ZodRawShape = Record<never, never>,
>({ sort, defaultSort, defaultOrder = 'desc', filters, searchIn }: PagedQueryOptions<Sort, Filters>) {
  return z.object({
    page: wholeNumberParam('page', 1, PAGE_MAX)
      .default(1)
      .meta({ description: 'The page to answer, from 1.' }),
    pageSize: wholeNumberParam('pageSize', 1, PAGE_SIZE_LIMIT)
      .default(PAGE_SIZE_DEFAULT)
      .meta({ description: `Rows per page, at most ${PAGE_SIZE_LIMIT}.` }),
    search: z
      .string({ error: 'search: must be text' })
      .trim()
      .max(SEARCH_MAX, `search: must be at most ${SEARCH_MAX} characters`)
      .optional()
      .meta({ description: `Keeps the rows whose ${searchIn} contains this text, in any letter case.` }),
    sort: enumParam('sort', sort).default(defaultSort),
    order: enumParam('order', sortOrders).default(defaultOrder),
    ...((filters ?? {}) as Filters),
  });
}

/** One page of a list, as a service hands it to the REST route (server/rest/paging.ts sends it). */
export interface Page<T> {
  items: T[];
  /** The rows matching the query on all pages. */
  total: number;
  page: number;
  pageSize: number;
}

/** The part of a paged query the database needs to cut one page. */
export interface PageWindow {
  page: number;
  pageSize: number;
}

export function offsetOf({ page, pageSize }: PageWindow): number {
  return (page - 1) * pageSize;
}

/** `%`, `_` and `\` in a search are letters, not wildcards: a LIKE pattern (ESCAPE '\') that contains it. */
export function containsPattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
