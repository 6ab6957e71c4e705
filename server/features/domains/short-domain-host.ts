import type { IncomingMessage } from 'node:http';
import { SHORT_LINK_SLUG } from '../../../src/qr/slug.js';
import type { ShortDomainEntry, ShortDomainRegistry } from './short-domains.registry.js';

/**
 * A request to a short domain (go.example.com): decided by its `Host` before routing (Fastify's
 * `rewriteUrl`), and mapped onto the short link's own routes, so that nothing of the app answers there:
 * - `/<slug>` and `/<slug>/contact.vcf|event.ics` → the short link's `/r/<slug>…` (`/r/<slug>` too, as is);
 * - `/` → SHORT_DOMAIN_ROOT (the domain's home page, or a not-found page);
 * - anything else (the app's pages, /api, /trpc, /assets) → SHORT_DOMAIN_UNKNOWN.
 * A request whose host is no short domain is not touched: one map read when domains exist, none otherwise.
 */
export const SHORT_DOMAIN_ROOT = '/_short-domain/root';
export const SHORT_DOMAIN_UNKNOWN = '/_short-domain/not-found';

/**
 * The short domain of each request that came in on one, beside the request rather than on it: a property
 * added to some IncomingMessages and not others gives Node's HTTP code two shapes of request to handle,
 * which cost a root-level scan about a third more CPU than a `/r/` one (bench:redirect DOMAIN=1).
 */
const domains = new WeakMap<IncomingMessage, ShortDomainEntry>();

/** The short domain a request came in on; undefined: the app's own address. */
export function shortDomainOf(req: { raw: IncomingMessage }): ShortDomainEntry | undefined {
  return domains.get(req.raw);
}

const FILES = new Set(['contact.vcf', 'event.ics']);

/** The route path a short domain's request goes to (its query kept). */
export function shortDomainPath(url: string): string {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const query = at < 0 ? '' : url.slice(at);
  if (path === '/' || path === '') return SHORT_DOMAIN_ROOT + query;
  const parts = path.slice(1).split('/');
  if (parts[0] === 'r') parts.shift();
  const [slug, file, ...rest] = parts;
  if (slug !== undefined && SHORT_LINK_SLUG.test(slug) && rest.length === 0) {
    if (file === undefined) return `/r/${slug}${query}`;
    if (FILES.has(file)) return `/r/${slug}/${file}${query}`;
  }
  return SHORT_DOMAIN_UNKNOWN;
}

/**
 * Fastify's `rewriteUrl` for the app: short domains' requests onto the short link's routes. The app's own
 * host (`appHost`, PUBLIC_URL's) is never one, even if a domain of that name was added before PUBLIC_URL
 * changed to it: the app stays reachable at its address.
 */
export function shortDomainRewrite(
  registry: ShortDomainRegistry,
  appHost: string,
): (req: IncomingMessage) => string {
  return (req) => {
    const url = req.url ?? '/';
    if (registry.size === 0) return url;
    const domain = registry.forHost(req.headers.host);
    if (!domain || domain.hostname === appHost) return url;
    domains.set(req, domain);
    return shortDomainPath(url);
  };
}
