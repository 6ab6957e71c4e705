import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/built-app.mjs';
import {
  exportedDestination,
  redirectTableOf,
  renderCaddy,
  renderCsv,
  renderNetlify,
  renderNginx,
  type DynamicCodeRow,
  type RedirectTable,
} from './redirect-export.js';

// Each format is parsed back by its own grammar (written here from the nginx, Caddyfile, Netlify and
// RFC 4180 documentation, independently of the renderer) and the routing it describes is compared with
// the codes. nginx also checks its file itself with `nginx -t` when it is installed.

const PUBLIC_URL = 'https://qr.example.com';
const NOW = new Date('2026-03-01T12:00:00.000Z');

/** Destinations chosen to break a naive writer of each grammar. */
const tricky: DynamicCodeRow[] = [
  { slug: 'plain01', name: 'Menu', type: 'url', content: 'https://example.com/menu' },
  { slug: 'quotes1', name: 'Say "hi", ok', type: 'url', content: 'https://example.com/a"b\'c' },
  { slug: 'semico1', name: 'semi;colon', type: 'url', content: 'https://example.com/a;b?c=d;e' },
  { slug: 'braces1', name: '{braces}', type: 'url', content: 'https://example.com/p?q={x}&r=}{' },
  { slug: 'dollar1', name: 'Price', type: 'url', content: 'https://example.com/p?price=$1&v=${host}$' },
  { slug: 'hash001', name: 'Anchor', type: 'url', content: 'https://example.com/page?x=1#top`{1}' },
  { slug: 'unicod1', name: 'Café Menü', type: 'url', content: 'https://bücher.example/straße?q=ü' },
  { slug: 'bslash1', name: 'odd', type: 'social', content: 'https://example.com/q?a=\\b|c^d`e' },
  { slug: 'space01', name: 'line\nbreak', type: 'video', content: 'https://example.com/a%20b?c=d%20e' },
  { slug: 'formula', name: '=HYPERLINK("x")', type: 'pdf', content: 'http://example.com:8080/doc.pdf' },
  // Slugs that differ only in letter case must each keep their own destination.
  { slug: 'caseAbC', name: 'upper', type: 'url', content: 'https://example.com/upper' },
  { slug: 'caseabc', name: 'lower', type: 'url', content: 'https://example.com/lower' },
  // Not plain redirects: listed only as comments.
  { slug: 'vcard01', name: 'Me', type: 'vcard', content: 'BEGIN:VCARD\nFN:Me\nEND:VCARD' },
  { slug: 'wifi001', name: 'Wi-Fi', type: 'wifi', content: 'WIFI:S:net;T:WPA;P:pw;;' },
  { slug: 'loop001', name: 'loop', type: 'url', content: 'https://qr.example.com/r/plain01' },
  // Unreachable today (a slug the short link refuses): left out.
  { slug: 'bad slug', name: 'bad', type: 'url', content: 'https://example.com/bad' },
  { slug: null, name: 'no slug', type: 'url', content: 'https://example.com/none' },
];

const table = redirectTableOf(PUBLIC_URL, tricky, NOW);

/** What `/r/<slug>` must lead to according to an export: path → destination. */
function expectedRoutes(t: RedirectTable): Map<string, string> {
  return new Map(t.redirects.map((r) => [r.path, r.destination]));
}

const GO = 'go.example.com';
const LINKS = 'links.example.org';

/**
 * Codes printed on two short domains (slugs are unique server-wide, so one slug per domain), a pair on
 * one domain that differs only in case, and domains no config file may carry as they are.
 */
const onDomains: DynamicCodeRow[] = [
  { slug: 'menu', name: 'Go menu', type: 'url', content: 'https://example.com/go?price=$5', domainHost: GO },
  {
    slug: 'GoCase',
    name: 'upper on go',
    type: 'url',
    content: 'https://example.com/go-upper',
    domainHost: GO,
  },
  {
    slug: 'gocase',
    name: 'lower on go',
    type: 'url',
    content: 'https://example.com/go-lower',
    domainHost: GO,
  },
  { slug: 'promo1', name: 'Promo', type: 'url', content: 'https://example.org/promo', domainHost: LINKS },
  // A page of this server on a domain: a comment under /r/, as without a domain.
  { slug: 'gocard1', name: 'Card', type: 'vcard', content: 'BEGIN:VCARD\nEND:VCARD', domainHost: GO },
  // Never stored so (domains are validated host names), yet never let into a config file.
  { slug: 'odd0001', name: 'odd', type: 'url', content: 'https://example.com/odd', domainHost: 'bad host;}' },
  // A domain named as PUBLIC_URL's host: the app answers there, so only /r/ does.
  {
    slug: 'self001',
    name: 'self',
    type: 'url',
    content: 'https://example.com/self',
    domainHost: 'qr.example.com',
  },
];

const withDomains = redirectTableOf(PUBLIC_URL, [...tricky, ...onDomains], NOW);

/** What `/<slug>` on each short domain must lead to according to an export: host → path → destination. */
function expectedDomainRoutes(t: RedirectTable, ownHost: string): Map<string, Map<string, string>> {
  const routes = new Map<string, Map<string, string>>();
  for (const r of t.redirects) {
    if (r.domain === null || !/^[a-z0-9.-]+$/.test(r.domain) || r.domain === ownHost) continue;
    routes.set(
      r.domain,
      (routes.get(r.domain) ?? new Map<string, string>()).set(`/${r.slug}`, r.destination),
    );
  }
  return routes;
}

/** The header lines every server format writes about the domains of `withDomains`. */
const domainHeader = [
  "# 6 of them print a short domain's link: 3 on go.example.com, 1 on links.example.org.",
  '# They answer under /r/ on this address too, as they do today.',
  "# 1 print(s) a link on qr.example.com, this address's own host, where only /r/ answers",
  '# 1 print(s) a link on a domain that is no plain host name (only a-z, 0-9, . and -),',
];

// ---------------------------------------------------------------------------------------------------

describe('redirectTableOf', () => {
  it('exports exactly the codes whose short link redirects, as the short link does', () => {
    expect(table.redirects.map((r) => r.slug)).toEqual([
      'plain01',
      'quotes1',
      'semico1',
      'braces1',
      'dollar1',
      'hash001',
      'unicod1',
      'bslash1',
      'space01',
      'formula',
      'caseAbC',
      'caseabc',
    ]);
    expect(table.skipped).toEqual([
      { slug: 'vcard01', path: '/r/vcard01', type: 'vcard', reason: 'landing' },
      { slug: 'wifi001', path: '/r/wifi001', type: 'wifi', reason: 'landing' },
      { slug: 'loop001', path: '/r/loop001', type: 'url', reason: 'loop' },
    ]);
    expect(table.redirects[0]).toEqual({
      slug: 'plain01',
      shortUrl: 'https://qr.example.com/r/plain01',
      path: '/r/plain01',
      domain: null,
      destination: 'https://example.com/menu',
      name: 'Menu',
      notes: [],
    });
  });

  it('writes destinations in ASCII with nothing a grammar could trip on', () => {
    for (const r of table.redirects) {
      expect(r.destination).toMatch(/^https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/);
      expect(r.destination).not.toMatch(/[\s"{}\\|^`]/);
    }
    const byslug = Object.fromEntries(table.redirects.map((r) => [r.slug, r.destination]));
    expect(byslug.unicod1).toBe('https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%BC');
    expect(byslug.braces1).toBe('https://example.com/p?q=%7Bx%7D&r=%7D%7B');
    expect(byslug.hash001).toBe('https://example.com/page?x=1#top%60%7B1%7D');
    expect(byslug.quotes1).toBe("https://example.com/a%22b'c");
    // The dollar signs stay: each grammar carries them literally.
    expect(byslug.dollar1).toBe('https://example.com/p?price=$1&v=$%7Bhost%7D$');
    expect(exportedDestination('https://example.com/a b?c d')).toBe('https://example.com/a%20b?c%20d');
  });

  it('puts the short links under PUBLIC_URL’s path', () => {
    const sub = redirectTableOf('http://localhost:3000/qr', [tricky[0]!], NOW);
    expect(sub.redirects[0]).toMatchObject({
      path: '/qr/r/plain01',
      shortUrl: 'http://localhost:3000/qr/r/plain01',
    });
    expect(sub.origin).toBe('http://localhost:3000');
  });

  it('keeps the short domain a code is printed on, and its link there', () => {
    const bySlug = new Map(withDomains.redirects.map((r) => [r.slug, r]));
    expect(bySlug.get('menu')).toMatchObject({
      domain: GO,
      path: '/r/menu',
      shortUrl: 'https://go.example.com/menu',
      destination: 'https://example.com/go?price=$5',
    });
    expect(bySlug.get('promo1')).toMatchObject({
      domain: LINKS,
      shortUrl: 'https://links.example.org/promo1',
    });
    expect(bySlug.get('plain01')!.domain).toBeNull();
    expect(withDomains.skipped).toContainEqual({
      slug: 'gocard1',
      path: '/r/gocard1',
      type: 'vcard',
      reason: 'landing',
    });
    expect(expectedDomainRoutes(withDomains, 'qr.example.com')).toEqual(
      new Map([
        [
          GO,
          new Map([
            ['/menu', 'https://example.com/go?price=$5'],
            ['/GoCase', 'https://example.com/go-upper'],
            ['/gocase', 'https://example.com/go-lower'],
          ]),
        ],
        [LINKS, new Map([['/promo1', 'https://example.org/promo']])],
      ]),
    );
  });

  it('names the domains in the server formats’ header, never a code', () => {
    for (const render of [renderNginx, renderCaddy, renderNetlify]) {
      const file = render(withDomains);
      for (const line of domainHeader) expect(file).toContain(line);
      expect(file).not.toContain('not in this file');
      expect(file).not.toContain('bad host');
      for (const name of ['Go menu', 'upper on go', 'Promo']) expect(file).not.toContain(name);
    }
    // Without codes on a domain, not a word about them.
    for (const render of [renderNginx, renderCaddy, renderNetlify]) {
      expect(render(table)).not.toContain("short domain's link");
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// CSV: a strict RFC 4180 reader

function parseCsvStrict(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const row: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i += 1;
        for (;;) {
          if (i >= text.length) throw new Error('unterminated quoted field');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i += 1;
            break;
          }
          field += text[i];
          i += 1;
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
          field += text[i];
          i += 1;
        }
      }
      row.push(field);
      if (text[i] === ',') {
        i += 1;
        continue;
      }
      if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      }
      throw new Error(`expected , or CRLF at ${i}, got ${JSON.stringify(text[i])}`);
    }
    rows.push(row);
  }
  return rows;
}

describe('smart-redirect options in the export', () => {
  const options = (o: object) => JSON.stringify(o);
  const smart = redirectTableOf(
    PUBLIC_URL,
    [
      {
        slug: 'every01',
        name: 'All of it',
        type: 'url',
        content: 'https://example.com/a?utm_source=mine#x',
        redirectOptions: options({
          rules: [
            { conditions: [{ kind: 'os', os: ['ios'] }], destination: 'https://apps.apple.com/a' },
            { conditions: [{ kind: 'os', os: ['android'] }], destination: 'https://play.google.com/a' },
          ],
          activeFrom: '2026-01-01T00:00:00.000Z',
          maxScans: 10,
          paused: true,
          forwardQuery: true,
          utm: { source: '', medium: 'print', campaign: '', term: '', content: '' },
        }),
      },
      {
        slug: 'locked1',
        name: 'Locked',
        type: 'url',
        content: 'https://example.com/l',
        passwordProtected: true,
      },
      {
        slug: 'broken1',
        name: 'Bad JSON',
        type: 'url',
        content: 'https://example.com/b',
        redirectOptions: '{',
      },
    ],
    NOW,
  );

  it('sends to the code’s own link with its UTM parameters, never replacing one it has', () => {
    expect(smart.redirects.map((r) => [r.slug, r.destination])).toEqual([
      ['every01', 'https://example.com/a?utm_source=mine&utm_medium=print#x'],
      ['broken1', 'https://example.com/b'],
    ]);
  });

  it('names everything a plain redirect leaves out, in every format', () => {
    expect(smart.redirects[0]!.notes).toEqual([
      '2 redirect rules',
      'a schedule',
      'a limit of 10 scans',
      'paused',
      'query forwarding',
    ]);
    const line = '# /r/every01: 2 redirect rules, a schedule, a limit of 10 scans, paused, query forwarding';
    for (const render of [renderNginx, renderCaddy, renderNetlify]) expect(render(smart)).toContain(line);
    expect(parseCsvStrict(renderCsv(smart))[1]![4]).toBe(
      '2 redirect rules; a schedule; a limit of 10 scans; paused; query forwarding',
    );
  });

  it('leaves a password-protected code out, saying why', () => {
    expect(smart.skipped).toEqual([
      { slug: 'locked1', path: '/r/locked1', type: 'url', reason: 'protected' },
    ]);
    for (const render of [renderNginx, renderCaddy, renderNetlify, renderCsv]) {
      expect(render(smart)).not.toContain('example.com/l');
    }
    expect(renderNetlify(smart)).toContain('# /r/locked1 (url): asks for a password');
  });
});

describe('renderCsv', () => {
  it('parses back, row for row, to the codes', () => {
    const rows = parseCsvStrict(renderCsv(table));
    expect(rows[0]).toEqual(['slug', 'short_url', 'destination', 'name', 'not_exported']);
    expect(rows.slice(1)).toEqual(
      table.redirects.map((r) => [
        r.slug,
        r.shortUrl,
        r.destination,
        r.name === '=HYPERLINK("x")' ? `'${r.name}` : r.name,
        '',
      ]),
    );
    // Names keep their commas, quotes and line breaks.
    expect(rows.map((r) => r[3])).toContain('line\nbreak');
    expect(rows.map((r) => r[3])).toContain('Say "hi", ok');
  });

  it('is only the header for an owner without redirects', () => {
    expect(renderCsv(redirectTableOf(PUBLIC_URL, [], NOW))).toBe(
      '"slug","short_url","destination","name","not_exported"\r\n',
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// nginx: the configuration grammar (words, quoted strings with \ escapes, ; { } and # comments)

type NginxNode = { args: string[]; raw: string[]; block?: NginxNode[] };

function tokenizeNginx(text: string): { value: string; raw: string; quoted: boolean }[] {
  const tokens: { value: string; raw: string; quoted: boolean }[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === ';' || c === '{' || c === '}') {
      tokens.push({ value: c, raw: c, quoted: false });
      i += 1;
    } else if (c === '"' || c === "'") {
      let value = '';
      const start = i;
      i += 1;
      while (text[i] !== c) {
        if (i >= text.length) throw new Error('unterminated string');
        // nginx unescapes \" \' \\ \t \r \n in a quoted string and keeps any other backslash.
        const next = text[i + 1];
        if (text[i] === '\\' && next !== undefined && '"\'\\trn'.includes(next)) {
          value += next === 't' ? '\t' : next === 'r' ? '\r' : next === 'n' ? '\n' : next;
          i += 2;
        } else {
          value += text[i];
          i += 1;
        }
      }
      i += 1;
      tokens.push({ value, raw: text.slice(start, i), quoted: true });
    } else {
      const start = i;
      while (i < text.length && !/[\s;{}]/.test(text[i]!)) i += 1;
      tokens.push({ value: text.slice(start, i), raw: text.slice(start, i), quoted: false });
    }
  }
  return tokens;
}

function parseNginx(text: string): NginxNode[] {
  const tokens = tokenizeNginx(text);
  let i = 0;
  const block = (depth: number): NginxNode[] => {
    const nodes: NginxNode[] = [];
    for (;;) {
      const t = tokens[i];
      if (!t) {
        if (depth > 0) throw new Error('unclosed block');
        return nodes;
      }
      if (t.value === '}' && !t.quoted) {
        if (depth === 0) throw new Error('unexpected }');
        i += 1;
        return nodes;
      }
      const args: string[] = [];
      const raw: string[] = [];
      for (;;) {
        const a = tokens[i];
        if (!a) throw new Error(`directive ${args[0]} not ended`);
        i += 1;
        if (!a.quoted && a.value === ';') {
          nodes.push({ args, raw });
          break;
        }
        if (!a.quoted && a.value === '{') {
          nodes.push({ args, raw, block: block(depth + 1) });
          break;
        }
        if (!a.quoted && a.value === '}') throw new Error('unexpected }');
        args.push(a.value);
        raw.push(a.raw);
      }
    }
  };
  return block(0);
}

/** The map's routing as nginx runs it: exact strings (ignoring case) first, then regexes in order. */
function nginxRoute(nodes: NginxNode[], uri: string): string | undefined {
  return nginxMapRoute(nodes, '$uri', '$qr_destination', uri);
}

/** The short domains' map, keyed by `$host$uri` (nginx's `$host`: the Host header in lower case). */
function nginxDomainRoute(nodes: NginxNode[], host: string, uri: string): string | undefined {
  return nginxMapRoute(nodes, '$host$uri', '$qr_domain_destination', `${host.toLowerCase()}${uri}`);
}

function nginxMapRoute(
  nodes: NginxNode[],
  source: string,
  variable: string,
  uri: string,
): string | undefined {
  const map = nodes.find((n) => n.args[0] === 'map' && n.args[2] === variable)!;
  expect(map, `map ${source} ${variable}`).toBeDefined();
  expect(map.args[1]).toBe(source);
  const dollar = nodes.find((n) => n.args[0] === 'geo' && n.args[1] === '$qr_dollar')!;
  const literalDollar = dollar.block!.find((n) => n.args[0] === 'default')!.args[1]!;
  expect(literalDollar).toBe('$');
  // A value's variables: only ${qr_dollar} may appear, and it stands for "$".
  const valueOf = (v: string) => {
    const rest = v.replace(/\$\{qr_dollar\}/g, '');
    expect(rest, `a variable in ${v}`).not.toContain('$');
    return v.replace(/\$\{qr_dollar\}/g, literalDollar);
  };
  const entries = map.block!.filter((n) => n.args[0] !== 'default');
  for (const e of entries) expect(e.args).toHaveLength(2);
  const exact = entries.find(
    (e) => !e.args[0]!.startsWith('~') && e.args[0]!.toLowerCase() === uri.toLowerCase(),
  );
  if (exact) return valueOf(exact.args[1]!);
  for (const e of entries) {
    if (e.args[0]!.startsWith('~') && new RegExp(e.args[0]!.slice(1)).test(uri)) return valueOf(e.args[1]!);
  }
  return undefined;
}

const nginxBinary = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].find((p) =>
  fs.existsSync(p),
);
const tempDirs: string[] = [];

afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('renderNginx', () => {
  const conf = renderNginx(table);
  const nodes = parseNginx(conf);

  it('parses back to a map that sends every short link to its destination', () => {
    for (const [uri, destination] of expectedRoutes(table))
      expect(nginxRoute(nodes, uri), uri).toBe(destination);
    expect(nginxRoute(nodes, '/r/vcard01')).toBeUndefined();
    expect(nginxRoute(nodes, '/r/nothing')).toBeUndefined();
    // Slugs differing only in case are exact regexes; the others plain strings (a hash lookup).
    const keys = nodes.find((n) => n.args[0] === 'map')!.block!.map((n) => n.args[0]);
    expect(keys).toContain('~^/r/caseAbC$');
    expect(keys).toContain('/r/plain01');
  });

  it('answers 302 from the location /r/ and 404 for an unknown slug', () => {
    const server = nodes.find((n) => n.args[0] === 'server')!;
    expect(server.block!.find((n) => n.args[0] === 'server_name')!.args).toEqual([
      'server_name',
      'qr.example.com',
    ]);
    const location = server.block!.find((n) => n.args[0] === 'location')!;
    expect(location.args).toEqual(['location', '/r/']);
    expect(location.block!.find((n) => n.args[0] === 'return')!.args).toEqual([
      'return',
      '302',
      '$qr_destination',
    ]);
    const guard = location.block!.find((n) => n.args[0] === 'if')!;
    expect(guard.args).toEqual(['if', '($qr_destination', '=', '', ')']);
    expect(guard.block![0]!.args).toEqual(['return', '404']);
  });

  it('keeps names out of the file and lists the codes that are not redirects as comments', () => {
    expect(conf).not.toContain('HYPERLINK');
    expect(conf).not.toContain('line\nbreak');
    expect(conf).toContain('# /r/vcard01 (vcard): shows a page of this server, not a redirect');
    expect(conf).toContain("# /r/loop001 (url): leads to one of this server's own short links");
  });

  describe('with codes on short domains', () => {
    const file = renderNginx(withDomains);
    const parsed = parseNginx(file);
    const servers = parsed.filter((n) => n.args[0] === 'server');
    const serverNamed = (name: string) =>
      servers.filter((n) => n.block!.some((d) => d.args[0] === 'server_name' && d.args[1] === name));

    it('still answers every code under /r/ on PUBLIC_URL’s host', () => {
      for (const [uri, destination] of expectedRoutes(withDomains))
        expect(nginxRoute(parsed, uri), uri).toBe(destination);
      expect(nginxRoute(parsed, '/r/menu')).toBe('https://example.com/go?price=$5');
    });

    it('maps each domain’s /<slug> to its destination, and nothing across domains', () => {
      const routes = expectedDomainRoutes(withDomains, 'qr.example.com');
      expect([...routes.keys()]).toEqual([GO, LINKS]);
      for (const [host, paths] of routes) {
        for (const [uri, destination] of paths) {
          expect(nginxDomainRoute(parsed, host, uri), `${host}${uri}`).toBe(destination);
        }
      }
      // A slug answers only on its own domain, only at the root, and only in its own case when another
      // differs from it only in case.
      expect(nginxDomainRoute(parsed, LINKS, '/menu')).toBeUndefined();
      expect(nginxDomainRoute(parsed, GO, '/promo1')).toBeUndefined();
      expect(nginxDomainRoute(parsed, GO, '/r/menu')).toBeUndefined();
      expect(nginxDomainRoute(parsed, GO, '/')).toBeUndefined();
      expect(nginxDomainRoute(parsed, GO, '/GOCASE')).toBeUndefined();
      expect(nginxDomainRoute(parsed, GO, '/gocard1')).toBeUndefined();
      expect(nginxDomainRoute(parsed, 'qr.example.com', '/self001')).toBeUndefined();
      const keys = parsed.find((n) => n.args[2] === '$qr_domain_destination')!.block!.map((n) => n.args[0]);
      expect(keys).toEqual([
        'default',
        'go.example.com/menu',
        '~^go\\.example\\.com/GoCase$',
        '~^go\\.example\\.com/gocase$',
        'links.example.org/promo1',
      ]);
    });

    it('answers them in a server block per domain, 404 for any other path', () => {
      expect(servers.map((n) => n.block!.find((d) => d.args[0] === 'server_name')!.args[1])).toEqual([
        'qr.example.com',
        GO,
        LINKS,
      ]);
      for (const host of [GO, LINKS]) {
        const [server, ...more] = serverNamed(host);
        expect(more, host).toEqual([]);
        expect(server!.block!.filter((d) => d.args[0] === 'listen').map((d) => d.args)).toEqual([
          ['listen', '80'],
          ['listen', '[::]:80'],
        ]);
        const locations = server!.block!.filter((d) => d.args[0] === 'location');
        expect(locations.map((l) => l.args)).toEqual([['location', '/']]);
        expect(locations[0]!.block!.map((d) => d.args)).toEqual([
          ['if', '($qr_domain_destination', '=', '', ')'],
          ['add_header', 'Cache-Control', 'no-store', 'always'],
          ['add_header', 'Referrer-Policy', 'no-referrer', 'always'],
          ['return', '302', '$qr_domain_destination'],
        ]);
        expect(locations[0]!.block![0]!.block!.map((d) => d.args)).toEqual([['return', '404']]);
      }
      // The https note in every block of an https PUBLIC_URL; none for http.
      expect(file.match(/# The short links are https: add listen 443 ssl/g)).toHaveLength(3);
      const plain = renderNginx(redirectTableOf('http://localhost:3000', onDomains, NOW));
      expect(plain).not.toContain('https: add listen');
      expect(plain).toContain(`server_name ${GO};`);
      // A domain no config may carry, or PUBLIC_URL's own host, gets no block of its own.
      expect(serverNamed('qr.example.com')).toHaveLength(1);
      expect(file).not.toContain('bad host');
    });

    it('adds nothing for an owner without codes on a domain', () => {
      expect(conf).not.toContain('qr_domain_destination');
      expect(nodes.filter((n) => n.args[0] === 'server')).toHaveLength(1);
    });
  });

  it('passes nginx -t, included in a minimal nginx.conf', (ctx) => {
    if (!nginxBinary) {
      // Said out loud, never a silent pass: install nginx-light (Debian) to run this check.
      console.warn('SKIPPED: nginx is not installed, so `nginx -t` was not run on the export');
      ctx.skip();
      return;
    }
    nginxCheck(conf);
  });

  it('passes nginx -t with the short domains’ server blocks', (ctx) => {
    if (!nginxBinary) {
      console.warn('SKIPPED: nginx is not installed, so `nginx -t` was not run on the export');
      ctx.skip();
      return;
    }
    nginxCheck(renderNginx(withDomains));
  });

  /** `nginx -t` on `conf` included in a minimal nginx.conf: no error, no warning (a clashing server_name). */
  function nginxCheck(conf: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-nginx-'));
    tempDirs.push(dir);
    fs.mkdirSync(path.join(dir, 'logs'));
    fs.writeFileSync(path.join(dir, 'qr-redirects.conf'), conf);
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        'error_log logs/error.log;',
        'pid logs/nginx.pid;',
        'events {}',
        'http {',
        '    access_log off;',
        `    include ${path.join(dir, 'qr-redirects.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const run = spawnSync(nginxBinary!, ['-t', '-q', '-p', dir, '-c', path.join(dir, 'nginx.conf')], {
      encoding: 'utf8',
    });
    expect(run.stderr + run.stdout).not.toMatch(/emerg|warn/);
    expect(run.status, run.stderr).toBe(0);
  }

  it('serves every redirect when nginx runs the file', async (ctx) => {
    if (!nginxBinary) {
      console.warn('SKIPPED: nginx is not installed, so the export was not served by nginx');
      ctx.skip();
      return;
    }
    const port = await freePort();
    const served = redirectTableOf(`http://127.0.0.1:${port}`, [...tricky, ...onDomains], NOW);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-nginx-run-'));
    tempDirs.push(dir);
    fs.mkdirSync(path.join(dir, 'logs'));
    // Only the listen lines change, in every server block: a free loopback port instead of 80.
    const file = renderNginx(served)
      .replaceAll('listen 80;', `listen 127.0.0.1:${port};`)
      .replaceAll('    listen [::]:80;\n', '');
    expect(file).toContain(`server_name ${GO};`);
    expect(file).not.toMatch(/listen (\[::\]:)?80;/);
    fs.writeFileSync(path.join(dir, 'qr-redirects.conf'), file);
    const conf = path.join(dir, 'nginx.conf');
    fs.writeFileSync(
      conf,
      `error_log logs/error.log;\npid logs/nginx.pid;\nevents {}\nhttp {\n    access_log off;\n    include ${path.join(dir, 'qr-redirects.conf')};\n}\n`,
    );
    const start = spawnSync(nginxBinary, ['-p', dir, '-c', conf], { encoding: 'utf8' });
    expect(start.status, start.stderr).toBe(0);
    try {
      // node:http, as fetch may not set the Host header.
      const request = (uri: string, host: string) =>
        new Promise<{ status: number; location: string | null; cache: string | null }>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port, path: uri, headers: { host } }, (res) => {
              res.resume();
              resolve({
                status: res.statusCode!,
                location: res.headers.location ?? null,
                cache: res.headers['cache-control'] ?? null,
              });
            })
            .on('error', reject);
        });
      const answer = async (uri: string, host = `127.0.0.1:${port}`) => {
        for (let attempt = 0; ; attempt++) {
          try {
            const { status, location } = await request(uri, host);
            return { status, location };
          } catch (error) {
            if (attempt > 20) throw error;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      };
      for (const [uri, destination] of expectedRoutes(served)) {
        expect(await answer(uri), uri).toEqual({ status: 302, location: destination });
      }
      expect((await answer('/r/vcard01')).status).toBe(404);
      expect((await answer('/r/CASEABC')).status).toBe(404);
      // The printed links on the short domains, by Host (in any case, with a port: nginx's $host drops it).
      expect(await answer('/menu', GO)).toEqual({ status: 302, location: 'https://example.com/go?price=$5' });
      expect(await request('/menu', GO)).toMatchObject({ cache: 'no-store' });
      expect(await answer('/menu', `Go.Example.COM:${port}`)).toEqual({
        status: 302,
        location: 'https://example.com/go?price=$5',
      });
      const domainRoutes = expectedDomainRoutes(served, '127.0.0.1');
      expect([...domainRoutes.keys()].sort()).toEqual([GO, LINKS, 'qr.example.com']);
      for (const [host, paths] of domainRoutes) {
        for (const [uri, destination] of paths) {
          expect(await answer(uri, host), `${host}${uri}`).toEqual({ status: 302, location: destination });
        }
      }
      for (const [host, uri] of [
        [LINKS, '/menu'],
        [GO, '/promo1'],
        [GO, '/GOCASE'],
        [GO, '/'],
        [GO, '/r/menu'],
        [GO, '/gocard1'],
        [GO, '/nothing'],
      ] as const) {
        expect((await answer(uri, host)).status, `${host}${uri}`).toBe(404);
      }
    } finally {
      spawnSync(nginxBinary, ['-p', dir, '-c', conf, '-s', 'stop']);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Caddyfile: tokens split by white space, "quoted" with \" escapes, # comments at a token's start,
// { } blocks; a site block holds directives, one per line.

interface CaddyLine {
  tokens: string[];
  quoted: boolean[];
}

interface CaddySite {
  address: string;
  lines: CaddyLine[];
}

/** A Caddyfile of exactly one site block (an export without codes on short domains). */
function parseCaddyfile(text: string): CaddySite {
  const sites = parseCaddySites(text);
  expect(sites).toHaveLength(1);
  return sites[0]!;
}

/** A Caddyfile of site blocks, one after the other: `address {`, its directives, `}`. */
function parseCaddySites(text: string): CaddySite[] {
  const lines: CaddyLine[] = [];
  let current: CaddyLine = { tokens: [], quoted: [] };
  let i = 0;
  const flush = () => {
    if (current.tokens.length > 0) lines.push(current);
    current = { tokens: [], quoted: [] };
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      flush();
      i += 1;
    } else if (/\s/.test(c)) {
      i += 1;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === '"') {
      let value = '';
      i += 1;
      while (text[i] !== '"') {
        if (i >= text.length) throw new Error('unterminated quoted token');
        if (text[i] === '\n') throw new Error('line break inside a quoted token');
        if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
          value += text[i + 1];
          i += 2;
        } else {
          value += text[i];
          i += 1;
        }
      }
      i += 1;
      current.tokens.push(value);
      current.quoted.push(true);
    } else {
      const start = i;
      while (i < text.length && !/\s/.test(text[i]!)) i += 1;
      current.tokens.push(text.slice(start, i));
      current.quoted.push(false);
    }
  }
  flush();
  const sites: CaddySite[] = [];
  let at = 0;
  while (at < lines.length) {
    const open = lines[at]!;
    expect(open.tokens).toHaveLength(2);
    expect(open.tokens[1]).toBe('{');
    const close = lines.findIndex((l, i) => i > at && l.tokens.length === 1 && l.tokens[0] === '}');
    expect(close, 'an unclosed site block').toBeGreaterThan(at);
    const body = lines.slice(at + 1, close);
    for (const line of body) {
      // No other block opens inside; no {placeholder} Caddy would substitute.
      expect(line.tokens).not.toContain('{');
      for (const token of line.tokens) expect(token, token).not.toMatch(/[{}]/);
    }
    sites.push({ address: open.tokens[0]!, lines: body });
    at = close + 1;
  }
  return sites;
}

/** Caddy's routing of the redir lines: named path_regexp matchers, or a path matched ignoring case. */
function caddyRoute(lines: CaddyLine[], uri: string): string[] {
  const matchers = new Map<string, RegExp>();
  for (const l of lines) {
    if (l.tokens[0]!.startsWith('@')) {
      expect(l.tokens[1]).toBe('path_regexp');
      matchers.set(l.tokens[0]!, new RegExp(l.tokens[2]!));
    }
  }
  return lines
    .filter((l) => l.tokens[0] === 'redir')
    .filter((l) => {
      expect(l.tokens).toHaveLength(4);
      expect(l.tokens[3]).toBe('302');
      const m = l.tokens[1]!;
      return m.startsWith('@') ? matchers.get(m)!.test(uri) : m.toLowerCase() === uri.toLowerCase();
    })
    .map((l) => l.tokens[2]!);
}

describe('renderCaddy', () => {
  const file = renderCaddy(table);
  const parsed = parseCaddyfile(file);

  it('parses back to one redir per short link, each matching only its own path', () => {
    expect(parsed.address).toBe('qr.example.com');
    for (const [uri, destination] of expectedRoutes(table))
      expect(caddyRoute(parsed.lines, uri), uri).toEqual([destination]);
    expect(caddyRoute(parsed.lines, '/r/vcard01')).toEqual([]);
    const respond = parsed.lines.find((l) => l.tokens[0] === 'respond')!;
    expect(respond.tokens).toEqual(['respond', '/r/*', 'This QR code does not exist.', '404']);
    expect(file).not.toContain('HYPERLINK');
  });

  it('names an http PUBLIC_URL with its scheme and port', () => {
    const local = parseCaddyfile(
      renderCaddy(redirectTableOf('http://localhost:3000', tricky.slice(0, 2), NOW)),
    );
    expect(local.address).toBe('http://localhost:3000');
  });

  /** `caddy adapt` of a Caddyfile: its JSON; undefined (the test skipped) when Caddy is not installed. */
  function caddyAdapt(ctx: { skip: () => void }, caddyfile: string): unknown {
    const caddy = spawnSync('caddy', ['version'], { encoding: 'utf8' });
    if (caddy.error) {
      console.warn('SKIPPED: caddy is not installed; the Caddyfile was checked by its grammar only');
      ctx.skip();
      return undefined;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-caddy-'));
    tempDirs.push(dir);
    fs.writeFileSync(path.join(dir, 'Caddyfile'), caddyfile);
    return JSON.parse(
      execFileSync('caddy', ['adapt', '--config', path.join(dir, 'Caddyfile')], { encoding: 'utf8' }),
    );
  }

  it('passes `caddy adapt` when Caddy is installed', (ctx) => {
    expect(caddyAdapt(ctx, file)).toHaveProperty('apps');
  });

  describe('with codes on short domains', () => {
    const domainFile = renderCaddy(withDomains);
    const sites = parseCaddySites(domainFile);
    const site = (address: string) => sites.find((s) => s.address === address)!;

    it('keeps the /r/ site block and adds a site block per domain', () => {
      expect(sites.map((s) => s.address)).toEqual(['qr.example.com', GO, LINKS]);
      for (const [uri, destination] of expectedRoutes(withDomains))
        expect(caddyRoute(site('qr.example.com').lines, uri), uri).toEqual([destination]);
      // An http PUBLIC_URL prints http links on its domains: the blocks say so (no certificates). Here
      // qr.example.com is no longer PUBLIC_URL's host, so it is a domain like the others.
      expect(
        parseCaddySites(renderCaddy(redirectTableOf('http://localhost:3000', onDomains, NOW))).map(
          (s) => s.address,
        ),
      ).toEqual(['http://localhost:3000', `http://${GO}`, `http://${LINKS}`, 'http://qr.example.com']);
    });

    it('redirects each domain’s /<slug>, exact regexes for a case pair, 404 for anything else', () => {
      const routes = expectedDomainRoutes(withDomains, 'qr.example.com');
      for (const [host, paths] of routes) {
        const { lines } = site(host);
        for (const [uri, destination] of paths)
          expect(caddyRoute(lines, uri), `${host}${uri}`).toEqual([destination]);
        expect(lines[0]!.tokens).toEqual(['header', 'Cache-Control', 'no-store']);
        expect(lines.at(-1)!.tokens).toEqual(['respond', 'This QR code does not exist.', '404']);
        for (const uri of ['/', '/r/menu', '/gocard1', '/GOCASE'])
          expect(caddyRoute(lines, uri), `${host}${uri}`).toEqual([]);
      }
      expect(caddyRoute(site(LINKS).lines, '/menu')).toEqual([]);
      expect(caddyRoute(site(GO).lines, '/promo1')).toEqual([]);
      expect(
        site(GO)
          .lines.filter((l) => l.tokens[1] === 'path_regexp')
          .map((l) => l.tokens[2]),
      ).toEqual(['^/GoCase$', '^/gocase$']);
      // Matcher names are not reused across the file.
      const names = sites.flatMap((s) => s.lines.filter((l) => l.tokens[1] === 'path_regexp'));
      expect(new Set(names.map((l) => l.tokens[0])).size).toBe(names.length);
      expect(domainFile).not.toContain('bad host');
    });

    it('passes `caddy adapt`, with a route for each domain’s host', (ctx) => {
      const adapted = caddyAdapt(ctx, domainFile) as {
        apps: { http: { servers: Record<string, { routes: CaddyRoute[] }> } };
      };
      const routes = Object.values(adapted.apps.http.servers).flatMap((s) => s.routes);
      const forHost = (host: string) => {
        const found = routes.filter((r) => r.match?.some((m) => m.host?.includes(host)));
        expect(found, host).toHaveLength(1);
        return found[0]!.handle.flatMap((h) => h.routes ?? []);
      };
      /** The Location a subroute sends for a path matcher or a path_regexp, or undefined. */
      const redirectOf = (sub: CaddyRoute[], matches: (m: CaddyMatch) => boolean) =>
        sub
          .filter((r) => r.match?.some(matches))
          .flatMap((r) => r.handle)
          .find((h) => h.handler === 'static_response' && h.status_code === 302)?.headers?.Location;
      const go = forHost(GO);
      expect(redirectOf(go, (m) => m.path?.includes('/menu') ?? false)).toEqual([
        'https://example.com/go?price=$5',
      ]);
      expect(redirectOf(go, (m) => m.path_regexp?.pattern === '^/GoCase$')).toEqual([
        'https://example.com/go-upper',
      ]);
      expect(redirectOf(forHost(LINKS), (m) => m.path?.includes('/promo1') ?? false)).toEqual([
        'https://example.org/promo',
      ]);
      expect(redirectOf(forHost(LINKS), (m) => m.path?.includes('/menu') ?? false)).toBeUndefined();
      // The last route of a domain: a 404 for anything else, with no matcher.
      expect(go.at(-1)).toEqual({
        handle: [{ handler: 'static_response', status_code: 404, body: 'This QR code does not exist.' }],
      });
      expect(redirectOf(forHost('qr.example.com'), (m) => m.path?.includes('/r/menu') ?? false)).toEqual([
        'https://example.com/go?price=$5',
      ]);
    });
  });
});

/** The parts of `caddy adapt`'s JSON the test reads. */
interface CaddyMatch {
  host?: string[];
  path?: string[];
  path_regexp?: { name?: string; pattern: string };
}
interface CaddyRoute {
  match?: CaddyMatch[];
  handle: {
    handler: string;
    status_code?: number;
    headers?: { Location?: string[] };
    routes?: CaddyRoute[];
  }[];
}

// ---------------------------------------------------------------------------------------------------
// Netlify _redirects: a # at a line's start or after white space starts a comment; fields split by
// white space; `from [query…] to [status]`, `to` being the first field that is a path or a URL.

function parseNetlify(text: string): { from: string; to: string; status: string }[] {
  return text
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*/u, '').trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [from, ...parts] = line.split(/\s+/);
      const toIndex = parts.findIndex((p) => p.startsWith('/') || /^https?:\/\//.test(p));
      expect(toIndex, line).toBe(0);
      expect(parts, line).toHaveLength(2);
      return { from: from!, to: parts[0]!, status: parts[1]! };
    });
}

describe('renderNetlify', () => {
  it('parses back to one 302 rule per short link, paths matched case-sensitively', () => {
    const rules = parseNetlify(renderNetlify(table));
    expect(rules).toEqual(table.redirects.map((r) => ({ from: r.path, to: r.destination, status: '302' })));
    expect(renderNetlify(table)).toContain('# /r/wifi001 (wifi): shows a page of this server');
  });

  it('adds a full-URL rule for each link printed on a short domain, after the /r/ rules', () => {
    const file = renderNetlify(withDomains);
    const rules = parseNetlify(file);
    expect(rules.slice(0, withDomains.redirects.length)).toEqual(
      withDomains.redirects.map((r) => ({ from: r.path, to: r.destination, status: '302' })),
    );
    expect(file.split('\n').slice(-5)).toEqual([
      'https://go.example.com/menu  https://example.com/go?price=$5  302',
      'https://go.example.com/GoCase  https://example.com/go-upper  302',
      'https://go.example.com/gocase  https://example.com/go-lower  302',
      'https://links.example.org/promo1  https://example.org/promo  302',
      '',
    ]);
    expect(rules).toHaveLength(withDomains.redirects.length + 4);
    expect(file).toContain(
      '# follows only for a domain of this site: add each of those domains to it as a domain alias.',
    );
    // An http PUBLIC_URL prints http links on its domains.
    expect(renderNetlify(redirectTableOf('http://localhost:3000', onDomains, NOW))).toContain(
      '\nhttp://links.example.org/promo1  https://example.org/promo  302\n',
    );
  });
});
