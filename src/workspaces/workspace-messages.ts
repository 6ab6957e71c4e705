import type { WorkspaceRole } from './roles.js';

// What the API and the app say about workspaces, without zod (workspace.schema.ts re-exports it).

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
