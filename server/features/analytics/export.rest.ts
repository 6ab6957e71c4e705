import { exportInput } from '../../../src/analytics/analytics.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';
import { exportReport } from './report.service.js';

/** Reports & Export: a file download, so not a procedure; the route's access gives the same session check. */
export const exportRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/analytics/export',
    summary:
      "The caller's report as an attachment: ?from=YYYY-MM-DD&to=YYYY-MM-DD&type=full|activity|performance" +
      '&format=csv|xlsx|pdf|json&tz=<IANA>&excludeBots=true|false.',
    access: 'user',
    produces: {
      'text/csv': 'format=csv: one file, sections one after another.',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
        'format=xlsx: one sheet per section.',
      'application/pdf': 'format=pdf: the report as a printable document.',
      'application/json': 'format=json: the report as data.',
    },
    query: exportInput,
    head: false,
    handler: async ({ ctx, query, reply }) => {
      const file = await exportReport(ctx, ctx.user, query);
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(file.body);
    },
  }),
];
