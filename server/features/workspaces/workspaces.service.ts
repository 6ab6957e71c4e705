import { randomBytes } from 'node:crypto';
import type { User } from '../../../src/auth/auth.schema.js';
import {
  INVITATION_DAYS,
  roleAtLeast,
  workspaceMessages,
  workspaceRoles,
  type InviteInput,
  type Workspace,
  type WorkspaceActivity,
  type WorkspaceInvitation,
  type WorkspaceMember,
  type WorkspaceRole,
} from '../../../src/workspaces/workspace.schema.js';
import type { RequestDeps } from '../../app-deps.js';
import type { Page } from '../../../src/api/paging.js';
import type { InvitationListQuery, MemberListQuery } from '../../../src/workspaces/member-list.schema.js';
import { toIso, type Db, type UserRow } from '../../db/database.js';
import { appError, refuse } from '../../errors.js';
import {
  checkRole,
  membershipOf,
  personalWorkspaceName,
  type CurrentWorkspace,
} from '../../trpc/workspace-access.js';
import { hashToken, newToken } from '../../random-tokens.js';
import { composeMailFor, mailLocaleOf } from '../mail/layout.js';
import { mailMessages } from '../mail/messages/index.js';
import { sendInBackground } from '../mail/mailer.js';
import { DAY_MS } from '../scans/rollup-model.js';
import { toUser } from '../users/users.mapper.js';
import { findUserById, findUserByUsername } from '../users/users.repository.js';
import { recordActivity } from './activity.js';
import {
  closeInvitation,
  countCodesOf,
  countMembersOf,
  countOwners,
  deleteMember,
  deleteTeam,
  findInvitation,
  findInvitationByToken,
  findMember,
  findPendingInvitationTo,
  insertInvitation,
  insertMember,
  insertTeam,
  listActivity,
  listInvitationsFor,
  listMemberPage,
  listMembers,
  listPendingInvitationPage,
  listPendingInvitations,
  listTeamsOf,
  renameTeam,
  setCurrentWorkspace,
  setMemberRole,
  type InvitationRow,
} from './workspaces.repository.js';

function planOf(owner: User): Workspace['plan'] {
  return {
    tier: owner.subscriptionTier,
    status: owner.subscriptionStatus,
    endDate: owner.subscriptionEndDate,
    hasUnlimitedAccess: owner.hasUnlimitedAccess,
  };
}

function roleOf(value: string): WorkspaceRole {
  return (workspaceRoles as readonly string[]).includes(value) ? (value as WorkspaceRole) : 'viewer';
}

/** A workspace as its member sees it, from what the request resolved. */
export async function describeWorkspace(deps: RequestDeps, workspace: CurrentWorkspace): Promise<Workspace> {
  const [qrCodeCount, memberCount] = await Promise.all([
    countCodesOf(deps.db, workspace.id),
    workspace.kind === 'team' ? countMembersOf(deps.db, workspace.id) : Promise.resolve(1),
  ]);
  return {
    id: workspace.id,
    name: workspace.name,
    kind: workspace.kind,
    role: workspace.role,
    plan: planOf(workspace.owner),
    memberCount,
    qrCodeCount,
    createdAt: workspace.owner.createdAt,
  };
}

/** The caller's own workspace first, then their teams by name. */
export async function listWorkspaces(deps: RequestDeps, user: User): Promise<Workspace[]> {
  const own = await describeWorkspace(deps, {
    id: user.id,
    kind: 'personal',
    name: personalWorkspaceName,
    role: 'owner',
    owner: user,
  });
  const teams = await listTeamsOf(deps.db, user.id);
  return [
    own,
    ...teams.map((row) => ({
      id: row.id,
      name: row.name ?? '',
      kind: 'team' as const,
      role: roleOf(row.role),
      plan: planOf(toUser(row)),
      memberCount: Number(row.member_count),
      qrCodeCount: Number(row.qr_code_count),
      createdAt: toIso(row.created_at),
    })),
  ];
}

/** The caller's role in the workspace named by an input, at least `needed`; else 404 (not a member) or 403. */
export async function requireRole(
  deps: RequestDeps,
  user: User,
  workspaceId: number,
  needed: WorkspaceRole,
): Promise<CurrentWorkspace> {
  const workspace = await membershipOf(deps.db, user, workspaceId);
  if (!workspace) throw appError('NOT_FOUND', workspaceMessages.notFound);
  checkRole(workspace, needed);
  return workspace;
}

async function requireTeamRole(deps: RequestDeps, user: User, workspaceId: number, needed: WorkspaceRole) {
  const workspace = await requireRole(deps, user, workspaceId, needed);
  if (workspace.kind !== 'team') throw appError('BAD_REQUEST', workspaceMessages.personal);
  return workspace;
}

export async function getWorkspace(deps: RequestDeps, user: User, workspaceId: number): Promise<Workspace> {
  return describeWorkspace(deps, await requireRole(deps, user, workspaceId, 'viewer'));
}

/** Remembers the workspace the person works in (the app's switcher); links without one open it. */
export async function switchWorkspace(
  deps: RequestDeps,
  user: User,
  workspaceId: number,
): Promise<Workspace> {
  const workspace = await requireRole(deps, user, workspaceId, 'viewer');
  await setCurrentWorkspace(deps.db, user.id, workspace.kind === 'personal' ? null : workspace.id);
  return describeWorkspace(deps, workspace);
}

/** A unique handle for a team's row: never a username anyone signs in with (team rows never sign in). */
function teamHandle(): string {
  return `team~${randomBytes(9).toString('base64url')}`;
}

export async function createTeam(deps: RequestDeps, user: User, name: string): Promise<Workspace> {
  const now = deps.clock.now();
  const team = await deps.db.transaction().execute(async (trx) => {
    const row = await insertTeam(trx, name, teamHandle(), now.toISOString());
    await insertMember(trx, row.id, user.id, 'owner', now.toISOString());
    await recordActivity(trx, row.id, user, now, {
      action: 'workspace.created',
      targetType: 'workspace',
      targetId: row.id,
      targetLabel: name,
    });
    return row;
  });
  return describeWorkspace(deps, { id: team.id, kind: 'team', name, role: 'owner', owner: toUser(team) });
}

export async function renameWorkspace(
  deps: RequestDeps,
  user: User,
  workspaceId: number,
  name: string,
): Promise<Workspace> {
  const workspace = await requireTeamRole(deps, user, workspaceId, 'owner');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await renameTeam(trx, workspaceId, name);
    await recordActivity(trx, workspaceId, user, now, {
      action: 'workspace.renamed',
      targetType: 'workspace',
      targetId: workspaceId,
      targetLabel: name,
      details: { from: workspace.name, to: name },
    });
  });
  return describeWorkspace(deps, { ...workspace, name });
}

/** Deletes a team with everything it holds: its codes stop redirecting. Owners only. */
export async function deleteWorkspace(deps: RequestDeps, user: User, workspaceId: number) {
  const workspace = await requireTeamRole(deps, user, workspaceId, 'owner');
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ current_workspace_id: null })
      .where('current_workspace_id', '=', workspaceId)
      .execute();
    await deleteTeam(trx, workspace.id);
  });
  deps.log.info({ workspaceId, by: user.username }, 'team workspace deleted');
  return { success: true as const, message: workspaceMessages.deleted };
}

function toMember(row: Awaited<ReturnType<typeof listMembers>>[number]): WorkspaceMember {
  return {
    userId: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    role: roleOf(row.role),
    joinedAt: toIso(row.created_at),
  };
}

export async function listWorkspaceMembers(deps: RequestDeps, user: User, workspaceId: number) {
  const workspace = await requireRole(deps, user, workspaceId, 'viewer');
  if (workspace.kind === 'personal') {
    return [
      {
        userId: user.id,
        username: user.username,
        name: user.name,
        email: user.email,
        role: 'owner' as const,
        joinedAt: user.createdAt,
      },
    ];
  }
  return (await listMembers(deps.db, workspaceId)).map(toMember);
}

/** One page of a workspace's members for a list query (GET /api/workspaces/{id}/members). */
export async function listWorkspaceMemberPage(
  deps: RequestDeps,
  user: User,
  workspaceId: number,
  query: MemberListQuery,
): Promise<Page<WorkspaceMember>> {
  const workspace = await requireRole(deps, user, workspaceId, 'viewer');
  if (workspace.kind === 'personal') {
    // A personal workspace has one member, its person: kept or not by the same search and filter.
    const [me] = await listWorkspaceMembers(deps, user, workspaceId);
    const search = query.search?.toLowerCase();
    const kept =
      (!query.role || query.role === 'owner') &&
      (!search ||
        [me!.username, me!.name ?? '', me!.email ?? ''].some((v) => v.toLowerCase().includes(search)));
    const items = kept && query.page === 1 ? [me!] : [];
    return { items, total: kept ? 1 : 0, page: query.page, pageSize: query.pageSize };
  }
  const { rows, total } = await listMemberPage(deps.db, workspaceId, query);
  return { items: rows.map(toMember), total, page: query.page, pageSize: query.pageSize };
}

/**
 * Changes a member's role. Admins manage viewers, editors and admins; only an owner gives or takes the
 * owner role; the last owner stays an owner.
 */
export async function changeMemberRole(
  deps: RequestDeps,
  user: User,
  input: { workspaceId: number; userId: number; role: WorkspaceRole },
): Promise<WorkspaceMember> {
  const workspace = await requireTeamRole(deps, user, input.workspaceId, 'admin');
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const member = await findMember(trx, input.workspaceId, input.userId);
    if (!member) throw appError('NOT_FOUND', workspaceMessages.memberNotFound);
    if ((member.role === 'owner' || input.role === 'owner') && workspace.role !== 'owner') {
      throw refuse('ROLE_REQUIRED', workspaceMessages.ownerOnly);
    }
    if (
      member.role === 'owner' &&
      input.role !== 'owner' &&
      (await countOwners(trx, input.workspaceId)) <= 1
    ) {
      throw refuse('LAST_OWNER', workspaceMessages.lastOwner);
    }
    if (member.role !== input.role) {
      await setMemberRole(trx, input.workspaceId, input.userId, input.role);
      await recordActivity(trx, input.workspaceId, user, now, {
        action: 'member.role-changed',
        targetType: 'member',
        targetId: member.id,
        targetLabel: member.username,
        details: { from: member.role, to: input.role },
      });
    }
    return toMember({ ...member, role: input.role });
  });
}

async function removeMembership(
  deps: RequestDeps,
  actor: User,
  workspace: CurrentWorkspace,
  userId: number,
  action: 'member.removed' | 'member.left',
) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const member = await findMember(trx, workspace.id, userId);
    if (!member) throw appError('NOT_FOUND', workspaceMessages.memberNotFound);
    if (member.role === 'owner') {
      if (action === 'member.removed' && workspace.role !== 'owner') {
        throw refuse('ROLE_REQUIRED', workspaceMessages.ownerOnly);
      }
      if ((await countOwners(trx, workspace.id)) <= 1)
        throw refuse('LAST_OWNER', workspaceMessages.lastOwner);
    }
    await deleteMember(trx, workspace.id, userId);
    await recordActivity(trx, workspace.id, actor, now, {
      action,
      targetType: 'member',
      targetId: member.id,
      targetLabel: member.username,
      details: { role: member.role },
    });
  });
}

export async function removeMember(
  deps: RequestDeps,
  user: User,
  input: { workspaceId: number; userId: number },
) {
  if (input.userId === user.id) return leaveWorkspace(deps, user, input.workspaceId);
  const workspace = await requireTeamRole(deps, user, input.workspaceId, 'admin');
  await removeMembership(deps, user, workspace, input.userId, 'member.removed');
  return { success: true as const, message: workspaceMessages.removed };
}

export async function leaveWorkspace(deps: RequestDeps, user: User, workspaceId: number) {
  const workspace = await requireTeamRole(deps, user, workspaceId, 'viewer');
  await removeMembership(deps, user, workspace, user.id, 'member.left');
  return { success: true as const, message: workspaceMessages.left };
}

/** Makes another member an owner and the caller an admin: the team changes hands in one step. */
export async function transferOwnership(
  deps: RequestDeps,
  user: User,
  input: { workspaceId: number; userId: number },
) {
  await requireTeamRole(deps, user, input.workspaceId, 'owner');
  if (input.userId === user.id)
    throw appError('BAD_REQUEST', 'Choose another member to transfer ownership to');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const member = await findMember(trx, input.workspaceId, input.userId);
    if (!member) throw appError('NOT_FOUND', workspaceMessages.memberNotFound);
    await setMemberRole(trx, input.workspaceId, input.userId, 'owner');
    await setMemberRole(trx, input.workspaceId, user.id, 'admin');
    await recordActivity(trx, input.workspaceId, user, now, {
      action: 'workspace.transferred',
      targetType: 'member',
      targetId: member.id,
      targetLabel: member.username,
      details: { from: user.username, to: member.username },
    });
  });
  return { success: true as const, message: workspaceMessages.transferred };
}

// Invitations

function toInvitation(row: InvitationRow, now: Date): WorkspaceInvitation {
  const expiresAt = toIso(row.expires_at);
  const expired = row.status === 'pending' && new Date(expiresAt).getTime() <= now.getTime();
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    workspaceName: row.workspace_name ?? '',
    email: row.email,
    username: row.invitee_username ?? null,
    role: roleOf(row.role),
    invitedBy: row.invited_by_username,
    status: expired ? 'expired' : (row.status as WorkspaceInvitation['status']),
    createdAt: toIso(row.created_at),
    expiresAt,
  };
}

export async function listWorkspaceInvitations(deps: RequestDeps, user: User, workspaceId: number) {
  await requireTeamRole(deps, user, workspaceId, 'admin');
  const now = deps.clock.now();
  return (await listPendingInvitations(deps.db, workspaceId, now.toISOString())).map((r) =>
    toInvitation(r, now),
  );
}

/** One page of the team's pending invitations for a list query (GET /api/workspaces/{id}/invitations). */
export async function listWorkspaceInvitationPage(
  deps: RequestDeps,
  user: User,
  workspaceId: number,
  query: InvitationListQuery,
): Promise<Page<WorkspaceInvitation>> {
  await requireTeamRole(deps, user, workspaceId, 'admin');
  const now = deps.clock.now();
  const { rows, total } = await listPendingInvitationPage(deps.db, workspaceId, now.toISOString(), query);
  return { items: rows.map((r) => toInvitation(r, now)), total, page: query.page, pageSize: query.pageSize };
}

/**
 * Invites someone: by e-mail (a link mailed to the address, valid 7 days) or by username (the invitation
 * waits in their app, for an intranet without mail). Admins invite viewers, editors and admins.
 */
export async function inviteMember(
  deps: RequestDeps,
  user: User,
  input: InviteInput,
): Promise<WorkspaceInvitation> {
  const workspace = await requireTeamRole(deps, user, input.workspaceId, 'admin');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * DAY_MS);
  let invitee: UserRow | undefined;
  if (input.username !== undefined) {
    invitee = await findUserByUsername(deps.db, input.username);
    if (!invitee || invitee.kind !== 'person') throw appError('NOT_FOUND', workspaceMessages.noSuchUser);
    if (await findMember(deps.db, workspace.id, invitee.id))
      throw refuse('ALREADY_DONE', workspaceMessages.alreadyMember);
  }
  const to = input.email !== undefined ? { email: input.email } : { inviteeId: invitee!.id };
  if (await findPendingInvitationTo(deps.db, workspace.id, to, now.toISOString())) {
    throw refuse('ALREADY_DONE', workspaceMessages.alreadyInvited);
  }
  const token = input.email !== undefined ? newToken() : null;
  const id = await deps.db.transaction().execute(async (trx) => {
    const invitationId = await insertInvitation(trx, {
      workspaceId: workspace.id,
      email: input.email ?? null,
      inviteeId: invitee?.id ?? null,
      role: input.role,
      tokenHash: token ? hashToken(token) : null,
      invitedBy: user,
      now: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    await recordActivity(trx, workspace.id, user, now, {
      action: 'member.invited',
      targetType: 'invitation',
      targetId: invitationId,
      targetLabel: input.email ?? invitee!.username,
      details: { role: input.role },
    });
    return invitationId;
  });
  const address = input.email ?? (invitee?.email && invitee.email_verified ? invitee.email : null);
  if (address) {
    const link = token
      ? `${deps.config.publicUrl}/invitations#token=${encodeURIComponent(token)}`
      : `${deps.config.publicUrl}/invitations`;
    // In the invitee's language when they have an account, else in the inviter's (a colleague's).
    const locale = mailLocaleOf(invitee ?? (await findUserById(deps.db, user.id)));
    sendInBackground(deps, {
      ...composeMailFor(
        { to: address, locale, name: invitee ?? null },
        mailMessages(locale).invitation({
          inviter: user.name ?? user.username,
          workspace: workspace.name,
          role: input.role,
          days: INVITATION_DAYS,
        }),
        link,
        deps.config.publicUrl,
      ),
      expiresAt,
    });
  }
  return toInvitation((await findInvitation(deps.db, id))!, now);
}

export async function revokeInvitation(
  deps: RequestDeps,
  user: User,
  input: { workspaceId: number; invitationId: number },
) {
  await requireTeamRole(deps, user, input.workspaceId, 'admin');
  const row = await findInvitation(deps.db, input.invitationId);
  if (!row || row.workspace_id !== input.workspaceId || row.status !== 'pending') {
    throw appError('NOT_FOUND', workspaceMessages.invitationNotFound);
  }
  await closeInvitation(deps.db, row.id, 'revoked', deps.clock.now().toISOString());
  return { success: true as const, message: workspaceMessages.revoked };
}

export async function listMyInvitations(deps: RequestDeps, user: User) {
  const now = deps.clock.now();
  // An address counts once verified: anyone can type one into their profile.
  const email = user.emailVerified ? user.email : null;
  return (await listInvitationsFor(deps.db, { id: user.id, email }, now.toISOString())).map((r) =>
    toInvitation(r, now),
  );
}

/**
 * The invitation the caller may answer: one of their list (by id), or the one a mailed link names (by
 * token: whoever holds the link and is signed in). Anything else, answered or expired is not theirs.
 */
async function answerable(deps: RequestDeps, user: User, input: { invitationId?: number; token?: string }) {
  const now = deps.clock.now();
  const row =
    input.token !== undefined
      ? await findInvitationByToken(deps.db, hashToken(input.token))
      : await findInvitation(deps.db, input.invitationId!);
  if (!row) throw appError('NOT_FOUND', workspaceMessages.invitationNotFound);
  if (input.token === undefined) {
    const mine =
      row.invitee_id === user.id ||
      (row.email !== null &&
        user.emailVerified &&
        user.email !== null &&
        row.email.toLowerCase() === user.email.toLowerCase());
    if (!mine) throw appError('NOT_FOUND', workspaceMessages.invitationNotFound);
  }
  const invitation = toInvitation(row, now);
  if (invitation.status !== 'pending') throw appError('BAD_REQUEST', workspaceMessages.invitationGone);
  return { row, invitation, now };
}

export async function invitationByToken(deps: RequestDeps, user: User, token: string) {
  const row = await findInvitationByToken(deps.db, hashToken(token));
  if (!row) throw appError('NOT_FOUND', workspaceMessages.invitationNotFound);
  return toInvitation(row, deps.clock.now());
}

export async function acceptInvitation(
  deps: RequestDeps,
  user: User,
  input: { invitationId?: number; token?: string },
): Promise<Workspace> {
  const { row, now } = await answerable(deps, user, input);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await closeInvitation(trx, row.id, 'accepted', now.toISOString()))) {
      throw appError('BAD_REQUEST', workspaceMessages.invitationGone);
    }
    const existing = await findMember(trx, row.workspace_id, user.id);
    if (!existing) {
      await insertMember(trx, row.workspace_id, user.id, row.role, now.toISOString());
      await recordActivity(trx, row.workspace_id, user, now, {
        action: 'member.joined',
        targetType: 'member',
        targetId: user.id,
        targetLabel: user.username,
        details: { role: row.role, invitedBy: row.invited_by_username },
      });
    } else if (!roleAtLeast(roleOf(existing.role), roleOf(row.role))) {
      await setMemberRole(trx, row.workspace_id, user.id, row.role);
    }
  });
  return getWorkspace(deps, user, row.workspace_id);
}

export async function declineInvitation(
  deps: RequestDeps,
  user: User,
  input: { invitationId?: number; token?: string },
) {
  const { row, now } = await answerable(deps, user, input);
  await closeInvitation(deps.db, row.id, 'declined', now.toISOString());
  return { success: true as const, message: workspaceMessages.declined };
}

// Activity

export async function workspaceActivity(
  deps: RequestDeps,
  user: User,
  input: { workspaceId: number; before?: number; limit: number },
): Promise<{ items: WorkspaceActivity[]; nextBefore: number | null }> {
  await requireRole(deps, user, input.workspaceId, 'viewer');
  const rows = await listActivity(deps.db, input.workspaceId, input.before, input.limit);
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      actor: { id: r.actor_id, username: r.actor_username },
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      targetLabel: r.target_label,
      details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null,
      createdAt: toIso(r.created_at),
    })),
    nextBefore: rows.length > input.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

/** A person's account row (the deletion dialog, move-to-team's target plan). */
export async function findPerson(db: Db, id: number): Promise<UserRow | undefined> {
  const row = await findUserById(db, id);
  return row && row.kind === 'person' ? row : undefined;
}
