import {
  adminWorkspaceListInput,
  type AdminWorkspaceListInput,
  type AdminWorkspacePage,
} from '../../../src/admin/admin.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AdminWorkspaceListQuery } from '../../../src/admin/admin-lists.schema.js';
import type { Page } from '../../../src/api/paging.js';
import { workspaceMessages, type AdminWorkspace } from '../../../src/workspaces/workspace.schema.js';
import type { AppDeps, RequestDeps } from '../../app-deps.js';
import { toIso, type Db } from '../../db/database.js';
import { appError, parseInput } from '../../errors.js';
import { cancelPlan, extendPlan, getPlanHolder, upgradePlan } from '../billing/subscriptions.service.js';
import { toUser } from '../users/users.mapper.js';
import { setUnlimitedAccess } from './admin-users.service.js';
import {
  findTeamWithCounts,
  listOwnerNames,
  listTeamsPage,
  type TeamWithCounts,
} from '../workspaces/workspaces.repository.js';

// The admin's side of team workspaces: the list, one team, and its plan. A team's plan is on its own
// row of `users` (kind 'team'); a person's id here is a 404, as an unknown one.

function toAdminWorkspace(row: TeamWithCounts, owners: string[]): AdminWorkspace {
  const account = toUser(row);
  return {
    id: row.id,
    name: row.name ?? '',
    plan: {
      tier: account.subscriptionTier,
      status: account.subscriptionStatus,
      endDate: account.subscriptionEndDate,
      hasUnlimitedAccess: account.hasUnlimitedAccess,
    },
    memberCount: Number(row.member_count),
    qrCodeCount: Number(row.qr_code_count),
    owners,
    createdAt: toIso(row.created_at),
  };
}

/** Rows with their owners, read in one statement for the whole page. */
async function withOwners(db: Db, rows: TeamWithCounts[]): Promise<AdminWorkspace[]> {
  const owners = await listOwnerNames(
    db,
    rows.map((r) => r.id),
  );
  const byTeam = new Map<number, string[]>();
  for (const o of owners) byTeam.set(o.workspace_id, [...(byTeam.get(o.workspace_id) ?? []), o.username]);
  return rows.map((r) => toAdminWorkspace(r, byTeam.get(r.id) ?? []));
}

/** A page of team workspaces in three statements (count, page, owners), at 10 teams or 10,000. */
export async function listAdminWorkspaces(
  deps: AppDeps,
  raw: AdminWorkspaceListInput,
): Promise<AdminWorkspacePage> {
  const input = parseInput(adminWorkspaceListInput, raw);
  const { items, total } = await listAdminWorkspacePage(deps, input);
  return { rows: items, total, page: input.page, pageSize: input.pageSize };
}

/** The same page for a checked list query (the REST list's larger pages included). */
export async function listAdminWorkspacePage(
  deps: AppDeps,
  input: AdminWorkspaceListQuery,
): Promise<Page<AdminWorkspace>> {
  const { rows, total } = await listTeamsPage(deps.db, input);
  return { items: await withOwners(deps.db, rows), total, page: input.page, pageSize: input.pageSize };
}

/** One team workspace as the admin pages show it; a person's id or an unknown one is a 404. */
export async function getAdminWorkspace(db: Db, id: number): Promise<AdminWorkspace> {
  const row = await findTeamWithCounts(db, id);
  if (!row) throw appError('NOT_FOUND', workspaceMessages.notFound);
  const [workspace] = await withOwners(db, [row]);
  return workspace!;
}

type Account = { id: number; kind: 'team' };
const team = (id: number): Account => ({ id, kind: 'team' });

export async function upgradeWorkspace(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const message = await upgradePlan(deps, admin, team(id), raw);
  return { success: true, message, workspace: await getAdminWorkspace(deps.db, id) };
}

export async function extendWorkspace(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const message = await extendPlan(deps, admin, team(id), raw);
  return { success: true, message, workspace: await getAdminWorkspace(deps.db, id) };
}

export async function cancelWorkspace(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const message = await cancelPlan(deps, admin, team(id), raw);
  return { success: true, message, workspace: await getAdminWorkspace(deps.db, id) };
}

/** Grants or removes a team's unlimited codes; the answer says which. */
export async function toggleWorkspaceUnlimited(deps: RequestDeps, admin: User, id: number) {
  const before = await getPlanHolder(deps.db, id, 'team');
  const granted = await setUnlimitedAccess(deps, admin, before, 'workspace');
  return {
    success: true,
    message: granted
      ? `Unlimited access granted to ${before.label}`
      : `Unlimited access removed from ${before.label}`,
    workspace: await getAdminWorkspace(deps.db, id),
  };
}
