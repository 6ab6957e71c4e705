import { qrHistorySchema, restoreVersionInput } from '../../../src/qr/history.js';
import { idInput, qrCodeSchema } from '../../../src/qr/qr.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';

// Spread into the qr routes: the paths are a code's.
export const historyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/qr-codes/:id/history',
    tokens: 'read',
    summary:
      "The code's versions, newest first (the first is the current one), each with who, when and what changed.",
    access: 'user',
    role: 'viewer',
    object: 'qrCode',
    answer: qrHistorySchema,
    params: idInput,
    handler: ({ caller, params }) => caller.qr.history(params),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/qr-codes/:id/history/:versionId/restore',
    tokens: 'write',
    summary:
      'Restores an earlier version of a dynamic code (kept as a new version) → the code; a static code is 403, ' +
      "another code's version 404.",
    access: 'user',
    role: 'editor',
    object: 'qrCode',
    answer: qrCodeSchema,
    params: restoreVersionInput,
    handler: ({ caller, params }) => caller.qr.restore(params),
  }),
];
