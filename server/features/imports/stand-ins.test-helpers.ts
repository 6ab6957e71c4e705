import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the servers an import reads (node:http on 127.0.0.1, a port of the OS's choice),
 * answering like them, and generators of big export files: for the readers' tests and the import
 * service's.
 *
 * Shlink, as shlinkio/shlink documents and does it (docs/swagger, module/Rest): GET /rest/v{1,2,3}/short-urls
 * (10 a page unless itemsPerPage says, -1 for all) and GET /rest/v{1,2,3}/short-urls/{shortCode}/visits
 * (every visit unless itemsPerPage says; a short URL of another domain only with ?domain=), the key in
 * X-Api-Key, problem+json errors: 401 `missing-authentication` / `invalid-api-key`, 404 `not-found` /
 * `short-url-not-found`.
 * Kutt, as thedevs-network/kutt does it (server/handlers/helpers.handler.js, links.handler.js,
 * auth.handler.js): GET /api/v2/links (and /api/links) with limit (10 unless told, at most 50) and skip,
 * newest first, the key in X-API-KEY, 401 { error } without a valid one, an HTML 404 elsewhere.
 */

export const STAND_IN_API_KEY = 'stand-in-api-key';
/** The default short domain of the generated links. */
export const STAND_IN_DOMAIN = 's.example.com';
/** The other short domain every tenth generated link is on. */
export const STAND_IN_OTHER_DOMAIN = 'links.example.org';

export interface GeneratedLink {
  /** 1-based. */
  index: number;
  slug: string;
  destination: string;
  title: string | null;
  /** ms since the epoch. */
  createdAt: number;
  tags: string[];
  /** null: the default domain. */
  domain: string | null;
  visits: number;
}

export interface GeneratedVisit {
  at: number;
  userAgent: string;
  /** null: none (a direct visit). */
  referrer: string | null;
  countryCode: string | null;
  countryName: string | null;
  cityName: string | null;
  bot: boolean;
  ip: string;
}

/**
 * Link `index` (1-based) of every generator: slugs `link-N`, every fourth mixed case (`PromoN`), every
 * tenth on STAND_IN_OTHER_DOMAIN; destinations https://example.com/page-N; titles `Page N`, none every
 * fifth, with a comma, quotes and an accent every seventh; tags every third; an hour apart from 2024-01-01.
 */
export function generatedLink(index: number, visits = 0): GeneratedLink {
  return {
    index,
    slug: index % 4 === 0 ? `Promo${index}` : `link-${index}`,
    destination: `https://example.com/page-${index}`,
    title: index % 5 === 0 ? null : index % 7 === 0 ? `Page ${index}, "special" édition` : `Page ${index}`,
    createdAt: Date.UTC(2024, 0, 1) + index * 3_600_000,
    tags: index % 3 === 0 ? ['promo', 'spring'] : [],
    domain: index % 10 === 0 ? STAND_IN_OTHER_DOMAIN : null,
    visits,
  };
}

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
];
const BOT_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PLACES: { countryCode: string | null; countryName: string | null; cityName: string | null }[] = [
  { countryCode: 'DE', countryName: 'Germany', cityName: 'Berlin' },
  { countryCode: 'FR', countryName: 'France', cityName: 'Paris' },
  { countryCode: 'US', countryName: 'United States', cityName: null },
  { countryCode: null, countryName: null, cityName: null },
];

/**
 * Visit `j` (0-based) of a generated link: a minute apart after the link's creation; every fifth a bot;
 * no referrer every third; Berlin, Paris, the United States (no city) and unknown in turn.
 */
export function generatedVisit(link: GeneratedLink, j: number): GeneratedVisit {
  const bot = j % 5 === 4;
  return {
    at: link.createdAt + (j + 1) * 60_000,
    userAgent: bot ? BOT_AGENT : USER_AGENTS[j % USER_AGENTS.length]!,
    referrer: j % 3 === 0 ? null : 'https://t.co/x1Y2z3',
    ...PLACES[j % PLACES.length]!,
    bot,
    ip: `203.0.113.${(j % 250) + 1}`,
  };
}

export interface StandInOptions {
  /** Links the server holds (default 12). */
  links?: number;
  /** Visits of each link, or of link `index` (1-based) (default 2). */
  visitsPerLink?: number | ((index: number) => number);
  /** The key it takes (default STAND_IN_API_KEY); any other gets the source's 401. */
  apiKey?: string;
}

export interface StandInRequest {
  method: string;
  /** The path, decoded. */
  path: string;
  query: Record<string, string>;
  /** The key header sent, if any. */
  apiKey: string | null;
}

export interface StandIn {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  /** Every request received, in order. */
  requests: StandInRequest[];
  /** The links it serves, in creation order. */
  links: GeneratedLink[];
  close(): Promise<void>;
}

function linksOf(options: StandInOptions): GeneratedLink[] {
  const count = options.links ?? 12;
  const visits = options.visitsPerLink ?? 2;
  return Array.from({ length: count }, (_, i) =>
    generatedLink(i + 1, typeof visits === 'function' ? visits(i + 1) : visits),
  );
}

type Handler = (
  req: http.IncomingMessage,
  url: URL,
) => { status: number; type: string; body: string } | { status: number; json: unknown; type?: string };

async function listen(handler: Handler, links: GeneratedLink[]): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const key = req.headers['x-api-key'];
    requests.push({
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      query: Object.fromEntries(url.searchParams),
      apiKey: typeof key === 'string' ? key : null,
    });
    const answer = handler(req, url);
    const body = 'json' in answer ? JSON.stringify(answer.json) : answer.body;
    res.writeHead(answer.status, {
      'content-type': answer.type ?? 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    links,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An ISO 8601 time with a +02:00 offset, as a Shlink server in Central Europe writes it (ATOM). */
function shlinkDate(ms: number): string {
  return `${new Date(ms + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
}

function problem(status: number, type: string, title: string, detail: string) {
  return {
    status,
    type: 'application/problem+json',
    json: { type: `https://shlink.io/api/error/${type}`, title, detail, status },
  };
}

/** Page `page` of `count` items (itemsPerPage < 0: all of them), its items made by `item`. */
function pageOf<T>(count: number, page: number, itemsPerPage: number, item: (i: number) => T) {
  const perPage = itemsPerPage < 0 ? Math.max(count, 1) : Math.max(itemsPerPage, 1);
  const data: T[] = [];
  for (let i = (page - 1) * perPage; i < Math.min(count, page * perPage); i++) data.push(item(i));
  return {
    data,
    pagination: {
      currentPage: page,
      pagesCount: Math.max(1, Math.ceil(count / perPage)),
      itemsPerPage: perPage,
      itemsInCurrentPage: data.length,
      totalItems: count,
    },
  };
}

/** An int query parameter the PHP way: `(int)` of the text, `fallback` when absent. */
function intParam(url: URL, name: string, fallback: number): number {
  const value = url.searchParams.get(name);
  if (value === null) return fallback;
  const n = Number.parseInt(value, 10);
  return Number.isNaN(n) ? 0 : n;
}

function shlinkShortUrl(link: GeneratedLink) {
  const bots = Array.from({ length: link.visits }, (_, j) => j % 5 === 4).filter(Boolean).length;
  return {
    shortCode: link.slug,
    shortUrl: `https://${link.domain ?? STAND_IN_DOMAIN}/${link.slug}`,
    longUrl: link.destination,
    dateCreated: shlinkDate(link.createdAt),
    visitsSummary: { total: link.visits, nonBots: link.visits - bots, bots },
    tags: link.tags,
    meta: { validSince: null, validUntil: null, maxVisits: null },
    domain: link.domain,
    title: link.title,
    crawlable: false,
    forwardQuery: true,
    hasRedirectRules: false,
  };
}

function shlinkVisit(link: GeneratedLink, j: number) {
  const visit = generatedVisit(link, j);
  const shortUrl = `https://${link.domain ?? STAND_IN_DOMAIN}/${link.slug}`;
  return {
    referer: visit.referrer ?? '',
    date: shlinkDate(visit.at),
    userAgent: visit.userAgent,
    visitLocation: visit.countryCode
      ? {
          countryCode: visit.countryCode,
          countryName: visit.countryName,
          regionName: visit.cityName ?? '',
          cityName: visit.cityName ?? '',
          latitude: 0,
          longitude: 0,
          timezone: 'Europe/Berlin',
          isEmpty: false,
        }
      : null,
    potentialBot: visit.bot,
    visitedUrl: shortUrl,
    redirectUrl: link.destination,
  };
}

/** A stand-in answering like Shlink's REST API. */
export function startShlinkStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const links = linksOf(options);
  const apiKey = options.apiKey ?? STAND_IN_API_KEY;
  const list = /^\/rest\/v[123]\/short-urls$/;
  const visits = /^\/rest\/v[123]\/short-urls\/([^/]+)\/visits$/;
  return listen((req, url) => {
    const listMatch = list.exec(url.pathname);
    const visitsMatch = visits.exec(url.pathname);
    if (req.method !== 'GET' || (!listMatch && !visitsMatch)) {
      return problem(404, 'not-found', 'Not found', 'The requested route does not exist on this server.');
    }
    const key = req.headers['x-api-key'];
    if (!key) {
      return problem(401, 'missing-authentication', 'Invalid authorization', 'No X-Api-Key header was sent.');
    }
    if (key !== apiKey) {
      return problem(
        401,
        'invalid-api-key',
        'Invalid API key',
        'The API key given does not exist or is not valid.',
      );
    }
    const page = Math.max(1, intParam(url, 'page', 1));
    if (listMatch) {
      const perPage = intParam(url, 'itemsPerPage', 10);
      return {
        status: 200,
        json: { shortUrls: pageOf(links.length, page, perPage, (i) => shlinkShortUrl(links[i]!)) },
      };
    }
    const code = decodeURIComponent(visitsMatch![1]!);
    const domain = url.searchParams.get('domain');
    const link = links.find(
      (l) => l.slug === code && (l.domain ?? null) === (domain && domain !== 'DEFAULT' ? domain : null),
    );
    if (!link) {
      return problem(
        404,
        'short-url-not-found',
        'Short URL not found',
        `No short URL was found for "${code}".`,
      );
    }
    // Newest first, as Shlink lists them.
    const visitsPage = pageOf(link.visits, page, intParam(url, 'itemsPerPage', -1), (i) =>
      shlinkVisit(link, link.visits - 1 - i),
    );
    return { status: 200, json: { visits: visitsPage } };
  }, links);
}

/** A stand-in answering like Kutt's API v2. */
export function startKuttStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const links = linksOf(options);
  const apiKey = options.apiKey ?? STAND_IN_API_KEY;
  return listen((req, url) => {
    if (req.method !== 'GET' || !/^\/api(?:\/v2)?\/links\/?$/.test(url.pathname)) {
      return {
        status: 404,
        type: 'text/html; charset=utf-8',
        body: '<!DOCTYPE html><html><head><title>404</title></head><body><h1>404 | Link could not be found.</h1></body></html>',
      };
    }
    if (req.headers['x-api-key'] !== apiKey) return { status: 401, json: { error: 'Unauthorized.' } };
    const asked = Number.parseInt(url.searchParams.get('limit') ?? '', 10) || 10;
    const limit = asked > 50 ? 50 : asked;
    const skip = Number.parseInt(url.searchParams.get('skip') ?? '', 10) || 0;
    const newestFirst = [...links].reverse();
    const data = newestFirst.slice(skip, skip + limit).map((link) => ({
      id: `00000000-0000-4000-8000-${link.index.toString(16).padStart(12, '0')}`,
      address: link.slug,
      banned: false,
      created_at: new Date(link.createdAt).toISOString(),
      updated_at: new Date(link.createdAt).toISOString(),
      password: false,
      description: link.title,
      expire_in: null,
      target: link.destination,
      visit_count: link.visits,
      domain: link.domain,
      link: `https://${link.domain ?? STAND_IN_DOMAIN}/${link.slug}`,
    }));
    return { status: 200, json: { total: links.length, limit, skip, data } };
  }, links);
}

/** A CSV field the way @json2csv/plainjs writes it: strings quoted (quotes doubled), numbers bare. */
function csvField(value: string | number): string {
  return typeof value === 'number' ? String(value) : `"${value.replace(/"/g, '""')}"`;
}

/** A Shlink CSV export (shlink-web-component's "Export") of `n` generated links, `visits` each. */
export function shlinkCsvOf(n: number, visits = 0): string {
  const header = ['createdAt', 'domain', 'shortCode', 'shortUrl', 'longUrl', 'title', 'tags', 'visits'];
  const lines = [header.map(csvField).join(',')];
  for (let i = 1; i <= n; i++) {
    const link = generatedLink(i, visits);
    const domain = link.domain ?? STAND_IN_DOMAIN;
    lines.push(
      [
        shlinkDate(link.createdAt),
        domain,
        link.slug,
        `https://${domain}/${link.slug}`,
        link.destination,
        link.title ?? '',
        link.tags.join('|'),
        link.visits,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\n');
}

const SQL_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '\\0',
  '\u001a': '\\Z',
};

/** A MySQL string literal as mysqldump writes it. */
function sqlString(value: string): string {
  let out = "'";
  for (const c of value) out += SQL_ESCAPES[c] ?? c;
  return `${out}'`;
}

function sqlTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Rows of an extended INSERT, as mysqldump groups them. */
function insertsOf(table: string, rows: string[], perStatement = 250): string[] {
  const statements: string[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    statements.push(`INSERT INTO \`${table}\` VALUES ${rows.slice(i, i + perStatement).join(',')};`);
  }
  return statements;
}

/**
 * A mysqldump of a YOURLS database (prefix `yourls_`, tables as functions-install.php creates them) with
 * `n` generated links and `visitsPerLink` clicks each in the log.
 */
export function yourlsDumpOf(n: number, visitsPerLink = 0): string {
  const urls: string[] = [];
  const logs: string[] = [];
  let clickId = 0;
  for (let i = 1; i <= n; i++) {
    const link = generatedLink(i, visitsPerLink);
    urls.push(
      `(${[sqlString(link.slug), sqlString(link.destination), link.title === null ? 'NULL' : sqlString(link.title), sqlString(sqlTime(link.createdAt)), sqlString('198.51.100.7'), visitsPerLink].join(',')})`,
    );
    for (let j = 0; j < visitsPerLink; j++) {
      const visit = generatedVisit(link, j);
      logs.push(
        `(${[++clickId, sqlString(sqlTime(visit.at)), sqlString(link.slug), sqlString(visit.referrer ?? 'direct'), sqlString(visit.userAgent), sqlString(visit.ip), sqlString(visit.countryCode ?? '')].join(',')})`,
      );
    }
  }
  return [
    '-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)',
    '--',
    '-- Host: localhost    Database: yourls',
    '-- ------------------------------------------------------',
    '/*!40101 SET NAMES utf8mb4 */;',
    "/*!40103 SET TIME_ZONE='+00:00' */;",
    '',
    'DROP TABLE IF EXISTS `yourls_url`;',
    'CREATE TABLE `yourls_url` (',
    "  `keyword` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '',",
    '  `url` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,',
    '  `title` text COLLATE utf8mb4_unicode_ci,',
    '  `timestamp` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,',
    '  `ip` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL,',
    '  `clicks` int unsigned NOT NULL,',
    '  PRIMARY KEY (`keyword`),',
    '  KEY `ip` (`ip`),',
    '  KEY `timestamp` (`timestamp`),',
    '  KEY `url_idx` (`url`(30))',
    ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;',
    'LOCK TABLES `yourls_url` WRITE;',
    ...insertsOf('yourls_url', urls),
    'UNLOCK TABLES;',
    '',
    'DROP TABLE IF EXISTS `yourls_log`;',
    'CREATE TABLE `yourls_log` (',
    '  `click_id` int NOT NULL AUTO_INCREMENT,',
    '  `click_time` datetime NOT NULL,',
    '  `shorturl` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,',
    '  `referrer` varchar(200) COLLATE utf8mb4_unicode_ci NOT NULL,',
    '  `user_agent` varchar(255) COLLATE utf8mb4_unicode_ci NOT NULL,',
    '  `ip_address` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL,',
    '  `country_code` char(2) COLLATE utf8mb4_unicode_ci NOT NULL,',
    '  PRIMARY KEY (`click_id`),',
    '  KEY `shorturl` (`shorturl`)',
    ') ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;',
    'LOCK TABLES `yourls_log` WRITE;',
    ...insertsOf('yourls_log', logs),
    'UNLOCK TABLES;',
    '',
    '-- Dump completed on 2024-06-01 12:00:00',
    '',
  ].join('\n');
}

/** A Bitly CSV export of `n` generated links (every third with a custom back-half on go.brand.example). */
export function bitlyCsvOf(n: number): string {
  const lines = ['Title,Link,Custom link,Destination URL,Date created,Tags,Engagements'];
  for (let i = 1; i <= n; i++) {
    const link = generatedLink(i, i % 50);
    const custom = i % 3 === 0 ? `https://go.brand.example/${link.slug}` : '';
    lines.push(
      [
        link.title ?? '',
        `https://bit.ly/b${i.toString(36)}X`,
        custom,
        link.destination,
        sqlTime(link.createdAt),
        link.tags.join(', '),
        String(link.visits),
      ]
        .map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v))
        .join(','),
    );
  }
  return lines.join('\r\n');
}
