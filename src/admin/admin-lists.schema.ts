import type { z } from 'zod';
import { enumParam, pagedQuery } from '../api/paging.js';
import { userSortKeys, workspaceSortKeys } from './admin.schema.js';

// The queries of the admin area's REST lists: the paging convention of src/api/paging.ts with the sort
// keys and filters the admin pages already use (their tRPC twins keep adminUserListInput's smaller pages).

export const adminUserFilters = ['all', 'paid', 'requests'] as const;

export const adminUserListQuery = pagedQuery({
  sort: userSortKeys,
  defaultSort: 'createdAt',
  searchIn: 'username, name or e-mail address',
  filters: {
    filter: enumParam('filter', adminUserFilters)
      .default('all')
      .meta({ description: 'paid: only paid tiers; requests: only users with a pending upgrade request.' }),
  },
});
export type AdminUserListQuery = z.output<typeof adminUserListQuery>;

export const adminWorkspaceListQuery = pagedQuery({
  sort: workspaceSortKeys,
  defaultSort: 'createdAt',
  searchIn: "name or an owner's username",
});
export type AdminWorkspaceListQuery = z.output<typeof adminWorkspaceListQuery>;
