import { SHORT_LINK_SLUG } from '../../../src/qr/slug.js';
import { randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHttpUrl } from '../../../src/qr/field-checks.js';
import { normalizeQrType, redirectingQrTypes } from '../../../src/qr/qr-types.js';
import { gateScan, refusalOf, storedRuleOf } from '../../../src/qr/scan-outcome.js';
import {
  scheduleState,
  withTracking,
  type InactiveReason,
  type RedirectDecision,
} from '../../../src/qr/smart-redirect.js';
import type { RuntimeDeps } from '../../app-deps.js';
import { deleteAttemptsById, deleteAttemptsByKey } from '../auth/auth.repository.js';
import { recordAttempt } from '../auth/login-throttle.js';
import { verifyPassword } from '../auth/passwords.js';
import { extrasOf } from '../../errors.js';
import { calendarFile, contactFile } from './landing/downloads.js';
import {
  renderInactivePage,
  renderOpeningPage,
  renderPasswordPage,
  renderPasswordThrottledPage,
} from './landing/smart-pages.js';
import { renderLandingPage, renderNotFoundPage } from './landing-page.js';
import { scanLocaleOf, type ScanLocale } from './landing/messages/index.js';
import {
  isValidPasswordCookie,
  passwordCookieName,
  passwordCookieSecret,
  passwordCookieValue,
} from './password-gate.js';
import { findDynamicCodeBySlug, prepareShortLinks, type ShortLinkTarget } from './redirect.repository.js';
import { storedAddress } from '../scans/client-address.js';
import { scanFactsOf } from './scan-facts.js';
import { pointsAtOwnShortLink } from '../qr/destination.js';
import { isDestinationDown } from '../destination-checks/destination-checks.service.js';
import { SHORT_DOMAIN_ROOT, SHORT_DOMAIN_UNKNOWN, shortDomainOf } from '../domains/short-domain-host.js';
import { availableTo, shortDomainsOf, type ShortDomainEntry } from '../domains/short-domains.registry.js';

/** Wrong passwords one address may try on one code in PASSWORD_WINDOW_MS (shared by every instance). */
export const PASSWORD_TRIES = 5;
export const PASSWORD_WINDOW_MS = 15 * 60_000;
const PASSWORD_BODY_MAX = 4096;

/** With a nonce, that one inline script may run; without, no script at all. Forms only where asked. */
function landingCsp(nonce: string | null, formAction: "'none'" | "'self'" = "'none'") {
  const scripts = nonce ? `; script-src 'nonce-${nonce}'` : '';
  return `default-src 'none'; style-src 'unsafe-inline'${scripts}; img-src 'self' data:; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`;
}

/**
 * A page of the short link, with its own headers. Every header goes in before send(): one set after it
 * reaches the client only when an async onSend hook happens to delay the write (the tests' answer check
 * is one), so Retry-After and Referrer-Policy were lost on a real server.
 */
function html(
  reply: FastifyReply,
  status: number,
  body: string,
  options: { formAction?: "'none'" | "'self'"; headers?: Record<string, string> } = {},
) {
  return languageHeaders(reply)
    .status(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Content-Security-Policy', landingCsp(null, options.formAction ?? "'none'"))
    .header('X-Frame-Options', 'DENY')
    .headers(options.headers ?? {})
    .send(body);
}

/**
 * The scan pages speak the scanner's language (Accept-Language; landing/messages): parsed by the pages
 * only (a redirect never parses the header).
 */
function localeOf(req: FastifyRequest): ScanLocale {
  return scanLocaleOf(req.headers['accept-language']);
}

/** Says which language the page is in, and that the answer depends on the one asked for. */
function languageHeaders(reply: FastifyReply) {
  return reply.header('Content-Language', localeOf(reply.request)).header('Vary', 'Accept-Language');
}

function notFound(reply: FastifyReply) {
  return languageHeaders(reply)
    .status(404)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Content-Security-Policy', landingCsp(null))
    .send(renderNotFoundPage({ locale: localeOf(reply.request) }));
}

/** The request's query string without its `?` ('' when none). */
function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/**
 * The short link itself, with the scan's query: where the password form posts and then moves on to. On a
 * short domain, its root-level path.
 */
const shortPath = (slug: string, query: string, domain?: ShortDomainEntry) =>
  `${domain ? '' : '/r'}/${slug}${query ? `?${query}` : ''}`;

/**
 * Whether a code answers on the short domain a request came in on: on the app's own address every code
 * does; on a short domain, the code that uses it, and every code of a workspace that may use it (a code
 * moved to another of its domains keeps answering at the old one: it may be printed).
 */
const answersOn = (
  domain: ShortDomainEntry | undefined,
  code: { user_id: number; domain_id: number | null },
) =>
  domain === undefined ||
  (code.domain_id !== null && Number(code.domain_id) === domain.id) ||
  availableTo(domain, code.user_id);

/** A link a short domain does not know: to the domain's page for them when it has one, else not found. */
function unknownLink(reply: FastifyReply, domain: ShortDomainEntry | undefined) {
  if (domain?.notFoundUrl)
    return reply
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .redirect(new URL(domain.notFoundUrl).href, 302);
  return notFound(reply);
}

/** Paused and not yet started may come back: 200. Ended and over the limit will not: 410 Gone. */
const inactiveStatus: Record<InactiveReason, number> = {
  paused: 200,
  'not-started': 200,
  ended: 410,
  limit: 410,
};

/**
 * The public short link a dynamic code encodes. Every GET records the scan — committed before the
 * answer leaves — then redirects (302, never cached, so an edited destination applies to the very
 * next scan) or shows a small landing page. HEAD answers the same headers without recording.
 *
 * Smart redirects (src/qr/smart-redirect.ts), decided from the cached row without another read:
 * - paused, not started, ended or over its scan limit: the scan is recorded flagged (refused-scans.ts)
 *   and answered with the fallback URL (302) or a "not available" page with the owner's message;
 * - otherwise the first rule whose conditions all match picks the destination, else the code's own;
 *   UTM parameters and the scan's forwarded query are appended to whichever it is (and the fallback).
 * - a code with a password shows a form first (recorded as a password-form scan); POST /r/<slug> checks
 *   the password (argon2; PASSWORD_TRIES wrong ones per address and code in 15 minutes, then 429) and
 *   sets a signed per-code cookie (password-gate.ts); the short link, then served, records the scan
 *   with the rule that served it.
 */
export function registerRedirectRoutes(app: FastifyInstance, deps: RuntimeDeps) {
  prepareShortLinks(deps.db);
  /** A malformed slug never reaches the database; on a short domain, only the codes that answer there. */
  const findCode = async (slug: string, domain: ShortDomainEntry | undefined) => {
    const code = SHORT_LINK_SLUG.test(slug) ? await findDynamicCodeBySlug(deps.db, slug) : undefined;
    return code && answersOn(domain, code) ? code : undefined;
  };

  const passwordCookieOk = async (req: FastifyRequest, code: ShortLinkTarget, nowMs: number) =>
    code.password_hash === null ||
    isValidPasswordCookie(
      await passwordCookieSecret(deps.db),
      { id: code.id, password_hash: code.password_hash },
      req.cookies[passwordCookieName(code.id)],
      nowMs,
    );

  /**
   * What a destination says, worked out once per string (it is the same on every scan of a code): whether
   * it leads to one of our own short links, and the ASCII URL a Location names (punycode host,
   * percent-encoded path and query), null when it is no http(s) URL. Two URL parses a scan fewer.
   */
  const destinations = new Map<string, { own: boolean; href: string | null }>();
  const shortDomains = shortDomainsOf(deps.db);
  let hostsVersion = shortDomains.hostsVersion;
  const destinationOf = (url: string) => {
    // A short domain added or removed since: whether a destination is one of ours may have changed.
    if (hostsVersion !== shortDomains.hostsVersion) {
      destinations.clear();
      hostsVersion = shortDomains.hostsVersion;
    }
    let facts = destinations.get(url);
    if (!facts) {
      facts = {
        own: pointsAtOwnShortLink(deps.config.publicUrl, url, shortDomains.isShortDomain),
        href: isHttpUrl(url) ? new URL(url).href : null,
      };
      if (destinations.size >= 1000) destinations.clear();
      if (url.length <= 2048) destinations.set(url, facts);
    }
    return facts;
  };

  // Same-origin, so the browser's post carries our Origin (no-referrer would send `Origin: null`).
  const showPasswordForm = (reply: FastifyReply, action: string, error?: 'wrong' | 'missing') =>
    html(
      reply,
      200,
      renderPasswordPage({ action, ...(error ? { error } : {}) }, { locale: localeOf(reply.request) }),
      {
        formAction: "'self'",
        headers: { 'Referrer-Policy': 'same-origin' },
      },
    );

  app.route<{ Params: { slug: string } }>({
    method: ['GET', 'HEAD'],
    url: '/r/:slug',
    handler: async (req, reply) => {
      const { slug } = req.params;
      const domain = shortDomainOf(req);
      const code = await findCode(slug, domain);
      if (!code) return unknownLink(reply, domain);
      const type = normalizeQrType(code.type);
      const now = deps.clock.now();
      const query = queryOf(req.url);
      // Behind a trusted proxy each read of req.ip parses X-Forwarded-For again: once is enough.
      const ip = req.ip;
      // Read before deciding: nothing awaits between the decision and the scan's count (scan-counts.ts).
      const unlocked = code.password_hash === null || (await passwordCookieOk(req, code, now.getTime()));
      const options = code.options;
      const decision: RedirectDecision = code.decide
        ? code.decide(
            code.content,
            scanFactsOf({
              userAgent: req.headers['user-agent'],
              acceptLanguage: req.headers['accept-language'],
              country: () => deps.scans.countryOf(ip),
              at: now,
              scansBefore: () => code.servedScans(),
            }),
          )
        : { kind: 'go', url: code.content, rule: null };
      // The same gate as the designer's "Test a scan" (src/qr/scan-outcome.ts): a refused scan gets its
      // page whatever the password; one to be served gets the password form until the right one is given.
      const answer = gateScan(decision, !unlocked);
      if (req.method === 'GET') {
        // Every scan is recorded with what it led to: its refusal (a password form is one: it takes no
        // place under a scan limit) or the rule that served it.
        const recorded = await deps.scans.record(
          { qrCodeId: code.id, ownerId: code.user_id },
          {
            ip,
            userAgent: req.headers['user-agent'],
            referrer: req.headers.referer,
          },
          refusalOf(answer),
          storedRuleOf(answer),
        );
        // Deleted between the lookup and the scan's commit: it is gone for this scan too.
        if (!recorded) return notFound(reply);
      }
      void reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      if (answer.kind === 'inactive') {
        const fallback = options?.fallbackUrl;
        if (fallback && !destinationOf(fallback).own)
          return reply.redirect(
            new URL(withTracking(fallback, options.utm, options.forwardQuery, query)).href,
            302,
          );
        return html(
          reply,
          inactiveStatus[answer.reason],
          renderInactivePage(answer.reason, options?.inactiveMessage ?? null, { locale: localeOf(req) }),
        );
      }
      if (answer.kind === 'password') return showPasswordForm(reply, shortPath(slug, query, domain));
      // Never a redirect to one of our own short links (a code saved before that was refused, or a
      // PUBLIC_URL changed since): each hop would be another scan.
      const destination = destinationOf(answer.url);
      if (destination.own) {
        return reply
          .status(508)
          .header('Content-Type', 'text/plain; charset=utf-8')
          .send('This QR code leads to one of its own short links, so it is not followed.');
      }
      if (redirectingQrTypes.includes(type) && destination.href !== null) {
        // The owner's choice: while the checks find this destination down, its scans go to the fallback.
        const fallback = options?.fallbackWhenDown ? options.fallbackUrl : null;
        if (fallback && isDestinationDown(deps.db, answer.url) && !destinationOf(fallback).own)
          return reply.redirect(
            new URL(withTracking(fallback, options!.utm, options!.forwardQuery, query)).href,
            302,
          );
        // An ASCII Location naming the same URL: punycode host, percent-encoded path and query.
        const location = options
          ? new URL(withTracking(answer.url, options.utm, options.forwardQuery, query)).href
          : destination.href;
        return reply.redirect(location, 302);
      }
      const nonce = randomBytes(12).toString('base64');
      return languageHeaders(reply)
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Content-Security-Policy', landingCsp(nonce))
        .header('X-Frame-Options', 'DENY')
        .send(
          renderLandingPage(
            { type, content: code.content, name: code.name, slug },
            { nonce, locale: localeOf(req) },
          ),
        );
    },
  });

  // The password form's post: the only form body the app takes, on this one route (an encapsulated
  // parser), from our own page — the app's cross-origin check refuses a foreign origin's post.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: PASSWORD_BODY_MAX },
      (_req, body, done) => done(null, new URLSearchParams(body as string)),
    );
    scope.post<{ Params: { slug: string } }>('/r/:slug', async (req, reply) => {
      const { slug } = req.params;
      const domain = shortDomainOf(req);
      const code = await findCode(slug, domain);
      if (!code) return unknownLink(reply, domain);
      const next = shortPath(slug, queryOf(req.url), domain);
      // Nothing to unlock (the password was removed meanwhile): on to the short link.
      if (code.password_hash === null)
        return reply.status(303).header('Cache-Control', 'no-store').redirect(next);
      const password = req.body instanceof URLSearchParams ? req.body.get('password') : null;
      if (!password) return showPasswordForm(reply, next, 'missing');
      // ANONYMIZE_IPS: the key holds the masked address, like every stored address.
      const key = `short-link:${code.id}:${storedAddress(deps.config, req.ip)}`;
      const now = deps.clock.now();
      let attempt: number[];
      try {
        attempt = await recordAttempt(
          deps.db,
          [{ key, max: PASSWORD_TRIES }],
          PASSWORD_WINDOW_MS,
          now,
          'password attempts',
        );
      } catch (error) {
        if (!(error instanceof TRPCError) || error.code !== 'TOO_MANY_REQUESTS') throw error;
        const retryAfter = Number(extrasOf(error)?.retryAfterSeconds ?? PASSWORD_WINDOW_MS / 1000);
        return html(reply, 429, renderPasswordThrottledPage(retryAfter, { locale: localeOf(req) }), {
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
      if (!(await verifyPassword(code.password_hash, password.slice(0, 1024))))
        return showPasswordForm(reply, next, 'wrong');
      // Right: this address's failures on this code are forgotten, and so is this attempt.
      await deleteAttemptsById(deps.db, attempt);
      await deleteAttemptsByKey(deps.db, key);
      const cookie = passwordCookieValue(
        await passwordCookieSecret(deps.db),
        { id: code.id, password_hash: code.password_hash },
        now.getTime(),
      );
      void reply.setCookie(passwordCookieName(code.id), cookie.value, {
        // On a short domain the link is /<slug> (and its files /r/<slug>/…): the cookie, named per code, goes to every path.
        path: domain ? '/' : `/r/${slug}`,
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.config.publicUrl.startsWith('https:'),
        maxAge: cookie.maxAgeSeconds,
      });
      return html(reply, 200, renderOpeningPage(next, { locale: localeOf(req) }), {
        headers: { 'Referrer-Policy': 'no-referrer' },
      });
    });
    done();
  });

  // The landing pages' follow-up downloads; not scans. Not while the code is paused, not started or
  // ended, nor, behind a password, without the cookie (then on to the short link's form).
  const download = (
    file: string,
    type: 'vcard' | 'event',
    contentType: string,
    build: (content: string) => { body: string; filename: string },
  ) =>
    app.get<{ Params: { slug: string } }>(`/r/:slug/${file}`, async (req, reply) => {
      const domain = shortDomainOf(req);
      const code = await findCode(req.params.slug, domain);
      if (!code || normalizeQrType(code.type) !== type) return unknownLink(reply, domain);
      const now = deps.clock.now();
      if (code.options && scheduleState(code.options, now) !== null) return notFound(reply);
      if (!(await passwordCookieOk(req, code, now.getTime())))
        return reply
          .status(303)
          .header('Cache-Control', 'no-store')
          .redirect(shortPath(req.params.slug, '', domain));
      const { body, filename } = build(code.content);
      return reply
        .header('Content-Type', `${contentType}; charset=utf-8`)
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .header('Cache-Control', 'no-store')
        .send(body);
    });
  download('contact.vcf', 'vcard', 'text/vcard', contactFile);
  download('event.ics', 'event', 'text/calendar', calendarFile);

  // A short domain's own address (go.example.com/): its home page when it has one. Every other path there
  // that is no short link: its page for unknown links. On the app's own address, neither exists.
  app.route({
    method: ['GET', 'HEAD'],
    url: SHORT_DOMAIN_ROOT,
    handler: (req, reply) => {
      const domain = shortDomainOf(req);
      if (!domain) return reply.callNotFound();
      if (domain.rootUrl)
        return reply
          .header('Cache-Control', 'no-store')
          .header('Referrer-Policy', 'no-referrer')
          .redirect(new URL(domain.rootUrl).href, 302);
      return notFound(reply);
    },
  });
  app.all(SHORT_DOMAIN_UNKNOWN, (req, reply) => {
    const domain = shortDomainOf(req);
    if (!domain) return reply.callNotFound();
    return req.method === 'GET' || req.method === 'HEAD' ? unknownLink(reply, domain) : notFound(reply);
  });
}
