import type { EmailLinkInput, ResetPasswordInput } from '../../../src/auth/auth.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import type { Context } from '../../trpc/context.js';
import { appError } from '../../trpc/errors.js';
import { findUserByEmail } from '../users/users.repository.js';
import { clearAccountFailures, limitMailRequest } from './login-throttle.js';
import { hashPassword } from './passwords.js';
import { endAllSessionsOf } from './sessions.js';
import { hashToken, newToken } from './tokens.js';

type Ctx = AppDeps & Pick<Context, 'log' | 'ip'>;

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
} as const;

/** Mail goes out in the background: the answer must not take longer when the account exists. */
function sendInBackground(ctx: Ctx, message: Parameters<AppDeps['mailer']['send']>[0]) {
  ctx.mailer.send(message).catch((error: unknown) => ctx.log.error({ err: error }, 'mail failed'));
}

export async function requestPasswordReset(ctx: Ctx, input: EmailLinkInput) {
  await limitMailRequest(ctx.db, 'reset', input.email, ctx.ip, ctx.clock.now());
  const user = await findUserByEmail(ctx.db, input.email);
  if (user?.email) {
    const token = newToken();
    const now = ctx.clock.now();
    await ctx.db
      .insertInto('password_reset_tokens')
      .values({
        id: hashToken(token),
        user_id: user.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
      })
      .execute();
    const link = `${ctx.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    sendInBackground(ctx, {
      to: user.email,
      subject: 'Reset your QR Creator password',
      text: `Hello ${user.name ?? user.username},\n\nSomeone (hopefully you) asked to reset the password of your QR Creator account "${user.username}". Open this link within 1 hour to choose a new password:\n\n${link}\n\nThe link works once. If you did not ask for this, ignore this message: your password stays as it is.\n`,
    });
  }
  return { message: recoveryMessages.resetRequested };
}

async function findUsableResetToken(ctx: Ctx, token: string) {
  const row = await ctx.db
    .selectFrom('password_reset_tokens')
    .selectAll()
    .where('id', '=', hashToken(token))
    .executeTakeFirst();
  const usable =
    row && row.used_at === null && new Date(toIso(row.expires_at)).getTime() > ctx.clock.now().getTime();
  return usable ? row : undefined;
}

export async function verifyResetToken(ctx: Ctx, token: string) {
  if (!(await findUsableResetToken(ctx, token))) throw appError('BAD_REQUEST', recoveryMessages.resetInvalid);
  return { success: true as const };
}

/** Sets the new password, spends the token (and every other one of the user) and ends all sessions. */
export async function resetPassword(ctx: Ctx, input: ResetPasswordInput) {
  const row = await findUsableResetToken(ctx, input.token);
  if (!row) throw appError('BAD_REQUEST', recoveryMessages.resetInvalid);
  const hash = await hashPassword(input.password);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    // Spending the token is the guard: of two resets racing with one token, only one updates a row.
    const spent = await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: now })
      .where('user_id', '=', row.user_id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) === 0) throw appError('BAD_REQUEST', recoveryMessages.resetInvalid);
    await trx.updateTable('users').set({ password: hash }).where('id', '=', row.user_id).execute();
    await endAllSessionsOf({ db: trx }, row.user_id);
    const user = await trx
      .selectFrom('users')
      .select('username')
      .where('id', '=', row.user_id)
      .executeTakeFirst();
    // A new password lifts a lockout of the account.
    if (user) await clearAccountFailures(trx, user.username);
  });
  return { success: true as const, message: recoveryMessages.resetDone };
}

/** Creates a verification token for a user and mails its link. */
export async function sendVerificationMail(
  ctx: Ctx,
  user: { id: number; email: string; name: string | null; username: string },
) {
  const token = newToken();
  const now = ctx.clock.now();
  await ctx.db
    .updateTable('users')
    .set({
      email_verification_token: hashToken(token),
      email_verification_expires: new Date(now.getTime() + VERIFICATION_TTL_MS).toISOString(),
    })
    .where('id', '=', user.id)
    .execute();
  const link = `${ctx.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return ctx.mailer.send({
    to: user.email,
    subject: 'Verify your QR Creator e-mail address',
    text: `Hello ${user.name ?? user.username},\n\nPlease confirm your e-mail address by opening this link within 24 hours:\n\n${link}\n\nIf you did not create a QR Creator account, ignore this message.\n`,
  });
}

export async function verifyEmailToken(ctx: Ctx, token: string) {
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'email_verification_expires'])
    .where('email_verification_token', '=', hashToken(token))
    .executeTakeFirst();
  if (!user) throw appError('BAD_REQUEST', recoveryMessages.verificationInvalid);
  const expires = user.email_verification_expires;
  if (expires && new Date(toIso(expires)).getTime() <= ctx.clock.now().getTime()) {
    throw appError('BAD_REQUEST', recoveryMessages.verificationExpired, { expired: true });
  }
  await ctx.db
    .updateTable('users')
    .set({ email_verified: true, email_verification_token: null, email_verification_expires: null })
    .where('id', '=', user.id)
    .execute();
  return { success: true as const, message: recoveryMessages.verified };
}

export async function resendVerification(ctx: Ctx, input: EmailLinkInput) {
  await limitMailRequest(ctx.db, 'verify', input.email, ctx.ip, ctx.clock.now());
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
