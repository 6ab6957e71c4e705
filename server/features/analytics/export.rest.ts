import { exportInput } from '../../../src/analytics/analytics.schema.js';
import { defineRoute, sendAttachment } from '../../rest/rest-kit.js';
import { exportReport } from './report.service.js';

/** Reports & Export: a file download, so not a procedure; the route's access gives the same session check. */
export const exportRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/analytics/export',
    tokens: 'read',
    summary:
      "The caller's report as an attachment: ?from=YYYY-MM-DD&to=YYYY-MM-DD&type=full|activity|performance" +
      '&format=csv|xlsx|pdf|json&tz=<IANA>&excludeBots=true|false.',
    access: 'user',
    role: 'viewer',
    produces: {
      'text/csv': 'format=csv: one file, sections one after another.',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
        'format=xlsx: one sheet per section.',
      'application/pdf': 'format=pdf: the report as a printable document.',
      'application/json': 'format=json: the report as data.',
    },
    query: exportInput,
    head: false,
    handler: async ({ ctx, owner, query, reply }) => {
      return sendAttachment(reply, await exportReport(ctx, owner, query));
    },
  }),
];
