import type { FastifyInstance } from 'fastify';
import type { ContextFor } from '../../rest/rest-plugin.js';
import { appError } from '../../trpc/errors.js';
import { exportReport } from './report.service.js';

/** Reports & Export: a file download, so not a procedure; the context gives the same session check. */
export function exportRest(app: FastifyInstance, contextFor: ContextFor) {
  // GET /api/analytics/export?from=YYYY-MM-DD&to=YYYY-MM-DD&type=full|activity|performance
  //   &format=csv|xlsx|pdf|json&tz=<IANA>&excludeBots=true|false — the caller's report as an attachment.
  // No automatic HEAD twin: it would build the whole file only to discard it.
  app.get<{ Querystring: Record<string, string> }>(
    '/api/analytics/export',
    { exposeHeadRoute: false },
    async (req, reply) => {
      const ctx = await contextFor(req, reply);
      if (!ctx.user) throw appError('UNAUTHORIZED', 'Not signed in');
      const file = await exportReport(ctx, ctx.user, req.query);
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(file.body);
    },
  );
}
