import { successMessageAnswer } from '../../../src/api/answers.js';
import { z } from 'zod';
import {
  adminCreateUserInput,
  adminDeleteAnswer,
  adminResetPasswordInput,
  adminUpdateUserInput,
  adminUserChangeSchema,
  adminUserIdInput,
  adminUserListInput,
  adminUserSchema,
  adminWorkspaceChangeSchema,
  adminWorkspaceIdInput,
  adminWorkspaceListInput,
  auditListInput,
  auditPageSchema,
  cancelInput,
  decideRequestInput,
  deletionImpactSchema,
  extendInput,
  instanceSettingsSchema,
  mailLogSchema,
  mailQueueSchema,
  queuedMailIdInput,
  PAGE_SIZE_MAX,
  systemStatsSchema,
  updateInstanceSettingsInput,
  upgradeInput,
} from '../../../src/admin/admin.schema.js';
import { adminWorkspaceSchema } from '../../../src/workspaces/workspace.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';

/** What waits for an admin (the sidebar's and /admin's counts). */
const adminNoticesSchema = z.object({
  pendingUpgradeRequests: z
    .number()
    .int()
    .meta({ description: 'Upgrade requests no admin has decided yet.' }),
  adminsWithEmail: z
    .number()
    .int()
    .meta({ description: 'Admins with an e-mail address; 0: nobody is mailed about upgrade requests.' }),
});

/** A body that may be left out entirely: its fields' defaults apply. */
const optionalBody = <S extends z.ZodType>(schema: S) => z.preprocess((v) => v ?? {}, schema);

/** Without paging parameters a list answers its first 100 rows; `X-Total-Count` says how many there are. */
const listQuery = adminUserListInput.extend({
  pageSize: adminUserListInput.shape.pageSize.unwrap().default(PAGE_SIZE_MAX),
});

const list =
  '{ search?, sort?, order?, page?, pageSize? (≤ 100), filter? } → an array of users with qrCodeCount; X-Total-Count header.';

const workspaceListQuery = adminWorkspaceListInput.extend({
  pageSize: adminWorkspaceListInput.shape.pageSize.unwrap().default(PAGE_SIZE_MAX),
});

export const adminRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/admin/users',
    tokens: 'read',
    summary: `Users, searched, sorted and paged by the server. ${list}`,
    access: 'admin',
    answer: z.array(adminUserSchema),
    query: listQuery,
    handler: async ({ caller, query, reply }) => {
      const page = await caller.admin.users(query);
      void reply.header('X-Total-Count', String(page.total));
      return page.rows;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/users',
    summary: '{ username, password, name?, email?, isAdmin? } → 201 the user; a taken username is 409.',
    access: 'admin',
    answer: adminUserSchema,
    status: 201,
    body: adminCreateUserInput,
    handler: ({ caller, body }) => caller.admin.createUser(body),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/admin/users/:id',
    summary: 'Any of { username, name, email, isAdmin } → the user. Never demotes oneself or the last admin.',
    access: 'admin',
    object: 'user',
    answer: adminUserSchema,
    params: adminUserIdInput,
    body: adminUpdateUserInput,
    handler: ({ caller, params, body }) => caller.admin.updateUser({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/users/:id/reset-password',
    summary: "{ newPassword, clearTwoFactor? } → { success, message }; ends the user's sessions.",
    access: 'admin',
    object: 'user',
    answer: successMessageAnswer,
    params: adminUserIdInput,
    body: adminResetPasswordInput,
    handler: ({ caller, params, body }) => caller.admin.resetPassword({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/admin/users/:id',
    tokens: 'write',
    summary:
      'Deletes the user with their personal codes, scans, folders, uploads and sessions, and the teams they alone own that hold no code → { success, message, deleted }. Teams another member owns keep their codes; 409 while the user alone owns a team holding codes.',
    access: 'admin',
    object: 'user',
    answer: adminDeleteAnswer,
    params: adminUserIdInput,
    handler: ({ caller, params }) => caller.admin.deleteUser(params),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/users/:id/deletion-impact',
    tokens: 'read',
    summary:
      'What a deletion would take with it → { qrCodes, scans, folders, teamsKept, teamsDeleted, blockingTeams }.',
    access: 'admin',
    object: 'user',
    answer: deletionImpactSchema,
    params: adminUserIdInput,
    handler: ({ caller, params }) => caller.admin.deletionImpact(params),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/users/:id/toggle-unlimited',
    tokens: 'write',
    summary: 'Grants or removes unlimited codes → { success, message, user }.',
    access: 'admin',
    object: 'user',
    answer: adminUserChangeSchema,
    params: adminUserIdInput,
    handler: ({ caller, params }) => caller.admin.toggleUnlimited(params),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/subscriptions',
    tokens: 'read',
    summary: `Users with their subscription (tier, status, end date, pending upgrade request). ${list}`,
    access: 'admin',
    answer: z.array(adminUserSchema),
    query: listQuery,
    handler: async ({ caller, query, reply }) => {
      const page = await caller.admin.subscriptions(query);
      void reply.header('X-Total-Count', String(page.total));
      return page.rows;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/users/:id/subscription/upgrade',
    tokens: 'write',
    summary: '{ tier: pro|premium, duration: 1–365 days (30) } → { success, message, user }.',
    access: 'admin',
    object: 'user',
    answer: adminUserChangeSchema,
    params: adminUserIdInput,
    body: optionalBody(upgradeInput),
    handler: ({ caller, params, body }) => caller.admin.upgrade({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/users/:id/subscription/extend',
    tokens: 'write',
    summary: '{ days: 1–365 (30) } → { success, message, user }; paid tiers only.',
    access: 'admin',
    object: 'user',
    answer: adminUserChangeSchema,
    params: adminUserIdInput,
    body: optionalBody(extendInput),
    handler: ({ caller, params, body }) => caller.admin.extend({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/users/:id/subscription/cancel',
    tokens: 'write',
    summary: '{ immediate } → { success, message, user }: true back to Free now, false at the end date.',
    access: 'admin',
    object: 'user',
    answer: adminUserChangeSchema,
    params: adminUserIdInput,
    body: optionalBody(cancelInput),
    handler: ({ caller, params, body }) => caller.admin.cancel({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/workspaces',
    tokens: 'read',
    summary:
      "Team workspaces, searched (name, owners' usernames), sorted (name, createdAt, qrCodeCount, memberCount) and paged by the server. { search?, sort?, order?, page?, pageSize? (≤ 100) } → an array of workspaces with plan, memberCount, qrCodeCount and owners; X-Total-Count header.",
    access: 'admin',
    answer: z.array(adminWorkspaceSchema),
    query: workspaceListQuery,
    handler: async ({ caller, query, reply }) => {
      const page = await caller.admin.workspaces(query);
      void reply.header('X-Total-Count', String(page.total));
      return page.rows;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/workspaces/:id',
    tokens: 'read',
    summary:
      "One team workspace → { id, name, plan, memberCount, qrCodeCount, owners, createdAt }; a person's id is 404.",
    access: 'admin',
    // A team workspace is an account: a row of users (kind 'team').
    object: 'user',
    answer: adminWorkspaceSchema,
    params: adminWorkspaceIdInput,
    handler: ({ caller, params }) => caller.admin.workspace(params),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/workspaces/:id/subscription/upgrade',
    tokens: 'write',
    summary:
      "The team's plan: { tier: pro|premium, duration: 1–365 days (30) } → { success, message, workspace }.",
    access: 'admin',
    object: 'user',
    answer: adminWorkspaceChangeSchema,
    params: adminWorkspaceIdInput,
    body: optionalBody(upgradeInput),
    handler: ({ caller, params, body }) => caller.admin.workspaceUpgrade({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/workspaces/:id/subscription/extend',
    tokens: 'write',
    summary: "The team's plan: { days: 1–365 (30) } → { success, message, workspace }; paid tiers only.",
    access: 'admin',
    object: 'user',
    answer: adminWorkspaceChangeSchema,
    params: adminWorkspaceIdInput,
    body: optionalBody(extendInput),
    handler: ({ caller, params, body }) => caller.admin.workspaceExtend({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/workspaces/:id/subscription/cancel',
    tokens: 'write',
    summary:
      "The team's plan: { immediate } → { success, message, workspace }: true back to Free now, false at the end date.",
    access: 'admin',
    object: 'user',
    answer: adminWorkspaceChangeSchema,
    params: adminWorkspaceIdInput,
    body: optionalBody(cancelInput),
    handler: ({ caller, params, body }) => caller.admin.workspaceCancel({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/workspaces/:id/toggle-unlimited',
    tokens: 'write',
    summary: "Grants or removes the team's unlimited codes → { success, message, workspace }.",
    access: 'admin',
    object: 'user',
    answer: adminWorkspaceChangeSchema,
    params: adminWorkspaceIdInput,
    handler: ({ caller, params }) => caller.admin.workspaceToggleUnlimited(params),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/upgrade-requests/:id',
    tokens: 'write',
    summary: '{ approve, duration? } → approves (an upgrade for duration days) or declines a request.',
    access: 'admin',
    object: 'upgradeRequest',
    answer: adminUserChangeSchema,
    params: z.object({ id: decideRequestInput.shape.id }),
    body: decideRequestInput.omit({ id: true }),
    handler: ({ caller, params, body }) => caller.admin.decideRequest({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/stats',
    tokens: 'read',
    summary: 'Users, codes, scans today / 7 / 30 days, sign-ups and scans per day, top users, database size.',
    access: 'admin',
    answer: systemStatsSchema,
    handler: ({ caller }) => caller.admin.stats(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/notices',
    tokens: 'read',
    summary: 'What waits for an admin: { pendingUpgradeRequests, adminsWithEmail }.',
    access: 'admin',
    answer: adminNoticesSchema,
    handler: ({ caller }) => caller.admin.notices(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/mails',
    tokens: 'read',
    summary: 'The last 50 mails: recipient, subject, time, status (sent, outbox, failed).',
    access: 'admin',
    answer: mailLogSchema,
    handler: ({ caller }) => caller.admin.mails(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/mail-queue',
    tokens: 'read',
    summary:
      'Mails whose first attempt failed: { waiting, givenUp, mails } with recipient, subject, attempts, next try, last error.',
    access: 'admin',
    answer: mailQueueSchema,
    handler: ({ caller }) => caller.admin.mailQueue(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/mail-queue/:id/retry',
    tokens: 'write',
    summary:
      'Tries a queued or given-up mail now → { success, message }; 502 when the server refuses it again, 409 when its link expired.',
    access: 'admin',
    object: 'queuedMail',
    answer: successMessageAnswer,
    params: queuedMailIdInput,
    handler: ({ caller, params }) => caller.admin.retryMail(params),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/settings',
    tokens: 'read',
    summary: '{ registrationOpen, requireEmailVerification, freePlanLimit }.',
    access: 'admin',
    answer: instanceSettingsSchema,
    handler: ({ caller }) => caller.admin.settings(),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/admin/settings',
    tokens: 'write',
    summary: 'Any of { registrationOpen, requireEmailVerification, freePlanLimit } → all settings.',
    access: 'admin',
    answer: instanceSettingsSchema,
    body: updateInstanceSettingsInput,
    handler: ({ caller, body }) => caller.admin.updateSettings(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/audit-log',
    tokens: 'read',
    summary: 'Admin actions, newest first: { entries, total, page, pageSize }.',
    access: 'admin',
    answer: auditPageSchema,
    query: auditListInput,
    handler: ({ caller, query }) => caller.admin.auditLog(query),
  }),
];
