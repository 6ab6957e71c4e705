import type { User } from '../../src/auth/auth.schema.js';
import {
  roleAtLeast,
  workspaceIdField,
  workspaceMessages,
  workspaceRoles,
  type WorkspaceRole,
} from '../../src/workspaces/workspace.schema.js';
import { appError, refuse } from '../errors.js';
import type { Db } from '../db/database.js';
import { findTeamMembership } from '../features/workspaces/workspaces.repository.js';
import { toUser } from '../features/users/users.mapper.js';

/** The workspace a request acts on, and the caller's role in it. */
export interface CurrentWorkspace {
  id: number;
  kind: 'personal' | 'team';
  name: string;
  role: WorkspaceRole;
  /**
   * The workspace's account as a User: its id owns the codes, folders, logos and scans, its plan fields
   * are the workspace's plan. For a personal workspace it is the caller.
   */
  owner: User;
}

/** What a request says about its workspace (server/trpc/context.ts fills it). */
export interface WorkspaceRequest {
  /** The `X-Workspace` header, or the `workspace` query parameter of a link (a download). */
  asked: string | undefined;
  /** The workspace the person last switched to (users.current_workspace_id). */
  remembered: number | null;
  /** An API token acts on its own workspace only. */
  tokenWorkspace: number | null;
}

export const personalWorkspaceName = 'Personal';

function personal(user: User): CurrentWorkspace {
  return { id: user.id, kind: 'personal', name: personalWorkspaceName, role: 'owner', owner: user };
}

function roleOf(value: string): WorkspaceRole {
  return (workspaceRoles as readonly string[]).includes(value) ? (value as WorkspaceRole) : 'viewer';
}

/** The caller's role in a workspace by id (their own: owner), or undefined when not a member. */
export async function membershipOf(
  db: Db,
  user: User,
  workspaceId: number,
): Promise<CurrentWorkspace | undefined> {
  if (workspaceId === user.id) return personal(user);
  const row = await findTeamMembership(db, workspaceId, user.id);
  if (!row) return undefined;
  return { id: row.id, kind: 'team', name: row.name ?? '', role: roleOf(row.role), owner: toUser(row) };
}

/**
 * The workspace a request acts on: a token's own; else the one asked for (header or link); else the one
 * the person last switched to; else their own. Asking for a workspace one is not a member of is a 404,
 * as for any object of someone else; a remembered one left since falls back to their own.
 */
export async function resolveWorkspace(
  db: Db,
  user: User,
  request: WorkspaceRequest,
): Promise<CurrentWorkspace> {
  let asked: number | undefined;
  if (request.asked !== undefined && request.asked !== '') {
    const parsed = workspaceIdField.safeParse(request.asked);
    if (!parsed.success)
      throw appError('BAD_REQUEST', `X-Workspace: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    asked = parsed.data;
  }
  if (request.tokenWorkspace !== null) {
    if (asked !== undefined && asked !== request.tokenWorkspace) {
      throw refuse('TOKEN_SCOPE', workspaceMessages.tokenWorkspace);
    }
    const found = await membershipOf(db, user, request.tokenWorkspace);
    // The token's maker left the team: the token no longer reaches it.
    if (!found) throw appError('NOT_FOUND', workspaceMessages.notFound);
    return found;
  }
  if (asked !== undefined) {
    const found = await membershipOf(db, user, asked);
    if (!found) throw appError('NOT_FOUND', workspaceMessages.notFound);
    return found;
  }
  if (request.remembered !== null && request.remembered !== user.id) {
    const found = await membershipOf(db, user, request.remembered);
    if (found) return found;
  }
  return personal(user);
}

/** Refuses a caller whose role is below what the call needs (403, naming the role). */
export function checkRole(workspace: CurrentWorkspace, needed: WorkspaceRole): void {
  if (!roleAtLeast(workspace.role, needed))
    throw refuse('ROLE_REQUIRED', workspaceMessages.roleRequired(needed));
}
