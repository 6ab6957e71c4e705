import { z } from 'zod';
import {
  activityListInput,
  changeRoleInput,
  createWorkspaceInput,
  inviteInput,
  invitationIdInput,
  memberInput,
  renameWorkspaceInput,
  respondInvitationInput,
  transferInput,
  workspaceIdInput,
} from '../../../src/workspaces/workspace.schema.js';
import { authedProcedure, router, workspaceAdminProcedure, workspaceProcedure } from '../../trpc/init.js';
import {
  acceptInvitation,
  changeMemberRole,
  createTeam,
  declineInvitation,
  deleteWorkspace,
  describeWorkspace,
  getWorkspace,
  invitationByToken,
  inviteMember,
  leaveWorkspace,
  listMyInvitations,
  listWorkspaceInvitations,
  listWorkspaceMembers,
  listWorkspaces,
  removeMember,
  renameWorkspace,
  revokeInvitation,
  switchWorkspace,
  transferOwnership,
  workspaceActivity,
} from './workspaces.service.js';

/** Workspaces: the caller's own and their teams, members, invitations and the activity feed. */
export const workspacesRouter = router({
  list: authedProcedure.query(({ ctx }) => listWorkspaces(ctx, ctx.user)),
  /** The workspace this request acts on (X-Workspace, a token's, the remembered one, or the caller's own). */
  current: workspaceProcedure('viewer').query(({ ctx }) => describeWorkspace(ctx, ctx.workspace)),
  switch: authedProcedure
    .input(workspaceIdInput)
    .mutation(({ ctx, input }) => switchWorkspace(ctx, ctx.user, input.workspaceId)),
  get: workspaceAdminProcedure('viewer')
    .input(workspaceIdInput)
    .query(({ ctx, input }) => getWorkspace(ctx, ctx.user, input.workspaceId)),
  create: authedProcedure
    .input(createWorkspaceInput)
    .mutation(({ ctx, input }) => createTeam(ctx, ctx.user, input.name)),
  rename: workspaceAdminProcedure('owner')
    .input(renameWorkspaceInput)
    .mutation(({ ctx, input }) => renameWorkspace(ctx, ctx.user, input.workspaceId, input.name)),
  delete: workspaceAdminProcedure('owner')
    .input(workspaceIdInput)
    .mutation(({ ctx, input }) => deleteWorkspace(ctx, ctx.user, input.workspaceId)),
  members: workspaceAdminProcedure('viewer')
    .input(workspaceIdInput)
    .query(({ ctx, input }) => listWorkspaceMembers(ctx, ctx.user, input.workspaceId)),
  changeRole: workspaceAdminProcedure('admin')
    .input(changeRoleInput)
    .mutation(({ ctx, input }) => changeMemberRole(ctx, ctx.user, input)),
  removeMember: workspaceAdminProcedure('admin')
    .input(memberInput)
    .mutation(({ ctx, input }) => removeMember(ctx, ctx.user, input)),
  leave: workspaceAdminProcedure('viewer')
    .input(workspaceIdInput)
    .mutation(({ ctx, input }) => leaveWorkspace(ctx, ctx.user, input.workspaceId)),
  transfer: workspaceAdminProcedure('owner')
    .input(transferInput)
    .mutation(({ ctx, input }) => transferOwnership(ctx, ctx.user, input)),
  invitations: workspaceAdminProcedure('admin')
    .input(workspaceIdInput)
    .query(({ ctx, input }) => listWorkspaceInvitations(ctx, ctx.user, input.workspaceId)),
  invite: workspaceAdminProcedure('admin')
    .input(inviteInput)
    .mutation(({ ctx, input }) => inviteMember(ctx, ctx.user, input)),
  revokeInvitation: workspaceAdminProcedure('admin')
    .input(invitationIdInput)
    .mutation(({ ctx, input }) => revokeInvitation(ctx, ctx.user, input)),
  activity: workspaceAdminProcedure('viewer')
    .input(activityListInput)
    .query(({ ctx, input }) => workspaceActivity(ctx, ctx.user, input)),
  /** The invitations waiting for the caller (to their username or address). */
  myInvitations: authedProcedure.query(({ ctx }) => listMyInvitations(ctx, ctx.user)),
  invitationByToken: authedProcedure
    .input(z.object({ token: z.string().min(1, 'Token is required').max(200, 'Token is invalid') }))
    .mutation(({ ctx, input }) => invitationByToken(ctx, ctx.user, input.token)),
  accept: authedProcedure
    .input(respondInvitationInput)
    .mutation(({ ctx, input }) => acceptInvitation(ctx, ctx.user, input)),
  decline: authedProcedure
    .input(respondInvitationInput)
    .mutation(({ ctx, input }) => declineInvitation(ctx, ctx.user, input)),
});
