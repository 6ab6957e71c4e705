import { z } from 'zod';
import { emailField, subscriptionTiers, text, usernameField } from '../auth/auth.schema.js';
import { workspaceRoles } from './roles.js';

// Workspaces: a person's own, and the teams they work in, with a role in each.

const bodyError = { error: 'Request body must be a JSON object' };

// The roles and the messages are in modules without zod, for the app's frame (routes.ts, the shell),
// which draws before any form: re-exported here for everything else.
export { roleAtLeast, roleDescriptions, roleLabels, workspaceRoles, type WorkspaceRole } from './roles.js';
export { workspaceMessages } from './workspace-messages.js';

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
  endDate: z.string().nullable().meta({ format: 'date-time' }),
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
  createdAt: z.string().meta({ format: 'date-time' }),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const memberSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable().meta({ format: 'email' }),
  role: z.enum(workspaceRoles),
  joinedAt: z.string().meta({ format: 'date-time' }),
});
export type WorkspaceMember = z.infer<typeof memberSchema>;

export const invitationStatuses = ['pending', 'accepted', 'declined', 'revoked', 'expired'] as const;

export const invitationSchema = z.object({
  id: z.number().int(),
  workspaceId: z.number().int(),
  workspaceName: z.string(),
  /** Who was invited: an e-mail address (a mailed link) or a username (seen in the app). */
  email: z.string().nullable().meta({ format: 'email' }),
  username: z.string().nullable(),
  role: z.enum(workspaceRoles),
  invitedBy: z.string(),
  status: z.enum(invitationStatuses),
  createdAt: z.string().meta({ format: 'date-time' }),
  expiresAt: z.string().meta({ format: 'date-time' }),
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
  createdAt: z.string().meta({ format: 'date-time' }),
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
  createdAt: z.string().meta({ format: 'date-time' }),
});
export type AdminWorkspace = z.infer<typeof adminWorkspaceSchema>;
