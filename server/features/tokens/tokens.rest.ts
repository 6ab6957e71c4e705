import { z } from 'zod';
import { successMessageAnswer } from '../../../src/api/answers.js';
import {
  apiTokenSchema,
  createdTokenSchema,
  createTokenInput,
  tokenIdInput,
} from '../../../src/auth/api-token.schema.js';
import { tokenListQuery } from '../../../src/auth/token-list.schema.js';
import { sendPage } from '../../rest/paging.js';
import { defineRoute } from '../../rest/rest-kit.js';
import { listTokenPage } from './tokens.service.js';

export const tokensRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/user/tokens',
    summary:
      "The caller's API tokens, newest first: name, scope, prefix, created, last used, expiry (never the token); one page (?page, ?pageSize ≤ 500, 100 by default), searched by name (?search), filtered (?scope) and sorted (?sort=created|name|lastUsed|expires, ?order); X-Total-Count and Link headers.",
    access: 'user',
    role: 'admin',
    paged: true,
    query: tokenListQuery,
    answer: z.array(apiTokenSchema),
    handler: async ({ ctx, owner, query, req, reply }) =>
      sendPage(req, reply, await listTokenPage(ctx, ctx.user, owner.id, query)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/user/tokens',
    summary:
      '{ name, scope: read|write|admin, expiresInDays? } → 201 { token, apiToken }: the token is shown this once.',
    access: 'user',
    role: 'admin',
    answer: createdTokenSchema,
    status: 201,
    body: createTokenInput,
    handler: ({ caller, body }) => caller.tokens.create(body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/user/tokens/:id',
    summary: 'Revokes one of the caller’s tokens; any other id is 404.',
    access: 'user',
    role: 'admin',
    object: 'apiToken',
    answer: successMessageAnswer,
    params: tokenIdInput,
    handler: ({ caller, params }) => caller.tokens.revoke(params),
  }),
];
