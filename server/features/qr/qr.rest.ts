import { z } from 'zod';
import { successMessageAnswer } from '../../../src/api/answers.js';
import { qrFileName } from '../../../src/qr/render-options.js';
import {
  createQrCodeInput,
  idInput,
  moveQrCodeInput,
  qrCodeSchema,
  qrImageInput,
  qrLimitReachedAnswer,
  qrScanAnswer,
  slugAvailabilityInput,
  slugAvailabilitySchema,
  updateQrCodeInput,
} from '../../../src/qr/qr.schema.js';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import { redirectExportInput } from '../../../src/qr/redirect-export.schema.js';
import { qrCodeListQuery } from '../../../src/qr/qr-list.schema.js';
import { defineRoute, sendAttachment } from '../../rest/rest-kit.js';
import { sendPage } from '../../rest/paging.js';
import { refuse } from '../../errors.js';
import { historyRoutes } from './history.rest.js';
import { getQrImage } from './qr-image.service.js';
import { exportRedirects } from './redirect-export.service.js';
import { listQrCodePage } from './qr.service.js';

export const qrRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/qr-codes',
    tokens: 'read',
    summary:
      "The caller's codes, newest first: one page (?page, ?pageSize ≤ 500, 100 by default), searched by name (?search), filtered (?type, ?dynamic, ?folderId or root, ?createdFrom, ?createdTo, ?verdict) and sorted (?sort=created|updated|name|scans, scans by people; ?order=asc|desc); X-Total-Count and Link headers.",
    access: 'user',
    role: 'viewer',
    paged: true,
    query: qrCodeListQuery,
    answer: z.array(qrCodeSchema),
    handler: async ({ ctx, owner, query, req, reply }) =>
      sendPage(req, reply, await listQrCodePage(ctx, owner, query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/qr-codes/redirects/export',
    tokens: 'read',
    summary:
      "The caller's redirect table, to re-host the short domain: ?format=csv|nginx|caddy|netlify, as an attachment.",
    access: 'user',
    role: 'viewer',
    produces: {
      'text/csv':
        'format=csv: slug,short_url,destination,name,not_exported (RFC 4180; not_exported names the smart-redirect options a plain redirect cannot carry).',
      'text/plain':
        'format=nginx|caddy|netlify: an nginx map and server block, a Caddyfile, a _redirects file.',
    },
    query: redirectExportInput,
    // A file download, so not a procedure (as the analytics export); the route's access is the session check.
    handler: async ({ ctx, owner, query, reply }) => {
      return sendAttachment(reply, await exportRedirects(ctx, owner, query));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/qr-codes/slug-availability',
    tokens: 'read',
    summary:
      "Whether ?slug could be a dynamic code's own back-half: available, taken (by anyone's link), reserved or invalid, with the designer's words. ?id: the code being edited, whose own slugs count as available.",
    access: 'user',
    role: 'editor',
    query: slugAvailabilityInput,
    answer: slugAvailabilitySchema,
    handler: ({ caller, query }) => caller.qr.slugAvailability(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/qr-codes/:id',
    tokens: 'read',
    summary: "The code; another user's code is 404.",
    access: 'user',
    role: 'viewer',
    object: 'qrCode',
    answer: qrCodeSchema,
    params: idInput,
    handler: ({ caller, params }) => caller.qr.get(params),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/qr-codes',
    tokens: 'write',
    summary: 'Creates a code → 201 the code; 403 { limitReached, currentCount, maxCount } at the plan limit.',
    access: 'user',
    role: 'editor',
    answer: qrCodeSchema,
    otherAnswers: [{ status: 403, description: 'The plan limit is reached.', schema: qrLimitReachedAnswer }],
    body: createQrCodeInput,
    status: 201,
    handler: ({ caller, body }) => caller.qr.create(body),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/qr-codes/:id',
    tokens: 'write',
    summary: 'Name, content and design of a dynamic code; a static code is 403.',
    access: 'user',
    role: 'editor',
    object: 'qrCode',
    answer: qrCodeSchema,
    params: idInput,
    body: updateQrCodeInput
      .omit({ id: true })
      .meta({ examples: [{ content: 'https://example.com/menu-winter' }] }),
    handler: ({ caller, params, body }) => caller.qr.update({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/qr-codes/:id',
    tokens: 'write',
    summary: '{ folderId } moves the code (null = the root).',
    access: 'user',
    role: 'editor',
    object: 'qrCode',
    answer: qrCodeSchema,
    params: idInput,
    body: moveQrCodeInput.omit({ id: true }).meta({ examples: [{ folderId: 3 }, { folderId: null }] }),
    handler: ({ caller, params, body }) => caller.qr.move({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/qr-codes/:id',
    tokens: 'write',
    summary: 'Deletes the code and its scans.',
    access: 'user',
    role: 'editor',
    object: 'qrCode',
    answer: successMessageAnswer,
    params: idInput,
    handler: ({ caller, params }) => caller.qr.delete(params),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/qr-codes/:id/scan',
    tokens: 'write',
    summary:
      "{ type, content } of the owner's code, recorded as a simulated scan (in the analytics, never counted against a scan limit). A write token or the app; never from another site.",
    access: 'user',
    role: 'editor',
    object: 'qrCode',
    answer: qrScanAnswer,
    // It records a scan: a HEAD (an uptime monitor, a link checker) must not.
    head: false,
    params: idInput,
    handler: ({ caller, params, req }) => {
      // A GET that writes: a link on another site must not make a signed-in owner's browser record scans.
      if (req.headers['sec-fetch-site'] === 'cross-site')
        throw refuse('CROSS_SITE_REFUSED', qrMessages.crossSiteScan);
      return caller.qr.scan(params);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/qr-codes/:id/image',
    tokens: 'read',
    summary: "The owner's code rendered on the server: ?format=png|svg&size=64..2048.",
    access: 'user',
    role: 'viewer',
    object: 'qrCode',
    produces: { 'image/png': 'The code as a PNG image.', 'image/svg+xml': 'The code as an SVG image.' },
    params: idInput,
    query: qrImageInput.omit({ id: true }),
    handler: async ({ ctx, owner, params, query, reply }) => {
      const { bytes, format, code } = await getQrImage(ctx, owner, { ...query, id: params.id });
      return reply
        .header('Content-Type', format === 'png' ? 'image/png' : 'image/svg+xml; charset=utf-8')
        .header(
          'Content-Disposition',
          // Named after the code; the ASCII name first for clients that do not read RFC 6266's filename*.
          `inline; filename="qrcode-${code.id}.${format}"; filename*=UTF-8''${encodeURIComponent(qrFileName(format, code.name, code.id))}`,
        )
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('Cache-Control', 'private, no-cache')
        .send(bytes);
    },
  }),
  ...historyRoutes,
];
