import { z } from 'zod';
import { successMessageAnswer } from '../../../src/api/answers.js';
import {
  activityPageSchema,
  changeRoleInput,
  createWorkspaceInput,
  invitationSchema,
  inviteBody,
  memberSchema,
  moveToWorkspaceInput,
  renameWorkspaceInput,
  respondInvitationInput,
  transferInput,
  workspaceIdField,
  workspaceSchema,
} from '../../../src/workspaces/workspace.schema.js';
import { invitationListQuery, memberListQuery } from '../../../src/workspaces/member-list.schema.js';
import { sendPage } from '../../rest/paging.js';
import { defineRoute } from '../../rest/rest-kit.js';
import { listWorkspaceInvitationPage, listWorkspaceMemberPage } from './workspaces.service.js';

// Workspaces are managed from the app's session only: an API token acts inside its one workspace and
// reads which one it is (GET /api/workspaces/current), nothing more.

const idParams = z.object({ id: workspaceIdField });
const memberParams = z.object({
  id: workspaceIdField,
  userId: z.coerce
    .number({ error: 'User id must be a number' })
    .int('User id must be a whole number')
    .positive('User id must be a positive number')
    .max(2_147_483_647, 'User id is too large'),
});
const invitationParams = z.object({
  id: workspaceIdField,
  invitationId: z.coerce
    .number({ error: 'Invitation id must be a number' })
    .int('Invitation id must be a whole number')
    .positive('Invitation id must be a positive number')
    .max(2_147_483_647, 'Invitation id is too large'),
});
const activityQuery = z.object({
  before: z.coerce
    .number({ error: 'Before must be a number' })
    .int('Before must be a whole number')
    .positive('Before must be a positive number')
    .optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(100, 'Limit must be at most 100')
    .default(50),
});
const renameBody = renameWorkspaceInput.omit({ workspaceId: true });
const roleBody = changeRoleInput.omit({ workspaceId: true, userId: true });
const transferBody = transferInput.omit({ workspaceId: true });
const switchBody = z.object(
  { workspaceId: workspaceIdField },
  { error: 'Request body must be a JSON object' },
);
const moveBody = moveToWorkspaceInput.omit({ id: true });
const codeParams = z.object({ id: moveToWorkspaceInput.shape.id });

export const workspacesRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/workspaces',
    summary:
      "The caller's workspaces: their own ('personal') first, then their teams, each with the caller's role.",
    access: 'user',
    answer: z.array(workspaceSchema),
    handler: ({ caller }) => caller.workspaces.list(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/workspaces',
    summary: '{ name } → 201 a new team workspace, the caller its owner.',
    access: 'user',
    body: createWorkspaceInput,
    status: 201,
    answer: workspaceSchema,
    handler: ({ caller, body }) => caller.workspaces.create(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/workspaces/current',
    tokens: 'read',
    summary:
      "The workspace this request acts on: an API token's own, else the `X-Workspace` header, else the one last switched to, else the caller's own.",
    access: 'user',
    role: 'viewer',
    answer: workspaceSchema,
    handler: ({ caller }) => caller.workspaces.current(),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/workspaces/current',
    summary: '{ workspaceId } → remembers it as the workspace requests without `X-Workspace` act on.',
    access: 'user',
    body: switchBody,
    answer: workspaceSchema,
    handler: ({ caller, body }) => caller.workspaces.switch(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/workspaces/:id',
    summary: 'One workspace the caller is a member of; any other id is 404.',
    access: 'user',
    role: 'viewer',
    object: 'workspace',
    params: idParams,
    answer: workspaceSchema,
    handler: ({ caller, params }) => caller.workspaces.get({ workspaceId: params.id }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/workspaces/:id',
    summary: '{ name } → renames a team workspace (owners).',
    access: 'user',
    role: 'owner',
    object: 'workspace',
    params: idParams,
    body: renameBody,
    answer: workspaceSchema,
    handler: ({ caller, params, body }) => caller.workspaces.rename({ workspaceId: params.id, ...body }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/workspaces/:id',
    summary: 'Deletes a team workspace with its codes, folders and scans (owners); its short links stop.',
    access: 'user',
    role: 'owner',
    object: 'workspace',
    params: idParams,
    answer: successMessageAnswer,
    handler: ({ caller, params }) => caller.workspaces.delete({ workspaceId: params.id }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/workspaces/:id/members',
    summary:
      "The workspace's members with their roles, owners first: one page (?page, ?pageSize ≤ 500, 100 by default), searched by username, name or e-mail (?search), filtered (?role) and sorted (?sort=role|username|joined, ?order); X-Total-Count and Link headers.",
    access: 'user',
    role: 'viewer',
    object: 'workspace',
    params: idParams,
    paged: true,
    query: memberListQuery,
    answer: z.array(memberSchema),
    handler: async ({ ctx, params, query, req, reply }) =>
      sendPage(req, reply, await listWorkspaceMemberPage(ctx, ctx.user, params.id, query)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/workspaces/:id/members/:userId',
    summary:
      "{ role } → changes a member's role (admins; only owners give or take 'owner'; one owner always).",
    access: 'user',
    role: 'admin',
    object: 'workspace',
    params: memberParams,
    body: roleBody,
    answer: memberSchema,
    handler: ({ caller, params, body }) =>
      caller.workspaces.changeRole({ workspaceId: params.id, userId: params.userId, ...body }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/workspaces/:id/members/:userId',
    summary: 'Removes a member (admins), or leaves when it is the caller; the last owner stays.',
    access: 'user',
    role: 'admin',
    object: 'workspace',
    params: memberParams,
    answer: successMessageAnswer,
    handler: ({ caller, params }) =>
      caller.workspaces.removeMember({ workspaceId: params.id, userId: params.userId }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/workspaces/:id/leave',
    summary: 'The caller leaves the team workspace; the last owner cannot.',
    access: 'user',
    role: 'viewer',
    object: 'workspace',
    params: idParams,
    answer: successMessageAnswer,
    handler: ({ caller, params }) => caller.workspaces.leave({ workspaceId: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/workspaces/:id/transfer',
    summary: '{ userId } → makes that member an owner and the caller an admin (owners).',
    access: 'user',
    role: 'owner',
    object: 'workspace',
    params: idParams,
    body: transferBody,
    answer: successMessageAnswer,
    handler: ({ caller, params, body }) => caller.workspaces.transfer({ workspaceId: params.id, ...body }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/workspaces/:id/invitations',
    summary:
      "The team's pending invitations (admins), newest first: one page (?page, ?pageSize ≤ 500, 100 by default), searched by the invitee's address or username (?search), filtered (?role) and sorted (?sort=created|expires, ?order); X-Total-Count and Link headers.",
    access: 'user',
    role: 'admin',
    object: 'workspace',
    params: idParams,
    paged: true,
    query: invitationListQuery,
    answer: z.array(invitationSchema),
    handler: async ({ ctx, params, query, req, reply }) =>
      sendPage(req, reply, await listWorkspaceInvitationPage(ctx, ctx.user, params.id, query)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/workspaces/:id/invitations',
    summary:
      "{ email | username, role } → 201 an invitation: a link mailed to the address, or waiting in that user's app; valid 7 days (admins).",
    access: 'user',
    role: 'admin',
    object: 'workspace',
    params: idParams,
    body: inviteBody,
    status: 201,
    answer: invitationSchema,
    handler: ({ caller, params, body }) => caller.workspaces.invite({ workspaceId: params.id, ...body }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/workspaces/:id/invitations/:invitationId',
    summary: 'Revokes a pending invitation (admins); its link stops working.',
    access: 'user',
    role: 'admin',
    object: 'workspace',
    params: invitationParams,
    answer: successMessageAnswer,
    handler: ({ caller, params }) =>
      caller.workspaces.revokeInvitation({ workspaceId: params.id, invitationId: params.invitationId }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/workspaces/:id/activity',
    summary: 'Who did what in the workspace, newest first; `before` pages back.',
    access: 'user',
    role: 'viewer',
    object: 'workspace',
    params: idParams,
    query: activityQuery,
    answer: activityPageSchema,
    handler: ({ caller, params, query }) => caller.workspaces.activity({ workspaceId: params.id, ...query }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/invitations',
    summary: 'The pending invitations waiting for the caller (to their username or address).',
    access: 'user',
    answer: z.array(invitationSchema),
    handler: ({ caller }) => caller.workspaces.myInvitations(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/invitations/accept',
    summary: "{ invitationId } (one of the caller's) or { token } (a mailed link) → the workspace joined.",
    access: 'user',
    body: respondInvitationInput,
    answer: workspaceSchema,
    handler: ({ caller, body }) => caller.workspaces.accept(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/invitations/decline',
    summary: '{ invitationId } or { token } → declines the invitation.',
    access: 'user',
    body: respondInvitationInput,
    answer: successMessageAnswer,
    handler: ({ caller, body }) => caller.workspaces.decline(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/qr-codes/:id/move-to-workspace',
    summary:
      '{ workspaceId } → moves a code of the current workspace into a team the caller edits; its short link never changes.',
    access: 'user',
    role: 'editor',
    object: 'qrCode',
    params: codeParams,
    body: moveBody,
    answer: successMessageAnswer,
    handler: ({ caller, params, body }) => caller.qr.moveToWorkspace({ id: params.id, ...body }),
  }),
];
