import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from '../../src/api/paging.js';

/**
 * Answers one page of a paged list (src/api/paging.ts): the items as the array the spec documents, with
 * `X-Total-Count` (the rows on all pages) and a `Link` header (RFC 8288) to the first, previous, next and
 * last pages. The links are absolute, on the path the caller used (`/api/v1/…` or `/api/…`), and keep
 * every other query parameter, so following `next` walks the same search, filters and sort.
 */
export function sendPage<T>(req: FastifyRequest, reply: FastifyReply, page: Page<T>): T[] {
  void reply.header('X-Total-Count', String(page.total));
  void reply.header('Link', linkHeader(req, page));
  return page.items;
}

/** The Link header's value: first and last always (last is page 1 of an empty list), prev and next when they exist. */
export function linkHeader(
  req: FastifyRequest,
  { total, page, pageSize }: Omit<Page<unknown>, 'items'>,
): string {
  const last = Math.max(1, Math.ceil(total / pageSize));
  const url = new URL(req.url, `${req.protocol}://${req.host}`);
  const to = (n: number) => {
    url.searchParams.set('page', String(n));
    url.searchParams.set('pageSize', String(pageSize));
    return url.toString();
  };
  const links: [string, number][] = [['first', 1]];
  if (page > 1) links.push(['prev', Math.min(page - 1, last)]);
  if (page < last) links.push(['next', page + 1]);
  links.push(['last', last]);
  return links.map(([rel, n]) => `<${to(n)}>; rel="${rel}"`).join(', ');
}
