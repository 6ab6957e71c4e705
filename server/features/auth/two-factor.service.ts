import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import {
  twoFactorMessages,
  type TwoFactorEnrolment,
  type TwoFactorStatus,
} from '../../../src/auth/account.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AppDeps, SessionDeps } from '../../app-deps.js';
import type { UserRow } from '../../db/database.js';
import { appError, refuse } from '../../errors.js';
import { securityEvent } from '../../security-log.js';
import { findUserById } from '../users/users.repository.js';
import { toUser } from '../users/users.mapper.js';
import { afterSignIn } from './login-alerts.js';
import { maskIp } from '../../../src/analytics/mask-ip.js';
import { sendInBackground } from '../mail/mailer.js';
import { composeMailFor, mailLocaleOf } from '../mail/layout.js';
import { mailMessages } from '../mail/messages/index.js';
import {
  beginCodeAttempt,
  beginLoginAttempt,
  MAX_CODE_FAILURES,
  type CodeAttempt,
} from './login-throttle.js';
import { verifyPassword } from './passwords.js';
import { cookieOptions, endSession, startSession } from './sessions.js';
import type { SsoSession } from './sessions.repository.js';
import { linkIdentityOnce } from './sso-identities.repository.js';
import { hashToken, newToken } from './tokens.js';
import {
  claimTotpStep,
  countUnusedRecoveryCodes,
  deletePendingLogin,
  findPendingLogin,
  insertPendingLogin,
  replaceRecoveryCodes,
  enableTotp,
  setTotp,
  spendRecoveryCode,
} from './two-factor.repository.js';

const PERIOD_S = 30;
export const RECOVERY_CODE_COUNT = 10;
export const PENDING_LOGIN_MS = 5 * 60_000;

export function pendingCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-qr_2fa' : 'qr_2fa';
}

function totpOf(secret: string, username: string): TOTP {
  return new TOTP({
    issuer: 'QR Creator',
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

/** 'k3f9-2mxq': ten of them at enrolment, each good once. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(8);
  const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]!);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

const recoveryHash = (code: string) => hashToken(`recovery:${code.trim().toLowerCase()}`);

async function userRowOf(deps: AppDeps, id: number): Promise<UserRow> {
  const row = await findUserById(deps.db, id);
  if (!row) throw appError('UNAUTHORIZED', 'Not signed in');
  return row;
}

/**
 * A current TOTP code (one step of drift either way) whose step was never accepted before, or an unused
 * recovery code. Either is spent at once, so the same code never works twice.
 */
async function acceptCode(deps: AppDeps, row: UserRow, code: string): Promise<boolean> {
  const digits = code.replace(/\s+/g, '');
  if (/^\d{6}$/.test(digits) && row.totp_secret) {
    const now = deps.clock.now().getTime();
    const delta = totpOf(row.totp_secret, row.username).validate({
      token: digits,
      timestamp: now,
      window: 1,
    });
    if (delta === null) return false;
    const step = Math.floor(now / 1000 / PERIOD_S) + delta;
    return claimTotpStep(deps.db, row.id, step);
  }
  return spendRecoveryCode(deps.db, row.id, recoveryHash(code), deps.clock.now().toISOString());
}

export async function getTwoFactorStatus(deps: AppDeps, user: User): Promise<TwoFactorStatus> {
  const row = await userRowOf(deps, user.id);
  const enabled = Boolean(row.totp_enabled);
  return { enabled, recoveryCodesLeft: enabled ? await countUnusedRecoveryCodes(deps.db, user.id) : 0 };
}

/** Step 1 (password required): a new secret, waiting for a code from the app to count. */
export async function beginTwoFactor(
  ctx: SessionDeps,
  user: User,
  password: string,
): Promise<TwoFactorEnrolment> {
  const row = await userRowOf(ctx, user.id);
  if (row.totp_enabled) throw refuse('ALREADY_DONE', twoFactorMessages.alreadyOn);
  const attempt = await beginLoginAttempt(
    ctx,
    { username: row.username, user: row },
    { during: 'two-factor setup' },
  );
  if (!(await verifyPassword(row.password, password))) {
    await attempt.failed();
    throw appError('BAD_REQUEST', twoFactorMessages.wrongPassword, { field: 'password' });
  }
  await attempt.succeeded();
  const secret = new Secret({ size: 20 }).base32;
  await setTotp(ctx.db, user.id, secret, false);
  return { secret, otpauthUrl: totpOf(secret, row.username).toString() };
}

/** Step 2: a code from the app turns it on, and the ten recovery codes are shown, this once. */
export async function confirmTwoFactor(
  ctx: SessionDeps,
  user: User,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  const row = await userRowOf(ctx, user.id);
  if (row.totp_enabled) throw refuse('ALREADY_DONE', twoFactorMessages.alreadyOn);
  if (!row.totp_secret) throw appError('BAD_REQUEST', twoFactorMessages.notStarted);
  if (!/^\d{6}$/.test(code.replace(/\s+/g, '')) || !(await acceptCode(ctx, row, code))) {
    await securityEvent(ctx, 'twofactor.failed', {
      user: row,
      message: `wrong two-factor code for ${row.username} (two-factor setup)`,
      details: { reason: 'wrong code', during: 'two-factor setup' },
    });
    throw appError('BAD_REQUEST', twoFactorMessages.invalidCode, { field: 'code' });
  }
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(ctx.db, user.id, recoveryCodes.map(recoveryHash));
  // The step just accepted stays recorded, so the confirming code cannot also sign in a moment later.
  await enableTotp(ctx.db, user.id);
  await securityEvent(ctx, 'twofactor.enabled', {
    user: row,
    message: `two-factor sign-in turned on for ${row.username}`,
  });
  return { recoveryCodes };
}

/** Off: needs the password and a current code (or a recovery code). */
export async function disableTwoFactor(ctx: SessionDeps, user: User, password: string, code: string) {
  const row = await userRowOf(ctx, user.id);
  if (!row.totp_enabled) throw appError('BAD_REQUEST', twoFactorMessages.notOn);
  const attempt = await beginLoginAttempt(
    ctx,
    { username: row.username, user: row },
    { during: 'two-factor removal' },
  );
  if (!(await verifyPassword(row.password, password))) {
    await attempt.failed();
    throw appError('BAD_REQUEST', twoFactorMessages.wrongPassword, { field: 'password' });
  }
  await attempt.succeeded();
  const codeAttempt = await beginCodeAttempt(ctx, row, 'two-factor removal');
  if (!(await acceptCode(ctx, row, code))) {
    await failedCode(ctx, row, codeAttempt);
    throw appError('BAD_REQUEST', twoFactorMessages.invalidCode, { field: 'code' });
  }
  await codeAttempt.succeeded();
  await setTotp(ctx.db, user.id, null, false);
  await replaceRecoveryCodes(ctx.db, user.id, []);
  await securityEvent(ctx, 'twofactor.disabled', {
    user: row,
    message: `two-factor sign-in turned off for ${row.username}`,
  });
  return { success: true as const, message: 'Two-factor authentication is off' };
}

/**
 * A wrong code: when it is the one that locks the code step, the owner hears of it, since whoever typed
 * it knew the password.
 */
async function failedCode(ctx: SessionDeps, row: UserRow, attempt: CodeAttempt): Promise<void> {
  const { locked } = await attempt.failed();
  if (!locked || !row.email) return;
  const locale = mailLocaleOf(row);
  sendInBackground(
    ctx,
    composeMailFor(
      { to: row.email, locale, name: row },
      mailMessages(locale).twoFactorLocked({
        username: row.username,
        failures: MAX_CODE_FAILURES,
        address: maskIp(ctx.ip),
        minutes: 15,
      }),
      `${ctx.config.publicUrl}/auth`,
      ctx.config.publicUrl,
    ),
  );
}

/** After a right password, for a user with two-factor on: the sign-in waits for its code (5 minutes). */
export async function beginPendingLogin(ctx: SessionDeps, userId: number, sso?: SsoSession) {
  const token = newToken();
  const now = ctx.clock.now();
  await insertPendingLogin(
    ctx.db,
    hashToken(token),
    userId,
    new Date(now.getTime() + PENDING_LOGIN_MS).toISOString(),
    sso ? JSON.stringify(sso) : null,
  );
  ctx.cookies.set(pendingCookieName(ctx.config.publicUrl), token, {
    ...cookieOptions(ctx.config.publicUrl),
    maxAge: PENDING_LOGIN_MS / 1000,
  });
  return { requiresTwoFactor: true as const, message: twoFactorMessages.codeRequired };
}

/**
 * The second step of a sign-in: the code (or a recovery code) for the pending sign-in of this browser.
 * Wrong codes are counted on their own (5 per account in 15 minutes, whatever the browser; a right
 * password clears none of them: login-throttle.ts), and the owner is mailed when the code step locks.
 * The pending sign-in stays until it expires, so the user may try again.
 */
export async function finishPendingLogin(ctx: SessionDeps, code: string): Promise<User> {
  const cookie = ctx.cookies.read(pendingCookieName(ctx.config.publicUrl));
  const now = ctx.clock.now().toISOString();
  const id = cookie && cookie.length <= 100 ? hashToken(cookie) : null;
  const pending = id ? await findPendingLogin(ctx.db, id, now) : undefined;
  if (!id || pending === undefined) throw refuse('INVALID_CREDENTIALS', twoFactorMessages.notPending);
  const row = await userRowOf(ctx, pending.user_id);
  const attempt = await beginCodeAttempt(ctx, row, 'sign-in');
  if (!(await acceptCode(ctx, row, code))) {
    await failedCode(ctx, row, attempt);
    throw refuse('INVALID_CREDENTIALS', twoFactorMessages.invalidCode);
  }
  await attempt.succeeded();
  await deletePendingLogin(ctx.db, id, now);
  ctx.cookies.clear(pendingCookieName(ctx.config.publicUrl), cookieOptions(ctx.config.publicUrl));
  if (ctx.sessionId) await endSession(ctx, ctx.cookies, ctx.sessionId);
  // A company sign-in carries on as one (its provider checks it again), a password sign-in as before.
  const { linkIdentity, ...sso } = pending.sso_session
    ? (JSON.parse(pending.sso_session) as SsoSession)
    : ({} as Partial<SsoSession>);
  // Linking a company account to an account with two-factor on waits for the code (sso-sign-in.ts).
  if (linkIdentity && sso.provider && sso.subject) {
    await linkIdentityOnce(ctx.db, { provider: sso.provider, subject: sso.subject, userId: row.id, now });
  }
  await startSession(
    ctx,
    ctx.cookies,
    row.id,
    { ip: ctx.ip, userAgent: ctx.userAgent },
    sso.provider ? (sso as SsoSession) : undefined,
  );
  await afterSignIn(ctx, row);
  return toUser(row);
}
