import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_LINKS, importMessages } from '../../../../src/imports/import.schema.js';
import {
  STAND_IN_API_KEY,
  STAND_IN_OTHER_DOMAIN,
  generatedLink,
  startKuttStandIn,
  startShlinkStandIn,
  type StandIn,
} from '../stand-ins.test-helpers.js';
import { apiBase, connectSource } from './connect.js';
import { KUTT_PAGE_SIZE } from './kutt-api.js';
import { SHLINK_PAGE_SIZE, SHLINK_VISITS_PAGE_SIZE } from './shlink-api.js';
import { SourceError } from './source.js';

const policy = { allowedHosts: ['127.0.0.1'] };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return (error as SourceError).message;
}

/** A server answering every request with `status` and `body` (an HTML page unless told). */
async function startPlain(
  status: number,
  body: string,
  type = 'text/html',
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('Shlink API', () => {
  let shlink: StandIn;
  // 250 links; link 3 has 2,500 visits (3 pages), link 10 (on another domain) 7.
  beforeAll(async () => {
    shlink = await startShlinkStandIn({
      links: 250,
      visitsPerLink: (i) => (i === 3 ? 2500 : i === 10 ? 7 : 1),
    });
  });
  afterAll(() => shlink.close());

  it('follows every page of short URLs and reads every field', async () => {
    shlink.requests.length = 0;
    const api = connectSource(policy, { source: 'shlink', url: shlink.url, apiKey: STAND_IN_API_KEY });
    expect(api.source).toBe('shlink');
    const links = await api.links();
    expect(links).toHaveLength(250);
    expect(shlink.requests.map((r) => r.query)).toEqual(
      [1, 2, 3].map((page) => ({ page: String(page), itemsPerPage: String(SHLINK_PAGE_SIZE) })),
    );
    expect(
      shlink.requests.every((r) => r.path === '/rest/v3/short-urls' && r.apiKey === STAND_IN_API_KEY),
    ).toBe(true);
    const created = generatedLink(7).createdAt;
    expect(links[6]).toEqual({
      slug: 'link-7',
      destination: 'https://example.com/page-7',
      title: 'Page 7, "special" édition',
      createdAt: created,
      tags: [],
      domain: null,
      visitCount: 1,
      shortUrl: 'https://s.example.com/link-7',
    });
    expect(links[9]).toEqual({
      slug: 'link-10',
      destination: 'https://example.com/page-10',
      title: null,
      createdAt: generatedLink(10).createdAt,
      tags: [],
      domain: STAND_IN_OTHER_DOMAIN,
      visitCount: 7,
      shortUrl: `https://${STAND_IN_OTHER_DOMAIN}/link-10`,
    });
    expect(links[11]).toMatchObject({ slug: 'Promo12', tags: ['promo', 'spring'] });
  });

  it("follows every page of a link's visits and reads every field", async () => {
    const api = connectSource(policy, { source: 'shlink', url: shlink.url, apiKey: STAND_IN_API_KEY });
    const links = await api.links();
    shlink.requests.length = 0;
    const visits = await api.visits!(links[2]!);
    expect(visits).toHaveLength(2500);
    expect(shlink.requests.map((r) => [r.path, r.query])).toEqual(
      [1, 2, 3].map((page) => [
        '/rest/v3/short-urls/link-3/visits',
        { page: String(page), itemsPerPage: String(SHLINK_VISITS_PAGE_SIZE) },
      ]),
    );
    // Newest first, as Shlink lists them: the last is the first visit (j = 0).
    const first = visits[2499]!;
    expect(first).toEqual({
      at: generatedLink(3).createdAt + 60_000,
      userAgent: expect.stringContaining('Windows') as string,
      referrer: null,
      location: 'Berlin, Germany',
      ipAddress: null,
      bot: false,
    });
    expect(visits[2498]).toMatchObject({ referrer: 'https://t.co/x1Y2z3', location: 'Paris, France' });
    expect(visits[2497]).toMatchObject({ location: 'United States' });
    expect(visits[2496]).toMatchObject({ location: null });
    expect(visits[2495]).toMatchObject({
      bot: true,
      userAgent: expect.stringContaining('Googlebot') as string,
    });
    expect(visits.filter((v) => v.bot)).toHaveLength(500);
  });

  it('names the domain of a link on a non-default domain', async () => {
    const api = connectSource(policy, { source: 'shlink', url: shlink.url, apiKey: STAND_IN_API_KEY });
    shlink.requests.length = 0;
    const link = { ...(await api.links())[9]! };
    const visits = await api.visits!(link);
    expect(visits).toHaveLength(7);
    expect(shlink.requests.at(-1)!.query).toMatchObject({ domain: STAND_IN_OTHER_DOMAIN });
  });

  it('takes the address typed with a trailing slash or the API path on it', async () => {
    for (const url of [`${shlink.url}/`, `${shlink.url}/rest/v3`, `${shlink.url}/rest/v3/short-urls/`]) {
      const api = connectSource(policy, { source: 'shlink', url, apiKey: ` ${STAND_IN_API_KEY} ` });
      expect(await api.links()).toHaveLength(250);
    }
    expect(apiBase('shlink', 'https://s.example.com/sub/rest/?x=1#y')).toBe('https://s.example.com/sub');
    expect(apiBase('kutt', 'https://k.example.com/api/v2/links')).toBe('https://k.example.com');
  });

  it('refuses a wrong key with refusedKey', async () => {
    const api = connectSource(policy, { source: 'shlink', url: shlink.url, apiKey: 'wrong' });
    expect(await refusal(api.links())).toBe(importMessages.refusedKey('Shlink'));
  });
});

describe('Kutt API', () => {
  let kutt: StandIn;
  beforeAll(async () => {
    kutt = await startKuttStandIn({ links: 250, visitsPerLink: (i) => i * 2 });
  });
  afterAll(() => kutt.close());

  it("follows every page at Kutt's page size and reads every field", async () => {
    kutt.requests.length = 0;
    const api = connectSource(policy, {
      source: 'kutt',
      url: `${kutt.url}/api/v2/`,
      apiKey: STAND_IN_API_KEY,
    });
    expect(api.source).toBe('kutt');
    // Counts only: no per-visit history.
    expect('visits' in api).toBe(false);
    const links = await api.links();
    expect(links).toHaveLength(250);
    expect(kutt.requests.map((r) => r.query)).toEqual(
      [0, 50, 100, 150, 200].map((skip) => ({ limit: String(KUTT_PAGE_SIZE), skip: String(skip) })),
    );
    expect(kutt.requests.every((r) => r.path === '/api/v2/links' && r.apiKey === STAND_IN_API_KEY)).toBe(
      true,
    );
    // Newest first.
    expect(links[0]!.slug).toBe('link-250');
    const link7 = links.find((l) => l.slug === 'link-7');
    expect(link7).toEqual({
      slug: 'link-7',
      destination: 'https://example.com/page-7',
      title: 'Page 7, "special" édition',
      createdAt: generatedLink(7).createdAt,
      tags: [],
      domain: null,
      visitCount: 14,
      shortUrl: 'https://s.example.com/link-7',
    });
    expect(links.find((l) => l.slug === 'link-10')).toMatchObject({
      domain: STAND_IN_OTHER_DOMAIN,
      title: null,
      shortUrl: `https://${STAND_IN_OTHER_DOMAIN}/link-10`,
    });
  });

  it('refuses a wrong key with refusedKey', async () => {
    const api = connectSource(policy, { source: 'kutt', url: kutt.url, apiKey: 'wrong' });
    expect(await refusal(api.links())).toBe(importMessages.refusedKey('Kutt'));
  });
});

describe('refusals', () => {
  let shlink: StandIn;
  let kutt: StandIn;
  beforeAll(async () => {
    shlink = await startShlinkStandIn({ links: 3 });
    kutt = await startKuttStandIn({ links: 3 });
  });
  afterAll(async () => {
    await shlink.close();
    await kutt.close();
  });

  it('refuses a server that does not answer like the source with notSource', async () => {
    // Kutt asked for Shlink's API: its HTML 404; Shlink asked for Kutt's: its problem+json 404.
    const asShlink = connectSource(policy, { source: 'shlink', url: kutt.url, apiKey: STAND_IN_API_KEY });
    expect(await refusal(asShlink.links())).toBe(importMessages.notSource('Shlink'));
    const asKutt = connectSource(policy, { source: 'kutt', url: shlink.url, apiKey: STAND_IN_API_KEY });
    expect(await refusal(asKutt.links())).toBe(importMessages.notSource('Kutt'));

    const page = await startPlain(200, '<html><body>Welcome</body></html>');
    const json = await startPlain(200, '{"shortUrls": {"data": [{"id": 1}]}}', 'application/json');
    try {
      const html = connectSource(policy, { source: 'shlink', url: page.url, apiKey: 'k' });
      expect(await refusal(html.links())).toBe(importMessages.notSource('Shlink'));
      const wrongShape = connectSource(policy, { source: 'shlink', url: json.url, apiKey: 'k' });
      expect(await refusal(wrongShape.links())).toBe(importMessages.notSource('Shlink'));
      const kuttShape = connectSource(policy, { source: 'kutt', url: json.url, apiKey: 'k' });
      expect(await refusal(kuttShape.links())).toBe(importMessages.notSource('Kutt'));
    } finally {
      await page.close();
      await json.close();
    }
  });

  it('refuses an address on a private network unless the policy allows its host', async () => {
    for (const source of ['shlink', 'kutt'] as const) {
      const api = connectSource({ allowedHosts: [] }, { source, url: shlink.url, apiKey: STAND_IN_API_KEY });
      expect(await refusal(api.links())).toBe(importMessages.privateAddress);
    }
    const local = connectSource(
      { allowedHosts: [] },
      { source: 'shlink', url: 'http://localhost:1', apiKey: 'k' },
    );
    expect(await refusal(local.links())).toBe(importMessages.privateAddress);
  });

  it('refuses an address nothing answers at with unreachable', async () => {
    const closed = await startPlain(200, '');
    await closed.close();
    const api = connectSource(policy, { source: 'kutt', url: closed.url, apiKey: 'k' });
    expect(await refusal(api.links())).toBe(importMessages.unreachable('Kutt'));
    expect(() =>
      connectSource(policy, { source: 'shlink', url: 'ftp://s.example.com', apiKey: 'k' }),
    ).toThrow(importMessages.unreachable('Shlink'));
  });

  it('does not follow a redirect to another host with the key', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(302, { location: 'https://elsewhere.example.net/rest/v3/short-urls' });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const api = connectSource(policy, { source: 'shlink', url: `http://127.0.0.1:${port}`, apiKey: 'k' });
      expect(await refusal(api.links())).toBe(importMessages.notSource('Shlink'));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the limit of an import', () => {
  it('stops at IMPORT_MAX_LINKS + 1 links, so the service can refuse', async () => {
    const shlink = await startShlinkStandIn({ links: IMPORT_MAX_LINKS + 500, visitsPerLink: 0 });
    const kutt = await startKuttStandIn({ links: IMPORT_MAX_LINKS + 500, visitsPerLink: 0 });
    try {
      const fromShlink = await connectSource(policy, {
        source: 'shlink',
        url: shlink.url,
        apiKey: STAND_IN_API_KEY,
      }).links();
      expect(fromShlink).toHaveLength(IMPORT_MAX_LINKS + 1);
      expect(shlink.requests).toHaveLength(Math.ceil((IMPORT_MAX_LINKS + 1) / SHLINK_PAGE_SIZE));
      const fromKutt = await connectSource(policy, {
        source: 'kutt',
        url: kutt.url,
        apiKey: STAND_IN_API_KEY,
      }).links();
      expect(fromKutt).toHaveLength(IMPORT_MAX_LINKS + 1);
      expect(kutt.requests).toHaveLength(Math.ceil((IMPORT_MAX_LINKS + 1) / KUTT_PAGE_SIZE));
    } finally {
      await shlink.close();
      await kutt.close();
    }
  });
});
