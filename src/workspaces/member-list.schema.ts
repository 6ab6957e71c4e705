import type { z } from 'zod';
import { enumParam, pagedQuery } from '../api/paging.js';
import { workspaceRoles } from './roles.js';

/** GET /api/workspaces/{id}/members: owners first, then admins, editors, viewers, each A to Z (as the page shows them). */
export const memberSortKeys = ['role', 'username', 'joined'] as const;
export type MemberSortKey = (typeof memberSortKeys)[number];

export const memberListQuery = pagedQuery({
  sort: memberSortKeys,
  defaultSort: 'role',
  defaultOrder: 'asc',
  searchIn: 'username, name or e-mail address',
  filters: {
    role: enumParam('role', workspaceRoles).optional().meta({ description: 'Only members with this role.' }),
  },
});
export type MemberListQuery = z.output<typeof memberListQuery>;
