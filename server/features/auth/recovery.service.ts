import type { EmailLinkInput, ResetPasswordInput } from '../../../src/auth/auth.schema.js';
import type { RequestDeps } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import { appError } from '../../trpc/errors.js';
import {
  findUserByEmail,
  findUserById,
  findUserByVerificationToken,
  markEmailVerified,
  setVerificationToken,
} from '../users/users.repository.js';
import { applyPasswordReset, findResetToken, insertResetToken } from './auth.repository.js';
import { accountKey, limitMailRequest } from './login-throttle.js';
import { hashPassword } from './passwords.js';
import { hashToken, newToken } from './tokens.js';
import { sendInBackground } from '../mail/mailer.js';
import { composeMail, greetingFor } from '../mail/layout.js';

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

export async function requestPasswordReset(ctx: RequestDeps, input: EmailLinkInput) {
  await limitMailRequest(ctx, 'reset', input.email);
  const user = await findUserByEmail(ctx.db, input.email);
  if (user?.email) {
    const token = newToken();
    const now = ctx.clock.now();
    await insertResetToken(ctx.db, {
      id: hashToken(token),
      userId: user.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
    });
    const link = `${ctx.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    sendInBackground(
      ctx,
      composeMail(
        {
          to: user.email,
          subject: 'Reset your QR Creator password',
          greeting: greetingFor(user),
          paragraphs: [
            `Someone (hopefully you) asked to reset the password of your QR Creator account "${user.username}". Open the link within 1 hour to choose a new password.`,
          ],
          action: { label: 'Choose a new password', url: link },
          footer:
            'The link works once. If you did not ask for this, ignore this message: your password stays as it is.',
        },
        ctx.config.publicUrl,
      ),
    );
  }
  return { message: recoveryMessages.resetRequested };
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
  return { success: true as const, message: recoveryMessages.resetDone };
}

/** Creates a verification token for a user and mails its link. */
export async function sendVerificationMail(
  ctx: RequestDeps,
  user: { id: number; email: string; name: string | null; username: string },
) {
  const token = newToken();
  const now = ctx.clock.now();
  await setVerificationToken(
    ctx.db,
    user.id,
    hashToken(token),
    new Date(now.getTime() + VERIFICATION_TTL_MS).toISOString(),
  );
  const link = `${ctx.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return ctx.mailer.send(
    composeMail(
      {
        to: user.email,
        subject: 'Verify your QR Creator e-mail address',
        greeting: greetingFor(user),
        paragraphs: ['Please confirm your e-mail address by opening the link within 24 hours.'],
        action: { label: 'Verify e-mail address', url: link },
        footer: 'If you did not create a QR Creator account or change its address, ignore this message.',
      },
      ctx.config.publicUrl,
    ),
  );
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
