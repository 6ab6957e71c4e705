import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { linkHeader } from './paging.js';

const request = (url: string) => ({ url, protocol: 'https', host: 'qr.example' }) as FastifyRequest;

/** The header as rel → URL. */
function parse(header: string): Record<string, string> {
  return Object.fromEntries([...header.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [m[2]!, m[1]!]));
}

describe('linkHeader', () => {
  it('links first, prev, next and last on the path the caller used, keeping the other parameters', () => {
    const links = parse(
      linkHeader(request('/api/v1/qr-codes?search=Bulk&page=2&pageSize=10&type=url'), {
        total: 104,
        page: 2,
        pageSize: 10,
      }),
    );
    expect(links).toEqual({
      first: 'https://qr.example/api/v1/qr-codes?search=Bulk&page=1&pageSize=10&type=url',
      prev: 'https://qr.example/api/v1/qr-codes?search=Bulk&page=1&pageSize=10&type=url',
      next: 'https://qr.example/api/v1/qr-codes?search=Bulk&page=3&pageSize=10&type=url',
      last: 'https://qr.example/api/v1/qr-codes?search=Bulk&page=11&pageSize=10&type=url',
    });
  });

  it('has no prev on the first page and no next on the last; an empty list has one page', () => {
    expect(
      Object.keys(parse(linkHeader(request('/api/folders'), { total: 0, page: 1, pageSize: 100 }))),
    ).toEqual(['first', 'last']);
    const last = parse(
      linkHeader(request('/api/folders?page=3&pageSize=5'), { total: 15, page: 3, pageSize: 5 }),
    );
    expect(Object.keys(last)).toEqual(['first', 'prev', 'last']);
  });

  it('escapes what the caller sent, so the header stays one header', () => {
    const header = linkHeader(request('/api/qr-codes?search=%3E%3B%20rel%3D%22x%22'), {
      total: 1,
      page: 1,
      pageSize: 100,
    });
    expect(header).not.toMatch(/[\r\n]/);
    expect(Object.keys(parse(header))).toEqual(['first', 'last']);
  });
});
