import { SHORT_LINK_SLUG } from '../../../src/qr/slug.js';
import { isHttpUrl } from '../../../src/qr/field-checks.js';
import { normalizeQrType, redirectingQrTypes, type QrType } from '../../../src/qr/qr-types.js';
import type { RedirectExportFormat } from '../../../src/qr/redirect-export.schema.js';
import { readSmartRedirect, withTracking, type SmartRedirect } from '../../../src/qr/smart-redirect.js';
import { pointsAtOwnShortLink } from './destination.js';
import { shortUrlOf } from './qr.mapper.js';
import { domainBaseOf } from '../domains/short-domains.registry.js';

// The owner's redirect table written for another server: what `/r/<slug>` answers today, and the
// root-level links of the codes printed on a short domain (`go.example.com/<slug>`), in the grammar of
// a CSV file, an nginx map, a Caddyfile and a Netlify _redirects file. Pure functions of the rows, so
// the tests parse each format back without a database.

export interface DynamicCodeRow {
  slug: string | null;
  name: string;
  type: string;
  content: string;
  /** Smart-redirect options as stored (JSON text); null or absent: none. */
  redirectOptions?: string | null;
  /** The short link asks for a password. */
  passwordProtected?: boolean;
  /** The short domain its link is printed on (go.example.com); null or absent: PUBLIC_URL/r/. */
  domainHost?: string | null;
}

/** A code whose short link answers a plain 302: the one kind another server can take over. */
export interface ExportedRedirect {
  slug: string;
  /** The link as printed on the code: `<PUBLIC_URL>/r/<slug>`, or on its short domain `https://go.example.com/<slug>`. */
  shortUrl: string;
  /** The path a request for the short link carries: `/r/<slug>` under PUBLIC_URL's path. */
  path: string;
  /** The short domain its link is printed on (it answers at `/<slug>` there too); null: none. */
  domain: string | null;
  /** The Location the short link sends, in ASCII: exactly today's answer (see exportedDestination). */
  destination: string;
  name: string;
  /**
   * What the short link does here that a plain redirect cannot (rules, a schedule, a scan limit,
   * pause, query forwarding), in plain words; empty for a plain redirect. The export carries the
   * code's own link (with its UTM parameters), which is where a scan matching no rule goes.
   */
  notes: string[];
}

/** A code whose short link shows something other than a redirect; listed only as a comment. */
export interface SkippedCode {
  slug: string;
  path: string;
  type: QrType;
  /**
   * landing: a page of this server (text, Wi-Fi, vCard, …); loop: leads to one of its own short links;
   * protected: asks for a password, which a plain redirect would give away to anyone.
   */
  reason: 'landing' | 'loop' | 'protected';
}

export interface RedirectTable {
  /** PUBLIC_URL's origin: the short domain being re-hosted. */
  origin: string;
  /** PUBLIC_URL's path (usually empty), under which `/r/` lives. */
  basePath: string;
  redirects: ExportedRedirect[];
  skipped: SkippedCode[];
  exportedAt: string;
}

/**
 * The Location header `/r/<slug>` sends: the WHATWG serialisation (punycode host, percent-encoded
 * path and query), and then the few ASCII characters RFC 3986 forbids that WHATWG leaves in a query
 * or fragment (`{ } | \ ^ \``) percent-encoded too — which is what a browser sends when it follows
 * the redirect, so the destination is the same; it is also what lets every grammar below carry it
 * unquoted or quoted without a special case for braces (Caddy placeholders) or backslashes.
 */
export function exportedDestination(content: string): string {
  return new URL(content).href.replace(
    /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** What a plain redirect leaves out of a code's smart-redirect options, in plain words. */
export function notesOf(o: SmartRedirect): string[] {
  const notes: string[] = [];
  if (o.rules.length > 0) notes.push(`${o.rules.length} redirect rule${o.rules.length === 1 ? '' : 's'}`);
  if (o.activeFrom !== null || o.activeUntil !== null) notes.push('a schedule');
  if (o.maxScans !== null) notes.push(`a limit of ${o.maxScans} scans`);
  if (o.paused) notes.push('paused');
  if (o.forwardQuery) notes.push('query forwarding');
  return notes;
}

/** Sorts the owner's dynamic codes into what the short link redirects today and what it does not. */
export function redirectTableOf(
  publicUrl: string,
  rows: readonly DynamicCodeRow[],
  exportedAt: Date,
  isShortDomain?: (host: string) => boolean,
): RedirectTable {
  const base = new URL(publicUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const redirects: ExportedRedirect[] = [];
  const skipped: SkippedCode[] = [];
  for (const row of rows) {
    // The short link's own check (redirect.routes.ts): anything else is a 404 there, so it is left out here.
    if (!row.slug || !SHORT_LINK_SLUG.test(row.slug)) continue;
    const path = `${basePath}/r/${row.slug}`;
    const type = normalizeQrType(row.type);
    // The same decisions, in the same order, as the short link's handler.
    if (pointsAtOwnShortLink(publicUrl, row.content, isShortDomain)) {
      skipped.push({ slug: row.slug, path, type, reason: 'loop' });
    } else if (row.passwordProtected) {
      skipped.push({ slug: row.slug, path, type, reason: 'protected' });
    } else if (redirectingQrTypes.includes(type) && isHttpUrl(row.content)) {
      const options = readSmartRedirect(row.redirectOptions);
      redirects.push({
        slug: row.slug,
        shortUrl: row.domainHost
          ? `${domainBaseOf(publicUrl, row.domainHost)}${row.slug}`
          : shortUrlOf(publicUrl, row.slug),
        path,
        domain: row.domainHost || null,
        // UTM parameters are part of what the short link sends; a forwarded query is not (noted).
        destination: exportedDestination(
          options ? withTracking(row.content, options.utm, false, '') : row.content,
        ),
        name: row.name,
        notes: options ? notesOf(options) : [],
      });
    } else {
      skipped.push({ slug: row.slug, path, type, reason: 'landing' });
    }
  }
  return { origin: base.origin, basePath, redirects, skipped, exportedAt: exportedAt.toISOString() };
}

// ---------------------------------------------------------------------------------------------------
// Comments shared by the three server formats. Only our own words, slugs (checked above) and types
// go into a comment — never a code's name, which could carry a line break out of the comment.

/**
 * What the header says about short domains: how many codes print a link on which domain, where their
 * root-level links are in the file and what the domains need (`where`, in each format's words), and the
 * codes left out of them. Only counts, domains (PLAIN_HOST) and our words: never a code's name.
 */
function domainComment(table: RedirectTable, plan: DomainPlan, where: string[]): string[] {
  const onDomains = table.redirects.filter((r) => r.domain !== null).length;
  if (onDomains === 0) return [];
  const counts = plan.domains.map((d) => `${d.redirects.length} on ${d.host}`);
  const lines = [
    `${onDomains} of them print a short domain's link${counts.length > 0 ? `: ${counts.join(', ')}.` : '.'}`,
  ];
  if (plan.domains.length > 0) {
    lines.push(...where, 'They answer under /r/ on this address too, as they do today.');
  }
  if (plan.onOwnHost > 0) {
    lines.push(
      `${plan.onOwnHost} print(s) a link on ${plan.ownHost}, this address's own host, where only /r/ answers`,
      '(as on the app): they are under /r/ only.',
    );
  }
  if (plan.unnamed > 0) {
    lines.push(
      `${plan.unnamed} print(s) a link on a domain that is no plain host name (only a-z, 0-9, . and -),`,
      'which this file cannot carry: they are under /r/ only.',
    );
  }
  return lines;
}

function headerComment(table: RedirectTable, howTo: string[], domainLines: string[] = []): string {
  const lines = [
    `QR Creator: the redirect table of ${table.origin}${table.basePath}/r/, exported ${table.exportedAt}.`,
    `${table.redirects.length} dynamic code(s) redirect with 302, as the short links answer today.`,
    ...howTo,
    ...domainLines,
  ];
  return lines.map((l) => `# ${l}`).join('\n') + '\n';
}

const skippedReasons: Record<SkippedCode['reason'], string> = {
  landing: 'shows a page of this server, not a redirect',
  loop: "leads to one of this server's own short links, which is refused",
  protected:
    'asks for a password; a plain redirect would open it to anyone (remove the password to export it)',
};

function skippedComment(table: RedirectTable): string {
  const lines: string[] = [];
  if (table.skipped.length > 0) {
    lines.push('Not exported: these short links answer something other than a plain redirect.');
    for (const s of table.skipped) lines.push(`${s.path} (${s.type}): ${skippedReasons[s.reason]}`);
  }
  const noted = table.redirects.filter((r) => r.notes.length > 0);
  if (noted.length > 0) {
    lines.push("Exported as a plain redirect to the code's own link; what this file cannot carry:");
    for (const r of noted) lines.push(`${r.path}: ${r.notes.join(', ')}`);
  }
  return lines.map((l) => `# ${l}`).join('\n') + (lines.length > 0 ? '\n' : '');
}

/**
 * The keys (paths, or `<domain>/<slug>`) that differ only in letter case from another: nginx's string
 * keys and Caddy's path matcher ignore case.
 */
function caseCollisions(keys: readonly string[]): Set<string> {
  const seen = new Map<string, number>();
  for (const k of keys) seen.set(k.toLowerCase(), (seen.get(k.toLowerCase()) ?? 0) + 1);
  return new Set(keys.filter((k) => seen.get(k.toLowerCase())! > 1));
}

/**
 * A short domain as it may stand in a config file: a lower-case host name of letters, digits, dots and
 * hyphens, starting and ending with a letter or digit (a leading dot is a wildcard to nginx). Domains
 * are stored validated, so this never refuses one today; it keeps a config file from ever being broken
 * by one that is not.
 */
const PLAIN_HOST = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;

interface DomainPlan {
  /** PUBLIC_URL's host name. */
  ownHost: string;
  /** Each short domain the exported redirects print a link on, by name, with those redirects. */
  domains: { host: string; redirects: ExportedRedirect[] }[];
  /** Redirects on a domain named as PUBLIC_URL's host: the app answers there, not the root-level link. */
  onOwnHost: number;
  /** Redirects on a domain that fails PLAIN_HOST: left out of the domains' blocks (under /r/ only). */
  unnamed: number;
}

/** The exported redirects grouped by the short domain their link is printed on. */
function domainPlanOf(table: RedirectTable): DomainPlan {
  const ownHost = new URL(table.origin).hostname;
  const byHost = new Map<string, ExportedRedirect[]>();
  let onOwnHost = 0;
  let unnamed = 0;
  for (const r of table.redirects) {
    if (r.domain === null) continue;
    if (!PLAIN_HOST.test(r.domain)) {
      unnamed += 1;
    } else if (r.domain === ownHost) {
      // The live server never takes its own host for a short domain (short-domain-host.ts), and a second
      // block for it would clash with the one for /r/.
      onOwnHost += 1;
    } else {
      const onHost = byHost.get(r.domain);
      if (onHost) onHost.push(r);
      else byHost.set(r.domain, [r]);
    }
  }
  const domains = [...byHost.keys()].sort().map((host) => ({ host, redirects: byHost.get(host)! }));
  return { ownHost, domains, onOwnHost, unnamed };
}

/** A regular expression matching exactly `text` (PCRE and RE2 share these metacharacters). */
function literalRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------------
// CSV (RFC 4180)

/** Spreadsheets run a cell starting with one of these as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A field, always quoted (RFC 4180: `"` doubled; commas and line breaks inside quotes). */
export function csvField(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * `slug,short_url,destination,name,not_exported` (what the file cannot carry: rules, a schedule, …),
 * CRLF line ends, every field quoted. A name that a spreadsheet would run as a formula gets a leading
 * `'` (as in the analytics CSV); slugs and URLs never start so.
 */
export function renderCsv(table: RedirectTable): string {
  const rows = [
    ['slug', 'short_url', 'destination', 'name', 'not_exported'],
    ...table.redirects.map((r) => [
      r.slug,
      r.shortUrl,
      r.destination,
      FORMULA_START.test(r.name) ? `'${r.name}` : r.name,
      r.notes.join('; '),
    ]),
  ];
  return rows.map((cells) => cells.map(csvField).join(',') + '\r\n').join('');
}

// ---------------------------------------------------------------------------------------------------
// nginx

/**
 * A double-quoted nginx string whose text is taken literally: `\` and `"` escaped, and each `$`
 * (which would start a variable, or `$1` a capture) written as `${qr_dollar}`, a variable holding a
 * literal dollar (nginx has no escape for it). The destinations hold no `\` or `"` (percent-encoded).
 */
function nginxString(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&').replace(/\$/g, '${qr_dollar}')}"`;
}

/** A map's source value: a literal string or regex, where `$` is no variable (only `\\` and `"` escaped). */
function nginxKey(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

/** A map's entry: a string key, or an exact regex when its key differs from another only in case. */
function nginxEntry(key: string, destination: string, exact: ReadonlySet<string>): string {
  const source = exact.has(key) ? nginxKey(`~^${literalRegex(key)}$`) : nginxKey(key);
  return `    ${source} ${nginxString(destination)};`;
}

/** The start of a server block: port 80, the https note, its name. */
function nginxListen(serverName: string, https: boolean): (string | null)[] {
  return [
    'server {',
    '    listen 80;',
    '    listen [::]:80;',
    https ? '    # The short links are https: add listen 443 ssl and your ssl_certificate lines here.' : null,
    `    server_name ${serverName};`,
    '',
  ];
}

/** A location's answer: 302 to the map's destination, 404 when the map has none. */
function nginxAnswer(variable: string): string[] {
  return [
    `        if (${variable} = "") {`,
    '            return 404;',
    '        }',
    '        add_header Cache-Control "no-store" always;',
    '        add_header Referrer-Policy "no-referrer" always;',
    `        return 302 ${variable};`,
  ];
}

/**
 * To be included in nginx's `http { }` block: a `map` from the request's path to the destination, and
 * a server block for the short domain whose `location /r/` answers 302 to it (404 for any other slug).
 * String keys are matched ignoring case; slugs that differ only in case get exact regexes instead.
 *
 * Codes printed on a short domain also get their root-level link there: a second map, from `$host$uri`
 * (`go.example.com/menu`; nginx's `$host` is in lower case, without the port) so that a slug answers only
 * on its own domain, and a server block per domain whose every path asks that map (404 for any other).
 */
export function renderNginx(table: RedirectTable): string {
  const host = new URL(table.origin).hostname;
  const https = table.origin.startsWith('https:');
  const exact = caseCollisions(table.redirects.map((r) => r.path));
  const entries = table.redirects.map((r) => nginxEntry(r.path, r.destination, exact));
  const plan = domainPlanOf(table);
  const onDomains = plan.domains.flatMap((d) =>
    d.redirects.map((r) => ({ key: `${d.host}/${r.slug}`, destination: r.destination })),
  );
  const exactOnDomains = caseCollisions(onDomains.map((e) => e.key));
  const domainBlocks = plan.domains.flatMap((d) => [
    '',
    ...nginxListen(d.host, https),
    '    location / {',
    ...nginxAnswer('$qr_domain_destination'),
    '    }',
    '}',
  ]);
  return [
    headerComment(
      table,
      [
        'Include this file inside the http { } block of nginx.conf (include /etc/nginx/qr-redirects.conf;),',
        'then point the short domain at this server; `nginx -t` checks it.',
      ],
      domainComment(table, plan, [
        'Each answers at /<slug> on its domain: a server block per domain, at the end of this file; point',
        'each of those domains at this server too.',
      ]),
    ),
    skippedComment(table),
    '# A literal "$" for destinations that contain one (nginx has no escape for it).',
    'geo $qr_dollar {',
    '    default "$";',
    '}',
    '',
    'map $uri $qr_destination {',
    '    default "";',
    ...entries,
    '}',
    '',
    ...(onDomains.length > 0
      ? [
          "# The short domains' root-level links, by host and path: a slug answers only on its own domain.",
          'map $host$uri $qr_domain_destination {',
          '    default "";',
          ...onDomains.map((e) => nginxEntry(e.key, e.destination, exactOnDomains)),
          '}',
          '',
        ]
      : []),
    ...nginxListen(host, https),
    `    location ${table.basePath}/r/ {`,
    ...nginxAnswer('$qr_destination'),
    '    }',
    '}',
    ...domainBlocks,
    '',
  ]
    .filter((line) => line !== null)
    .join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Caddyfile

/** A double-quoted Caddyfile token: `\` and `"` escaped; braces never occur (percent-encoded). */
function caddyString(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * The redir lines for `redirects`, each matching the path `pathOf` gives it. Caddy's path matcher ignores
 * case, so paths that differ only in case get an exact `path_regexp` matcher of their own, named with the
 * shared counter (`matcher`) so that no two in the file share a name.
 */
function caddyRedirs(
  redirects: readonly ExportedRedirect[],
  pathOf: (r: ExportedRedirect) => string,
  matcher: { count: number },
): string[] {
  const exact = caseCollisions(redirects.map(pathOf));
  const lines: string[] = [];
  for (const r of redirects) {
    const path = pathOf(r);
    if (exact.has(path)) {
      matcher.count += 1;
      lines.push(`\t@qr_exact_${matcher.count} path_regexp ${caddyString(`^${literalRegex(path)}$`)}`);
      lines.push(`\tredir @qr_exact_${matcher.count} ${caddyString(r.destination)} 302`);
    } else {
      lines.push(`\tredir ${path} ${caddyString(r.destination)} 302`);
    }
  }
  return lines;
}

/**
 * A site block for the short domain with one `redir /r/<slug> "<url>" 302` per code and a 404 for
 * any other `/r/` path; then a site block per short domain the codes print a link on, with one
 * `redir /<slug> "<url>" 302` per code on it and a 404 for any other path there.
 */
export function renderCaddy(table: RedirectTable): string {
  const url = new URL(table.origin);
  // An https address gets Caddy's automatic certificates; http stays plain, port and all. A short
  // domain's link has PUBLIC_URL's scheme and no port (domainBaseOf), so its block is named alike.
  const https = url.protocol === 'https:';
  const address = https ? url.host : table.origin;
  const matcher = { count: 0 };
  const lines = caddyRedirs(table.redirects, (r) => r.path, matcher);
  const plan = domainPlanOf(table);
  const domainBlocks = plan.domains.flatMap((d) => [
    '',
    `${https ? d.host : `http://${d.host}`} {`,
    '\theader Cache-Control no-store',
    ...caddyRedirs(d.redirects, (r) => `/${r.slug}`, matcher),
    '\trespond "This QR code does not exist." 404',
    '}',
  ]);
  return [
    headerComment(
      table,
      [
        'Use it as the Caddyfile of the server that takes over the short domain (or paste the site block',
        'into yours); `caddy adapt --config Caddyfile` checks it.',
      ],
      domainComment(table, plan, [
        'Each answers at /<slug> on its domain: a site block per domain, at the end of this file; point',
        'each of those domains at this server too.',
      ]),
    ),
    skippedComment(table),
    `${address} {`,
    `\theader ${table.basePath}/r/* Cache-Control no-store`,
    ...lines,
    `\trespond ${table.basePath}/r/* "This QR code does not exist." 404`,
    '}',
    ...domainBlocks,
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Netlify _redirects

/**
 * `/r/<slug>  <url>  302`, one line per code. Fields are separated by white space and a `#` after
 * white space starts a comment; the destinations hold neither (percent-encoded). Netlify matches
 * paths case-sensitively, so every slug keeps its own line. A code printed on a short domain also gets
 * a line with a full-URL source, `https://go.example.com/<slug>  <url>  302`, which Netlify follows
 * for a domain of the site (its primary domain or a domain alias).
 */
export function renderNetlify(table: RedirectTable): string {
  const plan = domainPlanOf(table);
  return [
    headerComment(
      table,
      ['Save it as _redirects in the published folder of the Netlify site that serves the short domain.'],
      domainComment(table, plan, [
        'Each answers at /<slug> on its domain: the full-URL rules at the end of this file, which Netlify',
        'follows only for a domain of this site: add each of those domains to it as a domain alias.',
      ]),
    ),
    skippedComment(table),
    ...table.redirects.map((r) => `${r.path}  ${r.destination}  302`),
    // The link as printed (domainBaseOf: PUBLIC_URL's scheme, the domain, the slug), whose domain the
    // plan has checked.
    ...plan.domains.flatMap((d) => d.redirects.map((r) => `${r.shortUrl}  ${r.destination}  302`)),
    '',
  ].join('\n');
}

export interface RedirectExportFile {
  body: string;
  contentType: string;
}

export function renderRedirectTable(table: RedirectTable, format: RedirectExportFormat): RedirectExportFile {
  switch (format) {
    case 'csv':
      return { body: renderCsv(table), contentType: 'text/csv; charset=utf-8; header=present' };
    case 'nginx':
      return { body: renderNginx(table), contentType: 'text/plain; charset=utf-8' };
    case 'caddy':
      return { body: renderCaddy(table), contentType: 'text/plain; charset=utf-8' };
    case 'netlify':
      return { body: renderNetlify(table), contentType: 'text/plain; charset=utf-8' };
  }
}
