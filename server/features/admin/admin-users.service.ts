import { providersOf } from '../auth/sso-identities.repository.js';
import {
  adminMessages,
  type AdminCreateUserInput,
  type AdminUpdateUserInput,
  type AdminUser,
  type AdminUserPage,
  type DeletionImpact,
  adminCreateUserInput,
  adminResetPasswordInput,
  adminUpdateUserInput,
  adminUserListInput,
  type AdminUserListInput,
} from '../../../src/admin/admin.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AdminUserListQuery } from '../../../src/admin/admin-lists.schema.js';
import type { Page } from '../../../src/api/paging.js';
import type { AppDeps, RequestDeps } from '../../app-deps.js';
import type { Db, UserUpdate } from '../../db/database.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import { appError, parseInput, refuse } from '../../errors.js';
import { hashPassword } from '../auth/passwords.js';
import { clearTwoFactor } from '../auth/two-factor.repository.js';
import { sendPasswordChangedMail } from '../auth/recovery.service.js';
import { deleteSessionsOfUser } from '../auth/sessions.repository.js';
import { toUser } from '../users/users.mapper.js';
import {
  findUserByEmail,
  findUserById,
  findUserByUsername,
  insertUser,
  updateUserColumns,
  updateUserPassword,
  deleteApiTokensOfUser,
} from '../users/users.repository.js';
import { recordAudit } from '../../audit.js';
import { securityEvent } from '../../security-log.js';
import { maskEmail } from '../mail/mailer.js';
import { getAdminUser, toAdminUser } from '../billing/admin-user.js';
import { pendingRequestsOf } from '../billing/billing.repository.js';
import {
  deleteMembershipsOf,
  deleteTeam,
  forgetRememberedWorkspace,
  listTeamsKept,
  listTeamsOwnedAlone,
} from '../workspaces/workspaces.repository.js';
import { countAdmins, deleteUserAndData, deletionImpactOf, listUsersPage } from './admin.repository.js';

/** What the audit log keeps of a user: the fields an admin can change. */
function auditView(user: AdminUser | User) {
  return {
    username: user.username,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    subscriptionTier: user.subscriptionTier,
    subscriptionStatus: user.subscriptionStatus,
    subscriptionEndDate: user.subscriptionEndDate,
    hasUnlimitedAccess: user.hasUnlimitedAccess,
  };
}

export async function listAdminUsers(deps: AppDeps, raw: AdminUserListInput): Promise<AdminUserPage> {
  const input = parseInput(adminUserListInput, raw);
  const { items, total } = await listAdminUserPage(deps, input);
  return { rows: items, total, page: input.page, pageSize: input.pageSize };
}

/** One page of people for a checked list query (the REST list's larger pages included). */
export async function listAdminUserPage(
  deps: AppDeps,
  input: Omit<AdminUserListQuery, 'search'> & { search?: string | undefined },
): Promise<Page<AdminUser>> {
  const { rows, total } = await listUsersPage(deps.db, input);
  const ids = rows.map((r) => r.id);
  const requests = await pendingRequestsOf(deps.db, ids);
  const providers = await providersOf(deps.db, ids);
  return {
    items: rows.map((r) =>
      toAdminUser(
        r,
        requests.find((q) => q.user_id === r.id),
        providers.get(r.id),
      ),
    ),
    total,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/**
 * What deleting a person would do: their personal workspace's codes, scans and folders go; a team
 * another member also owns keeps everything; a team they alone own goes too when it holds no code, and
 * refuses the deletion when it holds some (`blockingTeams`).
 */
async function impactOf(db: Db, id: number): Promise<DeletionImpact> {
  const own = await deletionImpactOf(db, id);
  const alone = await listTeamsOwnedAlone(db, id);
  const kept = await listTeamsKept(db, id);
  const team = (r: { id: number; name: string | null }) => ({ id: r.id, name: r.name ?? '' });
  const withCodes = (r: { id: number; name: string | null; qr_code_count: number | string }) => ({
    ...team(r),
    qrCodeCount: Number(r.qr_code_count),
  });
  const byName = (a: { name: string; id: number }, b: { name: string; id: number }) =>
    a.name.localeCompare(b.name) || a.id - b.id;
  return {
    ...own,
    teamsKept: kept.map(withCodes).sort(byName),
    teamsDeleted: alone
      .filter((r) => Number(r.qr_code_count) === 0)
      .map(team)
      .sort(byName),
    blockingTeams: alone
      .filter((r) => Number(r.qr_code_count) > 0)
      .map(withCodes)
      .sort(byName),
  };
}

export async function getDeletionImpact(deps: AppDeps, id: number): Promise<DeletionImpact> {
  await getAdminUser(deps.db, id);
  return impactOf(deps.db, id);
}

export async function createUserAsAdmin(
  deps: RequestDeps,
  admin: User,
  raw: AdminCreateUserInput,
): Promise<AdminUser> {
  const input = parseInput(adminCreateUserInput, raw);
  if (await findUserByUsername(deps.db, input.username))
    throw refuse('USERNAME_TAKEN', adminMessages.usernameTaken);
  if (input.email && (await findUserByEmail(deps.db, input.email))) {
    throw refuse('EMAIL_TAKEN', adminMessages.emailTaken);
  }
  const now = deps.clock.now();
  const password = await hashPassword(input.password);
  try {
    const id = await deps.db.transaction().execute(async (trx) => {
      const row = await insertUser(trx, {
        username: input.username,
        password,
        name: input.name ?? null,
        email: input.email ?? null,
        is_admin: input.isAdmin,
        // An admin vouches for the address they typed.
        email_verified: Boolean(input.email),
        created_at: now.toISOString(),
      });
      await recordAudit(trx, admin, now, {
        action: 'user.create',
        targetType: 'user',
        targetId: row.id,
        targetLabel: row.username,
        after: auditView(toUser(row)),
      });
      return row.id;
    });
    const created = await getAdminUser(deps.db, id);
    if (created.isAdmin) {
      await securityEvent(deps, 'role.changed', {
        user: created,
        by: admin,
        message: `${created.username} created as an admin by ${admin.username}`,
        details: { isAdmin: true, wasAdmin: false, created: true },
        audit: false,
      });
    }
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('USERNAME_TAKEN', adminMessages.usernameTaken);
    throw error;
  }
}

/**
 * Username, name, e-mail and admin rights. An admin never removes their own admin rights, and the last
 * admin stays one; a taken username or address is a 409.
 */
export async function updateUserAsAdmin(
  deps: RequestDeps,
  admin: User,
  id: number,
  raw: AdminUpdateUserInput,
): Promise<AdminUser> {
  const input = parseInput(adminUpdateUserInput, raw);
  const before = await getAdminUser(deps.db, id);
  if (input.isAdmin === false && before.isAdmin) {
    if (id === admin.id) throw appError('BAD_REQUEST', adminMessages.notDemoteYourself);
  }
  if (input.username !== undefined && input.username.toLowerCase() !== before.username.toLowerCase()) {
    if (await findUserByUsername(deps.db, input.username))
      throw refuse('USERNAME_TAKEN', adminMessages.usernameTaken);
  }
  if (input.email && input.email.toLowerCase() !== (before.email ?? '').toLowerCase()) {
    if (await findUserByEmail(deps.db, input.email)) throw refuse('EMAIL_TAKEN', adminMessages.emailTaken);
  }
  const changes: UserUpdate = {};
  if (input.username !== undefined) changes.username = input.username;
  if (input.name !== undefined) changes.name = input.name;
  if (input.email !== undefined) {
    changes.email = input.email;
    // A changed address is the admin's word, like an address given at creation.
    if ((input.email ?? '').toLowerCase() !== (before.email ?? '').toLowerCase()) {
      changes.email_verified = Boolean(input.email);
      // No longer a change of the user's own waiting for its link: password resets go to it again.
      changes.email_change_pending = false;
    }
  }
  if (input.isAdmin !== undefined) changes.is_admin = input.isAdmin;
  const now = deps.clock.now();
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (Object.keys(changes).length > 0) {
        await updateUserColumns(trx, id, changes);
      }
      // Checked inside the transaction: two admins demoting each other at once leave one admin.
      if (input.isAdmin === false && before.isAdmin && (await countAdmins(trx)) < 1) {
        throw appError('BAD_REQUEST', adminMessages.lastAdmin);
      }
      const after = await getAdminUser(trx, id);
      await recordAudit(trx, admin, now, {
        action: 'user.update',
        targetType: 'user',
        targetId: id,
        targetLabel: after.username,
        before: auditView(before),
        after: auditView(after),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('USERNAME_TAKEN', adminMessages.usernameTaken);
    throw error;
  }
  const after = await getAdminUser(deps.db, id);
  // Audited above as user.update; the log gets the changes that matter to security.
  if (after.isAdmin !== before.isAdmin) {
    await securityEvent(deps, 'role.changed', {
      user: after,
      by: admin,
      message: `${after.username} ${after.isAdmin ? 'made an admin' : 'no longer an admin'} by ${admin.username}`,
      details: { isAdmin: after.isAdmin, wasAdmin: before.isAdmin },
      audit: false,
    });
  }
  if ((after.email ?? '').toLowerCase() !== (before.email ?? '').toLowerCase()) {
    await securityEvent(deps, 'email.changed', {
      user: after,
      by: admin,
      email: after.email,
      message: `e-mail address of ${after.username} changed by ${admin.username}`,
      details: { previousEmail: before.email ? maskEmail(before.email) : null },
      audit: false,
    });
  }
  return after;
}

/** A new password for a user: every session of theirs ends; with clearTwoFactor their 2FA goes too. */
export async function resetUserPassword(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const input = parseInput(adminResetPasswordInput, raw);
  const user = await getAdminUser(deps.db, id);
  const hash = await hashPassword(input.newPassword);
  const turnOffTwoFactor = input.clearTwoFactor && user.twoFactorEnabled;
  const ended = await deps.db.transaction().execute(async (trx) => {
    await updateUserPassword(trx, id, hash);
    const sessions = await deleteSessionsOfUser(trx, id);
    const tokens = await deleteApiTokensOfUser(trx, id);
    if (turnOffTwoFactor) {
      await clearTwoFactor(trx, id);
    }
    await recordAudit(trx, admin, deps.clock.now(), {
      action: 'user.reset-password',
      targetType: 'user',
      targetId: id,
      targetLabel: user.username,
      after: { sessionsEnded: true, tokensRevoked: tokens, twoFactorCleared: turnOffTwoFactor },
    });
    return { sessions, tokens };
  });
  await securityEvent(deps, 'password.reset', {
    user,
    by: admin,
    message: `password of ${user.username} reset by ${admin.username}: ${ended.sessions} sessions ended, ${ended.tokens} tokens revoked${turnOffTwoFactor ? ', two-factor turned off' : ''}`,
    details: {
      step: 'admin',
      sessionsEnded: ended.sessions,
      tokensRevoked: ended.tokens,
      twoFactorCleared: turnOffTwoFactor,
    },
    audit: false,
  });
  // In the user's language (the answer's shape has none of it).
  const languages = await findUserById(deps.db, id);
  sendPasswordChangedMail(
    deps,
    { ...user, language: languages?.language, browser_language: languages?.browser_language },
    { ...ended, how: 'admin' },
  );
  return {
    success: true,
    message: turnOffTwoFactor
      ? `Password reset for ${user.username}; two-factor sign-in turned off, every session signed out and every API token revoked.`
      : `Password reset for ${user.username}; every session signed out and every API token revoked.`,
  };
}

/**
 * Deletes a person in one transaction: their personal workspace with everything in it, their memberships,
 * and the teams they alone own that hold no code. Never oneself, never the last admin, and never the last
 * owner of a team holding codes (409 naming the team: another member must be made owner first). Teams'
 * codes belong to the teams, so they stay, and keep redirecting.
 */
export async function deleteUserAsAdmin(deps: AppDeps, admin: User, id: number) {
  if (id === admin.id) throw appError('BAD_REQUEST', adminMessages.notYourself);
  const user = await getAdminUser(deps.db, id);
  const impact = await deps.db.transaction().execute(async (trx) => {
    const counted = await deletePersonAndTeams(trx, id);
    if (user.isAdmin && (await countAdmins(trx)) < 1) throw appError('BAD_REQUEST', adminMessages.lastAdmin);
    await recordAudit(trx, admin, deps.clock.now(), {
      action: 'user.delete',
      targetType: 'user',
      targetId: id,
      targetLabel: user.username,
      before: { ...auditView(user), ...counted },
    });
    return counted;
  });
  return { success: true, message: `User ${user.username} deleted`, deleted: impact };
}

/**
 * Grants or removes an account's unlimited codes (a person's, or a team's: `kind`), with its audit entry
 * and security event; answers whether it is now granted.
 */
export async function setUnlimitedAccess(
  deps: RequestDeps,
  admin: User,
  account: { id: number; username: string; label: string; hasUnlimitedAccess: boolean },
  kind: 'user' | 'workspace',
): Promise<boolean> {
  const granted = !account.hasUnlimitedAccess;
  const action = `${kind}.toggle-unlimited`;
  await deps.db.transaction().execute(async (trx) => {
    await updateUserColumns(trx, account.id, { has_unlimited_access: granted });
    await recordAudit(trx, admin, deps.clock.now(), {
      action,
      targetType: kind,
      targetId: account.id,
      targetLabel: account.label,
      before: { hasUnlimitedAccess: account.hasUnlimitedAccess },
      after: { hasUnlimitedAccess: granted },
    });
  });
  const whom = kind === 'workspace' ? `team workspace "${account.label}"` : account.username;
  await securityEvent(deps, 'plan.changed', {
    user: { id: account.id, username: account.username },
    by: admin,
    message: `unlimited codes ${granted ? 'granted to' : 'removed from'} ${whom} by ${admin.username}`,
    details: {
      action,
      hasUnlimitedAccess: granted,
      ...(kind === 'workspace' ? { workspace: true } : {}),
    },
    audit: false,
  });
  return granted;
}

/** Grants or removes unlimited codes; the answer says which. */
export async function toggleUnlimitedAccess(deps: RequestDeps, admin: User, id: number) {
  const user = await getAdminUser(deps.db, id);
  const granted = await setUnlimitedAccess(deps, admin, { ...user, label: user.username }, 'user');
  return {
    success: true,
    message: granted
      ? `Unlimited access granted to ${user.username}`
      : `Unlimited access removed from ${user.username}`,
    user: await getAdminUser(deps.db, id),
  };
}

/**
 * The deletion of a person inside the caller's transaction (an admin's, or the person's own): refused
 * while they alone own a team holding codes; answers what went with them.
 */
export async function deletePersonAndTeams(trx: Db, id: number): Promise<DeletionImpact> {
  const impact = await impactOf(trx, id);
  if (impact.blockingTeams.length > 0) {
    throw refuse('LAST_OWNER', adminMessages.lastTeamOwner(impact.blockingTeams));
  }
  for (const team of impact.teamsDeleted) {
    await forgetRememberedWorkspace(trx, team.id);
    await deleteTeam(trx, team.id);
  }
  await deleteMembershipsOf(trx, id);
  await deleteUserAndData(trx, id);
  return impact;
}
