import { z } from 'zod';
import {
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  emailField,
  text,
  usernameField,
  subscriptionTiers,
  userSchema,
} from '../auth/auth.schema.js';
import { adminWorkspaceSchema } from '../workspaces/workspace.schema.js';

// The admin area: users, team workspaces, subscriptions, the instance's settings, its mail and its audit log.

const bodyError = { error: 'Request body must be a JSON object' };

/** A user id in a path: /api/admin/users/{id}. */
export const adminUserIdInput = z.object({
  id: z.coerce
    .number({ error: 'User id must be a number' })
    .int('User id must be a whole number')
    .positive('User id must be a positive number')
    .max(2_147_483_647, 'User id is too large'),
});

export const userSortKeys = [
  'username',
  'name',
  'email',
  'createdAt',
  'qrCodeCount',
  'tier',
  'status',
] as const;
export type UserSortKey = (typeof userSortKeys)[number];
export const PAGE_SIZE_MAX = 100;

/** A page of users: search (username, name, e-mail), sort, and paging, all done by the database. */
export const adminUserListInput = z.object({
  search: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
  sort: z
    .enum(userSortKeys, { error: `Sort must be one of ${userSortKeys.join(', ')}` })
    .default('createdAt'),
  order: z.enum(['asc', 'desc'], { error: 'Order must be asc or desc' }).default('desc'),
  page: z.coerce
    .number({ error: 'Page must be a number' })
    .int('Page must be a whole number')
    .min(1, 'Page must be at least 1')
    .max(1_000_000, 'Page is too large')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'Page size must be a number' })
    .int('Page size must be a whole number')
    .min(1, 'Page size must be at least 1')
    .max(PAGE_SIZE_MAX, `Page size must be at most ${PAGE_SIZE_MAX}`)
    .default(25),
  /** Subscriptions: only paid tiers, only users with a pending upgrade request. */
  filter: z
    .enum(['all', 'paid', 'requests'], { error: 'Filter must be all, paid or requests' })
    .default('all'),
});
export type AdminUserListInput = z.input<typeof adminUserListInput>;

const optionalName = text('Name')
  .trim()
  .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`)
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional();
const optionalEmail = z
  .union([z.literal(''), z.null(), emailField])
  .transform((v) => (v === '' || v === null ? null : v))
  .optional();
const flag = (label: string) => z.boolean({ error: `${label} must be true or false` });

/** POST /api/admin/users: username and password required; name, email and isAdmin optional. */
export const adminCreateUserInput = z.object(
  {
    username: usernameField,
    password: text('Password')
      .min(1, 'Password is required')
      .min(PASSWORD_MIN, 'Password must be at least 6 characters')
      .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
    name: optionalName,
    email: optionalEmail,
    isAdmin: flag('isAdmin').default(false),
  },
  bodyError,
);
export type AdminCreateUserInput = z.input<typeof adminCreateUserInput>;

/** PUT /api/admin/users/{id}: any of username, name, email, isAdmin (nothing else is read). */
export const adminUpdateUserInput = z.object(
  {
    username: usernameField.optional(),
    name: optionalName,
    email: optionalEmail,
    isAdmin: flag('isAdmin').optional(),
  },
  bodyError,
);
export type AdminUpdateUserInput = z.input<typeof adminUpdateUserInput>;

/** POST /api/admin/users/{id}/reset-password: the new password; clearTwoFactor also turns the user's 2FA off. */
export const adminResetPasswordInput = z.object(
  {
    newPassword: text('New password')
      .min(1, 'New password is required')
      .min(PASSWORD_MIN, 'Password must be at least 6 characters')
      .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
    clearTwoFactor: flag('clearTwoFactor').default(false),
  },
  bodyError,
);

export const DURATION_MIN = 1;
export const DURATION_MAX = 365;
export const DEFAULT_DURATION_DAYS = 30;

function days(label: string) {
  return z.coerce
    .number({ error: `${label} must be a number of days` })
    .int(`${label} must be a whole number of days`)
    .min(DURATION_MIN, `${label} must be between 1 and 365 days`)
    .max(DURATION_MAX, `${label} must be between 1 and 365 days`)
    .default(DEFAULT_DURATION_DAYS);
}

export const paidTiers = ['pro', 'premium'] as const;
export type PaidTier = (typeof paidTiers)[number];

/** POST …/subscription/upgrade: tier pro or premium for 1–365 days (30 by default). */
export const upgradeInput = z.object(
  {
    tier: z.enum(paidTiers, { error: 'Tier must be pro or premium' }),
    duration: days('Duration'),
  },
  bodyError,
);
/** POST …/subscription/extend: 1–365 more days (30 by default). */
export const extendInput = z.object({ days: days('Days') }, bodyError);
/** POST …/subscription/cancel: immediate true ends it now; false keeps the tier until its end date. */
export const cancelInput = z.object({ immediate: flag('immediate').default(false) }, bodyError);

export const upgradeRequestSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  tier: z.enum(paidTiers),
  status: z.enum(['pending', 'approved', 'declined']),
  createdAt: z.string().meta({ format: 'date-time' }),
  decidedAt: z.string().nullable().meta({ format: 'date-time' }),
});
export type UpgradeRequest = z.infer<typeof upgradeRequestSchema>;

/** A row of /admin/users and /admin/subscriptions. */
export const adminUserSchema = userSchema.extend({
  qrCodeCount: z.number().int(),
  twoFactorEnabled: z.boolean(),
  signInMethods: z.array(z.string()).meta({
    description:
      "How the person signs in: 'local' (a password kept here), 'ldap', 'proxy' or 'oidc:<provider id>' (GET /api/config names each).",
  }),
  upgradeRequest: upgradeRequestSchema
    .nullable()
    .meta({ description: 'A pending upgrade request (servers without Stripe), if any.' }),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserPageSchema = z.object({
  rows: z.array(adminUserSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;

const teamRef = z.object({ id: z.number().int(), name: z.string() });
const teamWithCodes = teamRef.extend({ qrCodeCount: z.number().int() });

/**
 * What goes with a person when they are deleted: their personal workspace's codes, scans and folders,
 * and the team workspaces they are in. A team someone else also owns keeps everything; a team they alone
 * own goes with them when it holds no code; one they alone own that holds codes refuses the deletion
 * until another member is made owner.
 */
export const deletionImpactSchema = z.object({
  qrCodes: z.number().int(),
  scans: z.number().int(),
  folders: z.number().int(),
  teamsKept: z
    .array(teamWithCodes)
    .meta({ description: 'Teams another member also owns: they keep every code; only the membership goes.' }),
  teamsDeleted: z
    .array(teamRef)
    .meta({ description: 'Teams they alone own that hold no code: deleted with them, members and all.' }),
  blockingTeams: z.array(teamWithCodes).meta({
    description:
      'Teams they alone own that hold codes: the deletion is refused (409) until one has another owner.',
  }),
});
export type DeletionImpact = z.infer<typeof deletionImpactSchema>;

/** A team workspace id in a path: /api/admin/workspaces/{id}. */
export const adminWorkspaceIdInput = z.object({
  id: z.coerce
    .number({ error: 'Workspace id must be a number' })
    .int('Workspace id must be a whole number')
    .positive('Workspace id must be a positive number')
    .max(2_147_483_647, 'Workspace id is too large'),
});

export const workspaceSortKeys = ['name', 'createdAt', 'qrCodeCount', 'memberCount'] as const;
export type WorkspaceSortKey = (typeof workspaceSortKeys)[number];

/** A page of team workspaces: search (name, owners' usernames), sort and paging, all done by the database. */
export const adminWorkspaceListInput = adminUserListInput.omit({ sort: true, filter: true }).extend({
  sort: z
    .enum(workspaceSortKeys, { error: `Sort must be one of ${workspaceSortKeys.join(', ')}` })
    .default('createdAt'),
});
export type AdminWorkspaceListInput = z.input<typeof adminWorkspaceListInput>;

export const adminWorkspacePageSchema = z.object({
  rows: z.array(adminWorkspaceSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminWorkspacePage = z.infer<typeof adminWorkspacePageSchema>;

/** An admin's change to a team workspace's plan or access: the workspace as it is now, and the toast's words. */
export const adminWorkspaceChangeSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  workspace: adminWorkspaceSchema,
});

/** An admin's change to a user's plan or access: the user as it is now, in words for the toast. */
export const adminUserChangeSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  user: adminUserSchema,
});
export const adminDeleteAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  deleted: deletionImpactSchema,
});

/** GET /api/billing/status: the caller's plan, and how this server upgrades it. */
export const billingStatusSchema = z.object({
  tier: z.enum(subscriptionTiers).meta({ description: 'The tier stored on the account.' }),
  effectiveTier: z
    .enum(subscriptionTiers)
    .meta({ description: 'The tier that counts now: a paid tier past its end date counts as Free.' }),
  status: z.string().nullable(),
  endDate: z.string().nullable().meta({ format: 'date-time' }),
  currentCount: z.number().int(),
  maxCount: z.number().int().nullable().meta({ description: 'null: no limit.' }),
  payments: z.enum(['stripe', 'request']),
  pendingRequest: upgradeRequestSchema.nullable(),
});
export type BillingStatus = z.infer<typeof billingStatusSchema>;
export const upgradeRequestAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  request: upgradeRequestSchema.nullable().meta({
    description: 'null for a team workspace: the admins are told, and set its plan under Workspaces.',
  }),
});

/** POST /api/billing/checkout: the Stripe Checkout page to send the browser to. */
export const checkoutAnswer = z.object({ url: z.string().meta({ format: 'uri' }) });
/** POST /api/stripe/webhook: received, and whether Stripe had sent this event before. */
export const stripeWebhookAnswer = z.object({ received: z.boolean(), duplicate: z.boolean() });

export const upgradeRequestInput = z.object(
  { tier: z.enum(paidTiers, { error: 'Tier must be pro or premium' }) },
  bodyError,
);
export const decideRequestInput = z.object({
  id: z.coerce
    .number({ error: 'Request id must be a number' })
    .int()
    .positive('Request id must be a positive number'),
  approve: flag('approve'),
  duration: days('Duration'),
});

/** Settings an admin changes at run time; the environment gives their defaults. */
export const instanceSettingsSchema = z.object({
  registrationOpen: z.boolean({ error: 'registrationOpen must be true or false' }),
  requireEmailVerification: z.boolean({ error: 'requireEmailVerification must be true or false' }),
  freePlanLimit: z.coerce
    .number({ error: 'Free plan limit must be a number' })
    .int('Free plan limit must be a whole number')
    .min(0, 'Free plan limit must be 0 or more')
    .max(1_000_000, 'Free plan limit must be at most 1,000,000'),
});
export type InstanceSettings = z.infer<typeof instanceSettingsSchema>;
export const updateInstanceSettingsInput = instanceSettingsSchema.partial();

export const auditEntrySchema = z.object({
  id: z.number().int(),
  actorId: z.number().int().nullable(),
  actorUsername: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string().meta({ format: 'date-time' }),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const auditListInput = z.object({
  page: z.coerce.number().int().min(1, 'Page must be at least 1').default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(PAGE_SIZE_MAX, `Page size must be at most ${PAGE_SIZE_MAX}`)
    .default(20),
});

export const mailLogEntrySchema = z.object({
  id: z.number().int(),
  recipient: z.string(),
  subject: z.string(),
  status: z
    .enum(['sent', 'outbox', 'failed'])
    .meta({ description: "'sent' through SMTP, 'outbox' written to data/outbox, 'failed' with its error." }),
  error: z.string().nullable(),
  createdAt: z.string().meta({ format: 'date-time' }),
});
export type MailLogEntry = z.infer<typeof mailLogEntrySchema>;
export const mailLogSchema = z.object({
  transport: z.enum(['smtp', 'outbox']),
  from: z.string(),
  entries: z.array(mailLogEntrySchema),
});

/** A mail whose first attempt failed: waiting for its next try, being sent, or given up. */
export const queuedMailSchema = z.object({
  id: z.number().int(),
  recipient: z.string(),
  subject: z.string(),
  status: z.enum(['waiting', 'sending', 'given-up']).meta({
    description:
      "'waiting' for nextAttemptAt, 'sending' right now, 'given-up' after the last try or when its link expired.",
  }),
  attempts: z.number().int().meta({ description: 'Attempts made so far, the first one included.' }),
  nextAttemptAt: z
    .string()
    .nullable()
    .meta({ format: 'date-time', description: 'The next try; null once given up.' }),
  expiresAt: z.string().nullable().meta({
    format: 'date-time',
    description: 'When its link expires (it is not sent after that); null: no link that expires.',
  }),
  lastError: z.string().nullable(),
  createdAt: z.string().meta({ format: 'date-time' }),
  finishedAt: z.string().nullable().meta({ format: 'date-time', description: 'When it was given up.' }),
});
export type QueuedMail = z.infer<typeof queuedMailSchema>;
export const mailQueueSchema = z.object({
  waiting: z.number().int().meta({ description: 'Mails waiting for a try or being sent.' }),
  givenUp: z.number().int().meta({ description: 'Mails given up and still kept (30 days).' }),
  mails: z.array(queuedMailSchema).meta({ description: 'The newest 100 of them.' }),
});
export type MailQueue = z.infer<typeof mailQueueSchema>;
export const queuedMailIdInput = z.object({
  id: z.coerce
    .number({ error: 'Mail id must be a number' })
    .int('Mail id must be a whole number')
    .positive('Mail id must be a positive number')
    .max(2_147_483_647, 'Mail id is too large'),
});

const dayCount = z.object({ date: z.string().meta({ format: 'date' }), count: z.number().int() });
export const systemStatsSchema = z.object({
  users: z.number().int(),
  admins: z.number().int(),
  qrCodes: z.number().int(),
  scansToday: z.number().int(),
  scans7Days: z.number().int(),
  scans30Days: z.number().int(),
  signupsPerDay: z.array(dayCount),
  scansPerDay: z.array(dayCount),
  topUsers: z.array(z.object({ id: z.number().int(), username: z.string(), scans: z.number().int() })),
  databaseBytes: z.number(),
  databaseKind: z.enum(['sqlite', 'postgres']),
});
export type SystemStats = z.infer<typeof systemStatsSchema>;

export const adminMessages = {
  userNotFound: 'User not found',
  usernameTaken: 'Username already exists',
  emailTaken: 'Email address is already registered',
  notYourself: 'You cannot delete your own account',
  notDemoteYourself: 'You cannot remove your own admin rights',
  lastAdmin: 'The last admin cannot be deleted or demoted',
  cancelFree: 'Only a Pro or Premium subscription can be canceled',
  extendFree: 'Only a Pro or Premium subscription can be extended: upgrade it first',
  requestNotFound: 'Upgrade request not found',
  requestPending: 'An upgrade request is already waiting for an admin',
  requestDecided: 'This request was already decided',
  /** The deletion of a person who alone owns teams holding codes: each team named, with its codes. */
  lastTeamOwner: (teams: { name: string; qrCodeCount: number }[]) =>
    `${teams
      .map(
        (t) => `${t.name} has ${t.qrCodeCount} QR code${t.qrCodeCount === 1 ? '' : 's'} and no other owner`,
      )
      .join(', ')}: make another member owner first`,
} as const;
