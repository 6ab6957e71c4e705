import { z } from 'zod';
import { emailField, subscriptionTiers, text, usernameField } from '../auth/auth.schema.js';

// Workspaces: a person's own, and the teams they work in, with a role in each.

const bodyError = { error: 'Request body must be a JSON object' };

export const workspaceRoles = ['viewer', 'editor', 'admin', 'owner'] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

/** What each role may do on top of the one below it (the team settings page shows this). */
export const roleDescriptions: Record<WorkspaceRole, string> = {
  viewer: 'Sees codes and analytics, downloads',
  editor: 'Also creates, edits, moves and deletes codes and folders',
  admin: 'Also manages members, invitations and API tokens',
  owner: 'Also plan and billing, renames, deletes and transfers the workspace',
};

export const roleLabels: Record<WorkspaceRole, string> = {
  viewer: 'Viewer',
  editor: 'Editor',
  admin: 'Admin',
  owner: 'Owner',
};

/** True when `role` may do what `needed` may. */
export function roleAtLeast(role: WorkspaceRole, needed: WorkspaceRole): boolean {
  return workspaceRoles.indexOf(role) >= workspaceRoles.indexOf(needed);
}

export const WORKSPACE_NAME_MIN = 2;
export const WORKSPACE_NAME_MAX = 60;
/** An invitation's link and its place in the invitee's list last this long. */
export const INVITATION_DAYS = 7;

export const workspaceNameField = text('Name')
  .trim()
  .min(WORKSPACE_NAME_MIN, `Name must be at least ${WORKSPACE_NAME_MIN} characters`)
  .max(WORKSPACE_NAME_MAX, `Name must be at most ${WORKSPACE_NAME_MAX} characters`);

const positiveId = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .positive(`${label} must be a positive number`)
    .max(2_147_483_647, `${label} is too large`);

/** The `X-Workspace` header and the app's `?workspace=` search parameter: a workspace id. */
export const workspaceIdField = positiveId('Workspace id');

export const workspaceIdInput = z.object({ workspaceId: workspaceIdField });
export const memberInput = z.object({ workspaceId: workspaceIdField, userId: positiveId('User id') });
export const invitationIdInput = z.object({
  workspaceId: workspaceIdField,
  invitationId: positiveId('Invitation id'),
});

export const planSchema = z.object({
  tier: z.enum(subscriptionTiers),
  status: z.string().nullable(),
  endDate: z.string().nullable(),
  hasUnlimitedAccess: z.boolean(),
});
export type WorkspacePlan = z.infer<typeof planSchema>;

/** A workspace as its members see it. `kind` personal: the caller's own, with the caller as owner. */
export const workspaceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(['personal', 'team']),
  /** The caller's role in it. */
  role: z.enum(workspaceRoles),
  plan: planSchema,
  memberCount: z.number().int(),
  qrCodeCount: z.number().int(),
  createdAt: z.string(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const memberSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  role: z.enum(workspaceRoles),
  joinedAt: z.string(),
});
export type WorkspaceMember = z.infer<typeof memberSchema>;

export const invitationStatuses = ['pending', 'accepted', 'declined', 'revoked', 'expired'] as const;

export const invitationSchema = z.object({
  id: z.number().int(),
  workspaceId: z.number().int(),
  workspaceName: z.string(),
  /** Who was invited: an e-mail address (a mailed link) or a username (seen in the app). */
  email: z.string().nullable(),
  username: z.string().nullable(),
  role: z.enum(workspaceRoles),
  invitedBy: z.string(),
  status: z.enum(invitationStatuses),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type WorkspaceInvitation = z.infer<typeof invitationSchema>;

export const activitySchema = z.object({
  id: z.number().int(),
  actor: z.object({ id: z.number().int().nullable(), username: z.string() }),
  /** code.created, code.changed, code.restored, code.deleted, code.moved-in, code.moved-out,
   * member.invited, member.joined, member.role-changed, member.removed, member.left, workspace.renamed,
   * workspace.transferred, folder.created, folder.renamed, folder.deleted. */
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type WorkspaceActivity = z.infer<typeof activitySchema>;

export const activityListInput = z.object({
  workspaceId: workspaceIdField,
  /** Older than this entry (the id of the last one shown); none: the newest. */
  before: positiveId('Before').optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(100, 'Limit must be at most 100')
    .default(50),
});
export const activityPageSchema = z.object({
  items: z.array(activitySchema),
  /** Pass as `before` for the next page; null: no more. */
  nextBefore: z.number().int().nullable(),
});

export const createWorkspaceInput = z.object({ name: workspaceNameField }, bodyError).meta({
  examples: [{ name: 'Marketing' }],
});
export const renameWorkspaceInput = z.object(
  { workspaceId: workspaceIdField, name: workspaceNameField },
  bodyError,
);

const inviteFields = z.object(
  {
    workspaceId: workspaceIdField,
    email: emailField.optional(),
    username: usernameField.optional(),
    role: z.enum(['viewer', 'editor', 'admin'], { error: 'Role must be viewer, editor or admin' }),
  },
  bodyError,
);
const oneInviteeCheck = (v: { email?: string; username?: string }) =>
  (v.email === undefined) !== (v.username === undefined);
const oneInvitee = { message: 'Give either an email address or a username', path: ['email'] };
/** An invitation names exactly one of an e-mail address (mailed a link) or a username (intranet). */
export const inviteInput = inviteFields.refine(oneInviteeCheck, oneInvitee);
/** The body of POST /api/workspaces/{id}/invitations: the workspace is the path's. */
export const inviteBody = inviteFields.omit({ workspaceId: true }).refine(oneInviteeCheck, oneInvitee);
export type InviteInput = z.infer<typeof inviteInput>;

export const changeRoleInput = z.object(
  {
    workspaceId: workspaceIdField,
    userId: positiveId('User id'),
    role: z.enum(workspaceRoles, { error: 'Role must be viewer, editor, admin or owner' }),
  },
  bodyError,
);

export const transferInput = z.object(
  { workspaceId: workspaceIdField, userId: positiveId('User id') },
  bodyError,
);

/** Accept or decline: by the id shown in the invitee's list, or by the mailed link's token. */
export const respondInvitationInput = z
  .object(
    {
      invitationId: positiveId('Invitation id').optional(),
      token: text('Token').min(1, 'Token is required').max(200, 'Token is invalid').optional(),
    },
    bodyError,
  )
  .refine((v) => (v.invitationId === undefined) !== (v.token === undefined), {
    message: 'Give either an invitation id or a token',
    path: ['invitationId'],
  });

/** Moves a code of the current workspace into another the caller edits. */
export const moveToWorkspaceInput = z.object(
  { id: positiveId('QR code id'), workspaceId: workspaceIdField },
  bodyError,
);

/** The admin's list of team workspaces. */
export const adminWorkspaceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  plan: planSchema,
  memberCount: z.number().int(),
  qrCodeCount: z.number().int(),
  owners: z.array(z.string()),
  createdAt: z.string(),
});
export type AdminWorkspace = z.infer<typeof adminWorkspaceSchema>;

export const workspaceMessages = {
  notFound: 'Workspace not found',
  memberNotFound: 'Member not found',
  invitationNotFound: 'Invitation not found',
  invitationGone: 'This invitation is no longer valid',
  roleRequired: (role: WorkspaceRole) => `This needs the ${role} role in this workspace`,
  personal: 'A personal workspace has no members',
  lastOwner: 'A workspace needs at least one owner: make another member owner first',
  ownerOnly: 'Only an owner can give or take the owner role',
  alreadyMember: 'That user is already a member',
  alreadyInvited: 'That user already has a pending invitation',
  noSuchUser: 'No user with that username',
  tokenWorkspace: 'This API token belongs to another workspace',
  created: 'Workspace created',
  renamed: 'Workspace renamed',
  deleted: 'Workspace deleted',
  invited: 'Invitation sent',
  revoked: 'Invitation revoked',
  accepted: 'Invitation accepted',
  declined: 'Invitation declined',
  roleChanged: 'Role changed',
  removed: 'Member removed',
  left: 'You left the workspace',
  transferred: 'Ownership transferred',
  moved: 'QR code moved',
  sameWorkspace: 'The code is already in that workspace',
} as const;
