import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isHttpUrl } from '../../../src/qr/field-checks.js';
import { normalizeQrType, redirectingQrTypes } from '../../../src/qr/qr-types.js';
import type { RuntimeDeps } from '../../app-deps.js';
import { calendarFile, contactFile } from './landing/downloads.js';
import { renderLandingPage, renderNotFoundPage } from './landing-page.js';
import { findDynamicCodeBySlug, prepareShortLinks } from './redirect.repository.js';
import { pointsAtOwnShortLink } from '../qr/destination.js';

const SLUG = /^[A-Za-z0-9_-]{1,32}$/;

/** With a nonce, that one inline script may run; without, no script at all. */
function landingCsp(nonce: string | null) {
  const scripts = nonce ? `; script-src 'nonce-${nonce}'` : '';
  return `default-src 'none'; style-src 'unsafe-inline'${scripts}; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

function notFound(reply: FastifyReply) {
  return reply
    .status(404)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Content-Security-Policy', landingCsp(null))
    .send(renderNotFoundPage());
}

/**
 * The public short link a dynamic code encodes. Every GET records the scan — committed before the
 * answer leaves — then redirects (302, never cached, so an edited destination applies to the very
 * next scan) or shows a small landing page. HEAD answers the same headers without recording.
 */
export function registerRedirectRoutes(app: FastifyInstance, deps: RuntimeDeps) {
  prepareShortLinks(deps.db);
  /** A malformed slug never reaches the database. */
  const findCode = async (slug: string) =>
    SLUG.test(slug) ? await findDynamicCodeBySlug(deps.db, slug) : undefined;

  app.route<{ Params: { slug: string } }>({
    method: ['GET', 'HEAD'],
    url: '/r/:slug',
    handler: async (req, reply) => {
      const { slug } = req.params;
      const code = await findCode(slug);
      if (!code) return notFound(reply);
      const type = normalizeQrType(code.type);
      if (req.method === 'GET') {
        const recorded = await deps.scans.record(
          { qrCodeId: code.id, ownerId: code.user_id },
          {
            ip: req.ip,
            userAgent: req.headers['user-agent'],
            referrer: req.headers.referer,
          },
        );
        // Deleted between the lookup and the scan's commit: it is gone for this scan too.
        if (!recorded) return notFound(reply);
      }
      void reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      // Never a redirect to one of our own short links (a code saved before that was refused, or a
      // PUBLIC_URL changed since): each hop would be another scan.
      if (pointsAtOwnShortLink(deps.config.publicUrl, code.content)) {
        return reply
          .status(508)
          .header('Content-Type', 'text/plain; charset=utf-8')
          .send('This QR code leads to one of its own short links, so it is not followed.');
      }
      if (redirectingQrTypes.includes(type) && isHttpUrl(code.content)) {
        // An ASCII Location naming the same URL: punycode host, percent-encoded path and query.
        return reply.redirect(new URL(code.content).href, 302);
      }
      const nonce = randomBytes(12).toString('base64');
      return reply
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Content-Security-Policy', landingCsp(nonce))
        .header('X-Frame-Options', 'DENY')
        .send(renderLandingPage({ type, content: code.content, name: code.name, slug }, { nonce }));
    },
  });

  // The landing pages' follow-up downloads; not scans.
  const download = (
    file: string,
    type: 'vcard' | 'event',
    contentType: string,
    build: (content: string) => { body: string; filename: string },
  ) =>
    app.get<{ Params: { slug: string } }>(`/r/:slug/${file}`, async (req, reply) => {
      const code = await findCode(req.params.slug);
      if (!code || normalizeQrType(code.type) !== type) return notFound(reply);
      const { body, filename } = build(code.content);
      return reply
        .header('Content-Type', `${contentType}; charset=utf-8`)
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .header('Cache-Control', 'no-store')
        .send(body);
    });
  download('contact.vcf', 'vcard', 'text/vcard', contactFile);
  download('event.ics', 'event', 'text/calendar', calendarFile);
}
