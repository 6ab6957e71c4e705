import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import type { CallerFor, ContextFor } from '../../rest/rest-plugin.js';
import { appError } from '../../trpc/errors.js';
import { getQrImage } from './qr-image.service.js';
import { qrFileName } from '../../../src/qr/render-options.js';

type IdParams = { Params: { id: string } };
/** Adds the path's id to a JSON object body; anything else is passed on for validation to refuse. */
const withId = (id: string, body: unknown) =>
  (typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, id } : body) as never;

export function qrRest(app: FastifyInstance, callerFor: CallerFor, deps: AppDeps, contextFor: ContextFor) {
  // GET /api/qr-codes — the caller's codes, newest first.
  app.get('/api/qr-codes', async (req, reply) => (await callerFor(req, reply)).qr.list());

  // GET /api/qr-codes/{id} — the code; another user's code is 404.
  app.get<IdParams>('/api/qr-codes/:id', async (req, reply) =>
    (await callerFor(req, reply)).qr.get({ id: req.params.id }),
  );

  // POST /api/qr-codes — 201 the code; 403 { limitReached, currentCount, maxCount } at the plan limit.
  app.post('/api/qr-codes', async (req, reply) => {
    const code = await (await callerFor(req, reply)).qr.create(req.body as never);
    return reply.status(201).send(code);
  });

  // PUT /api/qr-codes/{id} — name, content, customization of a dynamic code; static codes: 403.
  app.put<IdParams>('/api/qr-codes/:id', async (req, reply) =>
    (await callerFor(req, reply)).qr.update(withId(req.params.id, req.body)),
  );

  // PATCH /api/qr-codes/{id} — { folderId } moves the code (null = root).
  app.patch<IdParams>('/api/qr-codes/:id', async (req, reply) =>
    (await callerFor(req, reply)).qr.move(withId(req.params.id, req.body)),
  );

  // DELETE /api/qr-codes/{id} — the code and its scans.
  app.delete<IdParams>('/api/qr-codes/:id', async (req, reply) =>
    (await callerFor(req, reply)).qr.delete({ id: req.params.id }),
  );

  // GET /api/qr-codes/{id}/scan — { type, content } of the owner's code; recorded as a scan.
  app.get<IdParams>('/api/qr-codes/:id/scan', async (req, reply) =>
    (await callerFor(req, reply)).qr.scan({ id: req.params.id }),
  );

  // GET /api/qr-codes/{id}/image?format=png|svg&size=64..2048 — the owner's code rendered on the server.
  app.get<IdParams & { Querystring: Record<string, string> }>(
    '/api/qr-codes/:id/image',
    async (req, reply) => {
      const { user } = await contextFor(req, reply);
      if (!user) throw appError('UNAUTHORIZED', 'Not signed in');
      const { bytes, format, code } = await getQrImage(deps, user, { ...req.query, id: req.params.id });
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
  );
}
