import type { EmailLinkInput, ResetPasswordInput } from '../../../src/auth/auth.schema.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, RequestDeps } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import { appError, refuse } from '../../errors.js';
import {
  deleteApiTokensOfUser,
  findUserByEmail,
  findUserById,
  findUserByVerificationToken,
  markEmailVerified,
  restoreEmail,
  setVerificationToken,
} from '../users/users.repository.js';
import {
  closeEmailChangesOf,
  findEmailChangeByUndoToken,
  findUsersFallingBackTo,
} from '../users/email-changes.repository.js';
import { applyPasswordReset, findResetToken, insertResetToken } from './auth.repository.js';
import { deleteSessionsOfUser } from './sessions.repository.js';
import { accountKey, limitMailRequest } from './login-throttle.js';
import { hashPassword } from './passwords.js';
import { hashToken, newToken } from './tokens.js';
import { maskEmail, sendInBackground } from '../mail/mailer.js';
import { securityEvent } from '../../security-log.js';
import { composeMailFor, mailLocaleOf, type LanguageOf } from '../mail/layout.js';
import { mailMessages } from '../mail/messages/index.js';

export const RESET_TTL_MS = 3_600_000;
export const VERIFICATION_TTL_MS = 24 * 3_600_000;

export const recoveryMessages = {
  resetRequested: "If an account exists with that email, we've sent a password reset link.",
  resetInvalid: 'This password reset link is invalid, has expired or has already been used.',
  resetDone: 'Your password has been reset. You can now log in with your new password.',
  verificationSent: "If an unverified account exists with that email, we've sent a new verification link.",
  verificationInvalid: 'This verification link is invalid or has already been used.',
  verificationExpired: 'This verification link has expired. Request a new one below.',
  verified: 'Email verified successfully!',
  undoInvalid: 'This link is invalid, has expired (it works for 7 days) or the change was already undone.',
  undoTaken: 'That address now belongs to another account: ask your administrator for help.',
  undone:
    'Your e-mail address is back. Every browser was signed out and every API token revoked: choose a new password now if anyone else may know it.',
} as const;

/**
 * Mails a reset link to `email` for each account it may reset: the account holding it (unless it is a
 * change of address still waiting for its link: whoever changed it would get the account), and accounts
 * whose pending change falls back to it (their last trusted address).
 */
export async function requestPasswordReset(ctx: RequestDeps, input: EmailLinkInput) {
  await limitMailRequest(ctx, 'reset', input.email);
  const holder = await findUserByEmail(ctx.db, input.email);
  const own = holder?.email && !holder.email_change_pending ? [{ user: holder, to: holder.email }] : [];
  const accounts = [
    ...own,
    // Also the holder itself when it changed back to this, its trusted address (A → B → A): pending again.
    ...(await findUsersFallingBackTo(ctx.db, input.email))
      .filter((u) => !own.some((o) => o.user.id === u.id))
      .map((user) => ({ user, to: user.fallback_email ?? input.email })),
  ];
  if (accounts.length === 0) {
    await securityEvent(ctx, 'password.reset', {
      email: input.email,
      message: 'password reset requested for an address no account can reset: no mail sent',
      details: { step: 'requested', account: false },
      // Logged only: the audit log follows accounts, and this one is anyone's to repeat.
      audit: false,
    });
  }
  for (const { user, to } of accounts) {
    await securityEvent(ctx, 'password.reset', {
      user,
      email: to,
      message: `password reset requested for ${user.username}: link mailed`,
      details: { step: 'requested' },
    });
    const token = newToken();
    const now = ctx.clock.now();
    await insertResetToken(ctx.db, {
      id: hashToken(token),
      userId: user.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
    });
    const locale = mailLocaleOf(user);
    sendInBackground(ctx, {
      ...composeMailFor(
        { to, locale, name: user },
        mailMessages(locale).passwordReset({ username: user.username, hours: RESET_TTL_MS / 3_600_000 }),
        linkWithToken(ctx, '/reset-password', token),
        ctx.config.publicUrl,
      ),
      // Queued when the mail server fails: never sent once the link has expired; a newer request's mail
      // replaces it while it waits.
      expiresAt: new Date(now.getTime() + RESET_TTL_MS),
      replaces: `reset:${user.id}`,
    });
  }
  return { message: recoveryMessages.resetRequested };
}

/**
 * A link carrying a one-time token in its fragment (`#token=…`), which browsers never send to a server,
 * so no proxy's access log keeps it. Links mailed before used `?token=`: the pages still read those.
 */
function linkWithToken(ctx: RequestDeps, path: string, token: string): string {
  return `${ctx.config.publicUrl}${path}#token=${encodeURIComponent(token)}`;
}

/**
 * Tells the owner that the password changed (by them, a reset link or an admin), and that every other
 * browser was signed out and every API token revoked.
 */
export function sendPasswordChangedMail(
  ctx: Pick<AppDeps, 'mailer' | 'config'> & { log?: Pick<FastifyBaseLogger, 'error'> },
  user: { email: string | null; name: string | null; username: string } & LanguageOf,
  done: { sessions: number; tokens: number; how: 'changed' | 'reset' | 'admin' },
): void {
  if (!user.email) return;
  const locale = mailLocaleOf(user);
  sendInBackground(
    { mailer: ctx.mailer, log: ctx.log ?? console },
    composeMailFor(
      { to: user.email, locale, name: user },
      mailMessages(locale).passwordChanged({ username: user.username, ...done }),
      `${ctx.config.publicUrl}/auth`,
      ctx.config.publicUrl,
    ),
  );
}

async function findUsableResetToken(ctx: RequestDeps, token: string) {
  const row = await findResetToken(ctx.db, hashToken(token));
  const usable =
    row && row.used_at === null && new Date(toIso(row.expires_at)).getTime() > ctx.clock.now().getTime();
  return usable ? row : undefined;
}

export async function verifyResetToken(ctx: RequestDeps, token: string) {
  if (!(await findUsableResetToken(ctx, token))) throw appError('BAD_REQUEST', recoveryMessages.resetInvalid);
  return { success: true as const };
}

/** Sets the new password, spends the token (and every other one of the user) and ends all sessions. */
export async function resetPassword(ctx: RequestDeps, input: ResetPasswordInput) {
  const row = await findUsableResetToken(ctx, input.token);
  if (!row) throw appError('BAD_REQUEST', recoveryMessages.resetInvalid);
  const hash = await hashPassword(input.password);
  const user = await findUserById(ctx.db, row.user_id);
  // Spending the token is the guard: of two resets racing with one token, only one succeeds.
  const reset = await applyPasswordReset(ctx.db, {
    userId: row.user_id,
    passwordHash: hash,
    at: ctx.clock.now().toISOString(),
    // A new password lifts a lockout of the account.
    failureKey: user ? accountKey(user.username) : null,
  });
  if (!reset) throw appError('BAD_REQUEST', recoveryMessages.resetInvalid);
  await securityEvent(ctx, 'password.reset', {
    user: user ?? { id: row.user_id, username: `#${row.user_id}` },
    message: `password of ${user?.username ?? `user #${row.user_id}`} reset with a mailed link: ${reset.sessions} sessions ended, ${reset.tokens} tokens revoked`,
    details: { step: 'completed', sessionsEnded: reset.sessions, tokensRevoked: reset.tokens },
  });
  if (user) sendPasswordChangedMail(ctx, user, { ...reset, how: 'reset' });
  return { success: true as const, message: recoveryMessages.resetDone };
}

/**
 * Creates a verification token for a user and mails its link. A mail server that fails: the mail is
 * queued (until the link expires; a newer link's mail replaces it), or with `queue: false` the promise
 * rejects for the caller to say so.
 */
export async function sendVerificationMail(
  ctx: RequestDeps,
  user: { id: number; email: string; name: string | null; username: string } & LanguageOf,
  options: { queue?: false } = {},
) {
  const token = newToken();
  const now = ctx.clock.now();
  await setVerificationToken(
    ctx.db,
    user.id,
    hashToken(token),
    new Date(now.getTime() + VERIFICATION_TTL_MS).toISOString(),
  );
  const link = linkWithToken(ctx, '/verify-email', token);
  const locale = mailLocaleOf(user);
  return ctx.mailer.send({
    ...composeMailFor(
      { to: user.email, locale, name: user },
      mailMessages(locale).verifyEmail({ hours: VERIFICATION_TTL_MS / 3_600_000 }),
      link,
      ctx.config.publicUrl,
    ),
    expiresAt: new Date(now.getTime() + VERIFICATION_TTL_MS),
    replaces: `verify:${user.id}`,
    ...options,
  });
}

export async function verifyEmailToken(ctx: RequestDeps, token: string) {
  const user = await findUserByVerificationToken(ctx.db, hashToken(token));
  if (!user) throw appError('BAD_REQUEST', recoveryMessages.verificationInvalid);
  const expires = user.email_verification_expires;
  if (expires && new Date(toIso(expires)).getTime() <= ctx.clock.now().getTime()) {
    throw appError('BAD_REQUEST', recoveryMessages.verificationExpired, { expired: true });
  }
  await markEmailVerified(ctx.db, user.id);
  return { success: true as const, message: recoveryMessages.verified };
}

export async function resendVerification(ctx: RequestDeps, input: EmailLinkInput) {
  await limitMailRequest(ctx, 'verify', input.email);
  const user = await findUserByEmail(ctx.db, input.email);
  if (user?.email && !user.email_verified) {
    const { email } = user;
    // In the background: the answer takes the same time whether or not the account exists.
    sendVerificationMail(ctx, { ...user, email }).catch((error: unknown) =>
      ctx.log.error({ err: error }, 'verification mail failed'),
    );
  }
  return { message: recoveryMessages.verificationSent };
}

/**
 * The old address's "Undo this change" link (7 days): the address before the change comes back with its
 * verified state, every session ends and every API token is revoked (whoever changed it may hold some),
 * and every other open change of the user is closed, so no undo link mailed to an address in between
 * can bring that address back.
 */
export async function undoEmailChange(ctx: RequestDeps, token: string) {
  const change = await findEmailChangeByUndoToken(ctx.db, hashToken(token));
  const now = ctx.clock.now();
  if (!change || change.closed_at !== null || new Date(toIso(change.expires_at)).getTime() <= now.getTime()) {
    throw appError('BAD_REQUEST', recoveryMessages.undoInvalid);
  }
  const holder = await findUserByEmail(ctx.db, change.old_email);
  if (holder && holder.id !== change.user_id) throw refuse('EMAIL_TAKEN', recoveryMessages.undoTaken);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await closeEmailChangesOf(trx, change.user_id, now.toISOString());
      await restoreEmail(trx, change.user_id, {
        email: change.old_email,
        verified: Boolean(change.old_verified),
        pending: Boolean(change.old_pending),
      });
      await deleteSessionsOfUser(trx, change.user_id);
      await deleteApiTokensOfUser(trx, change.user_id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('EMAIL_TAKEN', recoveryMessages.undoTaken);
    throw error;
  }
  const user = await findUserById(ctx.db, change.user_id);
  await securityEvent(ctx, 'email.changed', {
    user: user ?? { id: change.user_id, username: `#${change.user_id}` },
    email: change.old_email,
    message: `e-mail change of ${user?.username ?? `user #${change.user_id}`} undone from the old address: every session ended, every token revoked`,
    details: { previousEmail: maskEmail(change.new_email), undone: true },
  });
  return { success: true as const, message: recoveryMessages.undone };
}
