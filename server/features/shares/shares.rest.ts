import type { FastifyReply } from 'fastify';
import {
  analyticsShareSchema,
  analyticsSharesAnswer,
  createShareInput,
  listSharesInput,
  publicShareQuery,
  publicShareSchema,
  shareIdInput,
  shareTokenParams,
  unlockShareAnswer,
  unlockShareBody,
} from '../../../src/shares/share.schema.js';
import { errorAnswer } from '../../../src/api/answers.js';
import { defineRoute } from '../../rest/rest-kit.js';

const tooMany = {
  status: 429,
  description:
    'More than 60 requests a minute from one address to the shared dashboards (or, to unlock, 5 wrong passwords in 15 minutes): wait Retry-After seconds.',
  schema: errorAnswer,
};

/** Every public answer, errors included: never indexed, never cached (the link is a capability). */
function publicHeaders(reply: FastifyReply) {
  void reply.header('X-Robots-Tag', 'noindex').header('Cache-Control', 'no-store');
}

/** Shared dashboards (issue 36): the workspace's links, and what a link shows to anyone who has it. */
export const shareRoutes = [
  // GET /api/analytics-shares
  defineRoute({
    method: 'GET',
    path: '/api/analytics-shares',
    tokens: 'read',
    summary:
      "The current workspace's live shared-dashboard links (not revoked, not expired), newest first, or one code's (`qrCodeId`) or folder's (`folderId`) → { items }.",
    access: 'user',
    role: 'viewer',
    query: listSharesInput,
    answer: analyticsSharesAnswer,
    handler: ({ caller, query }) => caller.shares.list(query),
  }),
  // POST /api/analytics-shares
  defineRoute({
    method: 'POST',
    path: '/api/analytics-shares',
    tokens: 'write',
    summary:
      "A read-only link to one code's (`qrCodeId`) or one folder's (`folderId`) analytics, optionally with a `password` and an `expiresAt` → 201 with the link and its `url`.",
    access: 'user',
    role: 'editor',
    status: 201,
    body: createShareInput,
    answer: analyticsShareSchema,
    handler: ({ caller, body }) => caller.shares.create(body),
  }),
  // DELETE /api/analytics-shares/{id}
  defineRoute({
    method: 'DELETE',
    path: '/api/analytics-shares/:id',
    tokens: 'write',
    summary: 'Revokes a link → 204; it then answers 404 like an unknown one.',
    access: 'user',
    role: 'editor',
    object: 'analyticsShare',
    status: 204,
    params: shareIdInput,
    handler: async ({ caller, params, reply }) => {
      await caller.shares.revoke({ id: params.id });
      return reply.status(204).send();
    },
  }),
  // GET /api/public/shares/{token} (the token in the `:id` place)
  defineRoute({
    method: 'GET',
    path: '/api/public/shares/:id',
    object: 'sharedDashboard',
    summary:
      'What a shared dashboard shows, signed out: { kind, title, needsPassword, expiresAt, analytics } — the analytics of the last `days` (7, 30, 90 or 365) once unlocked; 404 for an unknown, revoked or expired link; 60 requests a minute per address. Never indexed, never cached.',
    access: 'public',
    // Counts a view: not for a HEAD.
    head: false,
    params: shareTokenParams,
    query: publicShareQuery,
    answer: publicShareSchema,
    otherAnswers: [tooMany],
    handler: ({ caller, params, query, reply }) => {
      publicHeaders(reply);
      return caller.shares.view({ ...query, token: params.id });
    },
  }),
  // POST /api/public/shares/{token}/unlock
  defineRoute({
    method: 'POST',
    path: '/api/public/shares/:id/unlock',
    object: 'sharedDashboard',
    summary:
      'Unlocks a password-protected shared dashboard for this browser (an HttpOnly cookie for that link, 12 hours) → { unlocked: true }; 401 for a wrong password, 429 after 5 wrong ones in 15 minutes from one address.',
    access: 'public',
    params: shareTokenParams,
    body: unlockShareBody,
    answer: unlockShareAnswer,
    otherAnswers: [{ status: 401, description: 'Wrong password.', schema: errorAnswer }, tooMany],
    handler: ({ caller, params, body, reply }) => {
      publicHeaders(reply);
      return caller.shares.unlock({ token: params.id, password: body.password });
    },
  }),
];
