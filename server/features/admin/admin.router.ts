import type { z } from 'zod';
import {
  adminCreateUserInput,
  adminResetPasswordInput,
  adminUpdateUserInput,
  adminUserIdInput,
  adminUserListInput,
  adminWorkspaceIdInput,
  adminWorkspaceListInput,
  auditListInput,
  cancelInput,
  decideRequestInput,
  extendInput,
  queuedMailIdInput,
  updateInstanceSettingsInput,
  upgradeInput,
} from '../../../src/admin/admin.schema.js';
import { adminProcedure, router } from '../../trpc/init.js';
import {
  shortDomainIdInput,
  shortDomainInput,
  updateShortDomainInput,
} from '../../../src/qr/short-domain.schema.js';
import {
  createShortDomain,
  deleteShortDomain,
  listShortDomains,
  updateShortDomain,
} from '../domains/short-domains.service.js';
import { getAdminUser } from '../billing/admin-user.js';
import { decideUpgradeRequest } from '../billing/billing.service.js';
import { getMailQueue, retryQueuedMail } from '../mail/mail-queue.service.js';
import {
  cancelSubscription,
  extendSubscription,
  upgradeSubscription,
} from '../billing/subscriptions.service.js';
import {
  createUserAsAdmin,
  deleteUserAsAdmin,
  getDeletionImpact,
  listAdminUsers,
  resetUserPassword,
  toggleUnlimitedAccess,
  updateUserAsAdmin,
} from './admin-users.service.js';
import {
  cancelWorkspace,
  extendWorkspace,
  getAdminWorkspace,
  listAdminWorkspaces,
  toggleWorkspaceUnlimited,
  upgradeWorkspace,
} from './admin-workspaces.service.js';
import {
  getAdminNotices,
  getAuditLog,
  getMailLog,
  getSettings,
  getSystemStats,
  updateSettings,
} from './system.service.js';

const withId = <S extends z.ZodRawShape>(shape: S) => adminUserIdInput.extend(shape);
const withWorkspaceId = <S extends z.ZodRawShape>(shape: S) => adminWorkspaceIdInput.extend(shape);

/** The admin area: every procedure is admin only (signed out 401, a user 403, an unknown id 404). */
export const adminRouter = router({
  users: adminProcedure.input(adminUserListInput).query(({ ctx, input }) => listAdminUsers(ctx, input)),
  user: adminProcedure.input(adminUserIdInput).query(({ ctx, input }) => getAdminUser(ctx.db, input.id)),
  deletionImpact: adminProcedure
    .input(adminUserIdInput)
    .query(({ ctx, input }) => getDeletionImpact(ctx, input.id)),
  createUser: adminProcedure
    .input(adminCreateUserInput)
    .mutation(({ ctx, input }) => createUserAsAdmin(ctx, ctx.user, input)),
  updateUser: adminProcedure
    .input(withId(adminUpdateUserInput.shape))
    .mutation(({ ctx, input: { id, ...changes } }) => updateUserAsAdmin(ctx, ctx.user, id, changes)),
  resetPassword: adminProcedure
    .input(withId(adminResetPasswordInput.shape))
    .mutation(({ ctx, input: { id, ...body } }) => resetUserPassword(ctx, ctx.user, id, body)),
  deleteUser: adminProcedure
    .input(adminUserIdInput)
    .mutation(({ ctx, input }) => deleteUserAsAdmin(ctx, ctx.user, input.id)),
  toggleUnlimited: adminProcedure
    .input(adminUserIdInput)
    .mutation(({ ctx, input }) => toggleUnlimitedAccess(ctx, ctx.user, input.id)),
  subscriptions: adminProcedure
    .input(adminUserListInput)
    .query(({ ctx, input }) => listAdminUsers(ctx, input)),
  upgrade: adminProcedure
    .input(withId(upgradeInput.shape))
    .mutation(({ ctx, input: { id, ...body } }) => upgradeSubscription(ctx, ctx.user, id, body)),
  extend: adminProcedure
    .input(withId(extendInput.shape))
    .mutation(({ ctx, input: { id, ...body } }) => extendSubscription(ctx, ctx.user, id, body)),
  cancel: adminProcedure
    .input(withId(cancelInput.shape))
    .mutation(({ ctx, input: { id, ...body } }) => cancelSubscription(ctx, ctx.user, id, body)),
  workspaces: adminProcedure
    .input(adminWorkspaceListInput)
    .query(({ ctx, input }) => listAdminWorkspaces(ctx, input)),
  workspace: adminProcedure
    .input(adminWorkspaceIdInput)
    .query(({ ctx, input }) => getAdminWorkspace(ctx.db, input.id)),
  workspaceUpgrade: adminProcedure
    .input(withWorkspaceId(upgradeInput.shape))
    .mutation(({ ctx, input: { id, ...body } }) => upgradeWorkspace(ctx, ctx.user, id, body)),
  workspaceExtend: adminProcedure
    .input(withWorkspaceId(extendInput.shape))
    .mutation(({ ctx, input: { id, ...body } }) => extendWorkspace(ctx, ctx.user, id, body)),
  workspaceCancel: adminProcedure
    .input(withWorkspaceId(cancelInput.shape))
    .mutation(({ ctx, input: { id, ...body } }) => cancelWorkspace(ctx, ctx.user, id, body)),
  workspaceToggleUnlimited: adminProcedure
    .input(adminWorkspaceIdInput)
    .mutation(({ ctx, input }) => toggleWorkspaceUnlimited(ctx, ctx.user, input.id)),
  decideRequest: adminProcedure
    .input(decideRequestInput)
    .mutation(({ ctx, input }) => decideUpgradeRequest(ctx, ctx.user, input)),
  stats: adminProcedure.query(({ ctx }) => getSystemStats(ctx)),
  notices: adminProcedure.query(({ ctx }) => getAdminNotices(ctx)),
  mails: adminProcedure.query(({ ctx }) => getMailLog(ctx)),
  mailQueue: adminProcedure.query(({ ctx }) => getMailQueue(ctx)),
  retryMail: adminProcedure
    .input(queuedMailIdInput)
    .mutation(({ ctx, input }) => retryQueuedMail(ctx, ctx.user, input.id)),
  settings: adminProcedure.query(({ ctx }) => getSettings(ctx)),
  updateSettings: adminProcedure
    .input(updateInstanceSettingsInput)
    .mutation(({ ctx, input }) => updateSettings(ctx, ctx.user, input)),
  /** Short domains (issue 35): host names codes' links may use, and which workspaces may. */
  domains: adminProcedure.query(({ ctx }) => listShortDomains(ctx)),
  createDomain: adminProcedure
    .input(shortDomainInput)
    .mutation(({ ctx, input }) => createShortDomain(ctx, ctx.user, input)),
  updateDomain: adminProcedure
    .input(updateShortDomainInput)
    .mutation(({ ctx, input }) => updateShortDomain(ctx, ctx.user, input)),
  deleteDomain: adminProcedure
    .input(shortDomainIdInput)
    .mutation(({ ctx, input }) => deleteShortDomain(ctx, ctx.user, input.id)),
  auditLog: adminProcedure.input(auditListInput).query(({ ctx, input }) => getAuditLog(ctx, input)),
});
