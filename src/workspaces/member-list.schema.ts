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

/** GET /api/workspaces/{id}/invitations: the newest first, as today. */
export const invitationSortKeys = ['created', 'expires'] as const;
export type InvitationSortKey = (typeof invitationSortKeys)[number];

export const invitationListQuery = pagedQuery({
  sort: invitationSortKeys,
  defaultSort: 'created',
  searchIn: "invitee's e-mail address or username",
  filters: {
    role: enumParam('role', workspaceRoles)
      .optional()
      .meta({ description: 'Only invitations to this role.' }),
  },
});
export type InvitationListQuery = z.output<typeof invitationListQuery>;
