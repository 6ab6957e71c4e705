import type { z } from 'zod';
import { enumParam, pagedQuery } from '../api/paging.js';
import { tokenScopes } from './api-token.schema.js';

/** GET /api/user/tokens: newest first; tokens never used, or without an expiry, come last either way. */
export const tokenSortKeys = ['created', 'name', 'lastUsed', 'expires'] as const;
export type TokenSortKey = (typeof tokenSortKeys)[number];

export const tokenListQuery = pagedQuery({
  sort: tokenSortKeys,
  defaultSort: 'created',
  searchIn: 'name',
  filters: {
    scope: enumParam('scope', tokenScopes).optional().meta({ description: 'Only tokens of this scope.' }),
  },
});
export type TokenListQuery = z.output<typeof tokenListQuery>;
