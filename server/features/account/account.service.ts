import { isLocale } from '../../../src/i18n/locales.js';
import { UAParser } from 'ua-parser-js';
import {
  accountMessages,
  type ActiveSession,
  type ChangePasswordInput,
  type EmailTestInput,
  type MailCheckResult,
  type Preferences,
  type SignOutOthersInput,
  type Theme,
  type UpdateProfileInput,
} from '../../../src/auth/account.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { SessionListQuery } from '../../../src/auth/session-list.schema.js';
import type { Page } from '../../../src/api/paging.js';
import { maskIp } from '../../../src/analytics/mask-ip.js';
import type { AppDeps, SessionDeps } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import { appError, refuse } from '../../errors.js';
import { beginLoginAttempt, limitVerificationLinks } from '../auth/login-throttle.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { sendPasswordChangedMail, sendVerificationMail } from '../auth/recovery.service.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { maskEmail, sendInBackground } from '../mail/mailer.js';
import { securityEvent } from '../../security-log.js';
import { recordAudit } from '../../audit.js';
import { composeMail, composeMailFor, mailLocaleOf } from '../mail/layout.js';
import { mailMessages } from '../mail/messages/index.js';
import { storeImage, UPLOAD_URL_PREFIX } from '../uploads/uploads.service.js';
import { toUser } from '../users/users.mapper.js';
import { findLatestEmailChange, insertEmailChange } from '../users/email-changes.repository.js';
import {
  deleteApiTokensOfUser,
  findUserByEmail,
  findUserById,
  updateUserPassword,
} from '../users/users.repository.js';
import {
  deleteOtherSessionsOf,
  deleteSessionOf,
  deleteUploadOf,
  findPreferenceRow,
  listSessionPageOf,
  listSessionsOf,
  setProfilePicture,
  updatePreferenceRow,
  updateProfileRow,
  type PreferenceColumns,
} from './account.repository.js';

async function userRowOf(deps: AppDeps, user: User) {
  const row = await findUserById(deps.db, user.id);
  // The session read the user a moment ago; gone now means it was deleted meanwhile.
  if (!row) throw appError('UNAUTHORIZED', 'Not signed in');
  return row;
}

/** How long the old address may undo a change of address. */
export const EMAIL_UNDO_TTL_MS = 7 * 24 * 3_600_000;

/**
 * Name and e-mail. A new address is unverified until its link is followed: a verification mail goes to
 * it, and the old address is told of the change with a link that undoes it for 7 days. Changing away
 * from a verified address needs the current password (a wrong one counts as a failed sign-in), and until
 * the new address is verified, password resets go to the old one, never to it: a borrowed session cannot
 * turn into the account.
 */
export async function updateProfile(ctx: SessionDeps, user: User, input: UpdateProfileInput): Promise<User> {
  const row = await userRowOf(ctx, user);
  const emailChanged = (row.email ?? '').toLowerCase() !== input.email.toLowerCase();
  if (!emailChanged) {
    return toUser(await updateProfileRow(ctx.db, user.id, { name: input.name, email: input.email }));
  }
  const holder = await findUserByEmail(ctx.db, input.email);
  if (holder && holder.id !== user.id) throw refuse('EMAIL_TAKEN', accountMessages.emailTaken);
  if (row.email && row.email_verified) {
    if (!input.currentPassword) {
      throw appError('BAD_REQUEST', accountMessages.passwordForEmail, { field: 'currentPassword' });
    }
    const attempt = await beginLoginAttempt(
      ctx,
      { username: row.username, user: row },
      { during: 'e-mail change' },
    );
    if (!(await verifyPassword(row.password, input.currentPassword))) {
      await attempt.failed();
      throw appError('BAD_REQUEST', accountMessages.wrongCurrentPassword, { field: 'currentPassword' });
    }
    await attempt.succeeded();
  }
  const undoToken = newToken();
  const now = ctx.clock.now();
  // The old address was trusted (verified, or not itself a change waiting for its link).
  const oldTrusted = Boolean(row.email_verified) || !row.email_change_pending;
  let updated;
  try {
    updated = await ctx.db.transaction().execute(async (trx) => {
      if (row.email) {
        const previous = oldTrusted ? undefined : await findLatestEmailChange(trx, user.id);
        await insertEmailChange(trx, {
          userId: user.id,
          oldEmail: row.email,
          oldVerified: Boolean(row.email_verified),
          oldPending: Boolean(row.email_change_pending),
          // Resets go to the last address that was trusted: the old one, or what the old one fell back to.
          fallbackEmail: oldTrusted ? row.email : (previous?.fallback_email ?? null),
          newEmail: input.email,
          undoTokenHash: hashToken(undoToken),
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + EMAIL_UNDO_TTL_MS).toISOString(),
        });
      }
      return updateProfileRow(trx, user.id, {
        name: input.name,
        email: input.email,
        emailVerified: false,
        emailChangePending: true,
      });
    });
  } catch (error) {
    // Two accounts taking the same address at the same moment: the unique index decides.
    if (isUniqueViolation(error)) throw refuse('EMAIL_TAKEN', accountMessages.emailTaken);
    throw error;
  }
  await securityEvent(ctx, 'email.changed', {
    user: updated,
    email: input.email,
    message: `e-mail address of ${updated.username} changed (unverified until its link is followed)`,
    details: { previousEmail: row.email ? maskEmail(row.email) : null },
  });
  sendVerificationMail(ctx, { ...updated, email: input.email }).catch((error: unknown) =>
    ctx.log.error({ err: error }, 'verification mail failed'),
  );
  if (row.email) {
    const locale = mailLocaleOf(updated);
    sendInBackground(ctx, {
      ...composeMailFor(
        { to: row.email, locale, name: updated },
        mailMessages(locale).emailChanged({
          username: updated.username,
          newEmail: input.email,
          resetStillHere: oldTrusted,
          days: EMAIL_UNDO_TTL_MS / 86_400_000,
        }),
        `${ctx.config.publicUrl}/undo-email-change#token=${undoToken}`,
        ctx.config.publicUrl,
      ),
      // Queued when the mail server fails, but not past the undo link's 7 days.
      expiresAt: new Date(now.getTime() + EMAIL_UNDO_TTL_MS),
    });
  }
  return toUser(updated);
}

export const verificationLinkMessages = {
  sent: (email: string) => `Verification link sent to ${email}. It works for 24 hours.`,
  alreadyVerified: 'Your e-mail address is already verified.',
  noEmail: 'Add an e-mail address to your profile first: the link is sent there.',
  failed: 'The verification link could not be sent right now. Please try again in a few minutes.',
} as const;

/**
 * "Send verification link" beside the Unverified badge: a new link (the previous one stops working) to the
 * account's own address, one a minute and five an hour. Answers once the mail is handed over, so the
 * toast that says it was sent is true; a mail server that fails is a 502 the user can retry.
 */
export async function sendVerificationLink(ctx: SessionDeps, user: User): Promise<{ message: string }> {
  const row = await userRowOf(ctx, user);
  if (!row.email) throw appError('BAD_REQUEST', verificationLinkMessages.noEmail, { field: 'email' });
  if (row.email_verified) throw refuse('ALREADY_DONE', verificationLinkMessages.alreadyVerified);
  await limitVerificationLinks(ctx, row.id);
  try {
    // Not queued: the user waits on this answer and may simply ask again.
    await sendVerificationMail(ctx, { ...row, email: row.email }, { queue: false });
  } catch (error) {
    ctx.log.error({ err: error }, 'verification mail failed');
    throw appError('BAD_GATEWAY', verificationLinkMessages.failed);
  }
  return { message: verificationLinkMessages.sent(row.email) };
}

/**
 * A new password, given the current one. A wrong current password is a 400 on `currentPassword` (never a
 * 401, which would sign the client out) and counts as a failed sign-in against brute force. Every other
 * session of the user ends; this one stays.
 */
export async function changePassword(ctx: SessionDeps, user: User, input: ChangePasswordInput) {
  const row = await userRowOf(ctx, user);
  const attempt = await beginLoginAttempt(
    ctx,
    { username: row.username, user: row },
    { during: 'password change' },
  );
  if (!(await verifyPassword(row.password, input.currentPassword))) {
    await attempt.failed();
    throw appError('BAD_REQUEST', accountMessages.wrongCurrentPassword, { field: 'currentPassword' });
  }
  await attempt.succeeded();
  const hash = await hashPassword(input.newPassword);
  const { sessions, tokens } = await ctx.db.transaction().execute(async (trx) => {
    await updateUserPassword(trx, user.id, hash);
    return {
      sessions: await deleteOtherSessionsOf(trx, user.id, ctx.sessionId),
      tokens: await deleteApiTokensOfUser(trx, user.id),
    };
  });
  await securityEvent(ctx, 'password.changed', {
    user: row,
    message: `password of ${row.username} changed: ${sessions} other sessions ended, ${tokens} tokens revoked`,
    details: { sessionsEnded: sessions, tokensRevoked: tokens },
  });
  sendPasswordChangedMail(ctx, row, { sessions, tokens, how: 'changed' });
  return { success: true as const, message: accountMessages.passwordChanged };
}

const themeOf = (value: string): Theme => (value === 'light' || value === 'dark' ? value : 'system');

export async function getPreferences(deps: AppDeps, user: User): Promise<Preferences> {
  const row = await findPreferenceRow(deps.db, user.id);
  return {
    theme: themeOf(row.theme),
    productUpdates: Boolean(row.notify_product_updates),
    scanDigest: Boolean(row.notify_scan_digest),
    scanThresholds: Boolean(row.notify_scan_thresholds),
    loginAlerts: Boolean(row.login_alerts),
    language: isLocale(row.language) ? row.language : null,
    timeZone: row.time_zone,
  };
}

export async function updatePreferences(
  deps: AppDeps,
  user: User,
  input: Partial<Preferences>,
): Promise<Preferences> {
  const changes: PreferenceColumns = {};
  if (input.theme !== undefined) changes.theme = input.theme;
  if (input.productUpdates !== undefined) changes.notify_product_updates = input.productUpdates;
  if (input.scanDigest !== undefined) changes.notify_scan_digest = input.scanDigest;
  if (input.scanThresholds !== undefined) changes.notify_scan_thresholds = input.scanThresholds;
  if (input.loginAlerts !== undefined) changes.login_alerts = input.loginAlerts;
  if (input.timeZone !== undefined) changes.time_zone = input.timeZone;
  if (input.language !== undefined) changes.language = input.language;
  await updatePreferenceRow(deps.db, user.id, changes);
  return getPreferences(deps, user);
}

/** The name a session goes by in the list: never its stored id, which is the key of a live session. */
const publicSessionId = (id: string) => hashToken(`session:${id}`).slice(0, 32);

function describeAgent(userAgent: string | null): { browser: string; os: string } {
  const parser = new UAParser(userAgent ?? '');
  const browser = parser.getBrowser();
  const os = parser.getOS();
  const major = browser.version?.split('.')[0];
  return {
    browser: browser.name ? `${browser.name}${major ? ` ${major}` : ''}` : 'Unknown browser',
    os: os.name ? `${os.name}${os.version ? ` ${os.version}` : ''}` : 'Unknown OS',
  };
}

type SessionRow = Awaited<ReturnType<typeof listSessionsOf>>[number];

function toActiveSession(ctx: SessionDeps, row: SessionRow): ActiveSession {
  return {
    id: publicSessionId(row.id),
    ...describeAgent(row.user_agent),
    ip: maskIp(row.ip_address),
    createdAt: toIso(row.created_at),
    lastSeenAt: toIso(row.last_seen_at),
    current: row.id === ctx.sessionId,
  };
}

export async function listSessions(ctx: SessionDeps, user: User): Promise<ActiveSession[]> {
  const rows = await listSessionsOf(ctx.db, user.id, ctx.clock.now().toISOString());
  return rows.map((row) => toActiveSession(ctx, row));
}

/** One page of the user's live sessions for a list query (GET /api/user/sessions). */
export async function listSessionPage(
  ctx: SessionDeps,
  user: User,
  query: SessionListQuery,
): Promise<Page<ActiveSession>> {
  const { rows, total } = await listSessionPageOf(ctx.db, user.id, ctx.clock.now().toISOString(), query);
  return {
    items: rows.map((row) => toActiveSession(ctx, row)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** Signs one of the caller's own sessions out; another user's (or an unknown) session is 404. */
export async function revokeSession(ctx: SessionDeps, user: User, id: string) {
  const rows = await listSessionsOf(ctx.db, user.id, ctx.clock.now().toISOString());
  const row = rows.find((r) => publicSessionId(r.id) === id);
  if (!row || !(await deleteSessionOf(ctx.db, user.id, row.id))) {
    throw appError('NOT_FOUND', accountMessages.sessionNotFound);
  }
  await securityEvent(ctx, 'session.revoked', {
    user,
    message: `${user.username} signed one of their sessions out`,
    details: { count: 1, tokensRevoked: 0 },
  });
  return { success: true as const };
}

export async function revokeOtherSessions(ctx: SessionDeps, user: User, input: SignOutOthersInput) {
  const count = await deleteOtherSessionsOf(ctx.db, user.id, ctx.sessionId);
  const tokensRevoked = input?.revokeTokens ? await deleteApiTokensOfUser(ctx.db, user.id) : 0;
  await securityEvent(ctx, 'session.revoked', {
    user,
    message: `${user.username} signed out ${count} other sessions and revoked ${tokensRevoked} tokens`,
    details: { count, tokensRevoked },
  });
  return { success: true as const, count, tokensRevoked };
}

/** Stores the picture (type read from the bytes, SVG sanitised) and shows it as the user's avatar. */
export async function storeProfilePicture(deps: AppDeps, user: User, bytes: Buffer) {
  const previous = (await userRowOf(deps, user)).profile_picture;
  const { url } = await storeImage(deps, user, 'profile-picture', bytes, accountMessages.pictureType);
  const row = await setProfilePicture(deps.db, user.id, url);
  if (previous?.startsWith(UPLOAD_URL_PREFIX)) {
    await deleteUploadOf(deps.db, user.id, previous.slice(UPLOAD_URL_PREFIX.length));
  }
  return { url, user: toUser(row) };
}

/** The sender addresses an administrator has to verify with a mail provider. */
function sendersOf(deps: AppDeps): string[] {
  const address = (value: string) => /<([^>]+)>/.exec(value)?.[1] ?? value;
  return [address(deps.config.mailFrom), deps.config.mailSupport];
}

interface SmtpFailure {
  message?: string;
  command?: string;
  response?: string;
  responseCode?: number;
}

function mailFailure(deps: AppDeps, error: unknown, what: string) {
  const failure = (error ?? {}) as SmtpFailure;
  const reason = failure.response ?? failure.message ?? 'unknown error';
  const senderRejected =
    failure.command === 'MAIL FROM' || /sender|from address|not (been )?verified/i.test(reason);
  return appError('BAD_GATEWAY', `${what}: ${reason}`, {
    success: false,
    ...(senderRejected ? { senderRejected: true, senders: sendersOf(deps) } : {}),
  });
}

/** Checks the mail transport (admins): the SMTP server answers and accepts the login, or the outbox is writable. */
export async function verifyEmailService(deps: AppDeps): Promise<MailCheckResult> {
  try {
    const { transport } = await deps.mailer.verify();
    return {
      success: true,
      message:
        transport === 'smtp'
          ? 'Email service is working: the SMTP server accepted the connection.'
          : 'Email service is working: SMTP_URL is not set, so messages are written to the outbox.',
    };
  } catch (error) {
    throw mailFailure(deps, error, 'Failed to verify email service');
  }
}

/** Sends a test mail (admins), in the product's layout, and says whether the mail server took it. */
export async function sendTestEmail(
  deps: AppDeps,
  user: User,
  input: EmailTestInput,
): Promise<MailCheckResult> {
  // In the sending admin's language (the subject and text are theirs).
  const locale = mailLocaleOf(await findUserById(deps.db, user.id));
  try {
    await deps.mailer.send({
      ...composeMail(
        {
          to: input.to,
          subject: input.subject,
          greeting: mailMessages(locale).layout.greetingAnyone,
          paragraphs: [input.message],
          footer: mailMessages(locale).testMailFooter({ sender: user.name ?? user.username }),
          ...(input.from ? { from: input.from } : {}),
        },
        deps.config.publicUrl,
        locale,
      ),
      // A test says what the server answered now; it is never queued.
      queue: false,
    });
  } catch (error) {
    throw mailFailure(deps, error, 'Failed to send email');
  }
  await recordAudit(deps.db, user, deps.clock.now(), {
    action: 'mail.test',
    targetType: 'mail',
    targetLabel: input.to,
    after: { to: input.to, subject: input.subject },
  });
  return { success: true, message: `Test email sent to ${input.to}` };
}
