import { z } from 'zod';
import { destinationIssuesAnswer } from '../../../src/qr/destination-check.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';

const codeIdParams = z.object({ id: z.coerce.number().int().positive() });

/** Dead destinations (issue 35): the workspace's failing ones, and one code's check on demand. */
export const destinationCheckRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/destination-issues',
    tokens: 'read',
    summary:
      "The current workspace's code destinations that fail now → { items: [{ codeId, codeName, url, label, state: failing|down, problem, httpStatus, since, checkedAt, usingFallback }] }; down means it failed twice in a row (checked at most once a day).",
    access: 'user',
    role: 'viewer',
    answer: destinationIssuesAnswer,
    handler: ({ caller }) => caller.destinations.issues(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/qr-codes/:id/destination-check',
    tokens: 'write',
    summary:
      "Checks a dynamic code's destination, its rules' and its fallback URL now (each at most once a minute) → { items } with every URL's state, ok ones included; 403 for a static code.",
    access: 'user',
    role: 'editor',
    object: 'qrCode',
    params: codeIdParams,
    answer: destinationIssuesAnswer,
    handler: ({ caller, params }) => caller.destinations.check({ id: params.id }),
  }),
];
