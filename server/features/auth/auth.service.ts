import type {
  LoginInput,
  PublicConfig,
  RegisterInput,
  RegisterResult,
  TwoFactorRequired,
  User,
} from '../../../src/auth/auth.schema.js';
import type { AppDeps, SessionDeps } from '../../app-deps.js';
import type { UserRow } from '../../db/database.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import { composeMail, greetingFor } from '../mail/layout.js';
import { sendInBackground } from '../mail/mailer.js';
import { claimNotification } from '../notifications/notifications.repository.js';
import { getInstanceSettings } from '../settings/instance-settings.js';
import { appError } from '../../errors.js';
import { findUserByEmail, findUserByUsername, insertUser } from '../users/users.repository.js';
import { toUser } from '../users/users.mapper.js';
import { beginLoginAttempt, limitRegistrations } from './login-throttle.js';
import { isTrustedDevice, trustThisDevice } from './trusted-device.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { endSession, startSession } from './sessions.js';
import { afterSignIn } from './login-alerts.js';
import { beginPendingLogin } from './two-factor.service.js';
import { sendVerificationMail } from './recovery.service.js';

export const DEMO_USERNAME = 'demo';
export const DEMO_PASSWORD = 'demo123';

export const messages = {
  invalidCredentials: 'Invalid username or password',
  usernameTaken: 'Username already exists',
  emailTaken: 'Email address is already registered',
  usernameOrEmailTaken: 'Username or email address is already registered',
  verifyFirst: 'Please verify your email address before logging in. Check your inbox for the link.',
  registrationClosed: 'Registration is closed on this server. Ask an administrator for an account.',
  checkInbox: 'Registration successful! Please check your email to verify your account before logging in.',
} as const;

export async function login(ctx: SessionDeps, input: LoginInput): Promise<User | TwoFactorRequired> {
  const row = await findUserByUsername(ctx.db, input.username);
  const trustedDevice = row ? await isTrustedDevice(ctx, row.id) : false;
  const attempt = await beginLoginAttempt(
    ctx,
    { username: input.username, user: row },
    { trustedDevice, during: 'sign-in' },
  );
  const ok = await verifyPassword(row?.password, input.password);
  if (!row || !ok) {
    await attempt.failed();
    throw appError('UNAUTHORIZED', messages.invalidCredentials);
  }
  await attempt.succeeded();
  await trustThisDevice(ctx, row.id);
  const settings = await getInstanceSettings(ctx);
  if (settings.requireEmailVerification && !row.email_verified && !row.is_admin) {
    throw appError('FORBIDDEN', messages.verifyFirst, { requiresVerification: true });
  }
  if (row.totp_enabled) return beginPendingLogin(ctx, row.id);
  // A new session on every login: an id set before sign-in is never promoted (no fixation).
  if (ctx.sessionId) await endSession(ctx, ctx.cookies, ctx.sessionId);
  await startSession(ctx, ctx.cookies, row.id, { ip: ctx.ip, userAgent: ctx.userAgent });
  afterSignIn(ctx, row);
  return toUser(row);
}

export async function register(ctx: SessionDeps, input: RegisterInput): Promise<RegisterResult> {
  const settings = await getInstanceSettings(ctx);
  if (!settings.registrationOpen) throw appError('FORBIDDEN', messages.registrationClosed);
  if (await findUserByUsername(ctx.db, input.username)) {
    throw appError('CONFLICT', messages.usernameTaken);
  }
  const owner = await findUserByEmail(ctx.db, input.email);
  if (owner) {
    // With verification on, the answer must not tell anyone whether an address has an account: it is
    // the one a new registration gets, and the address's owner is told instead.
    if (!settings.requireEmailVerification) throw appError('CONFLICT', messages.emailTaken);
    await limitRegistrations(ctx);
    await hashPassword(input.password); // the same work as a real registration: no timing tell
    await tellOwnerOfRegistrationAttempt(ctx, owner);
    return { requiresVerification: true, message: messages.checkInbox };
  }
  await limitRegistrations(ctx);
  const now = ctx.clock.now();
  let row;
  try {
    row = await insertUser(ctx.db, {
      username: input.username,
      password: await hashPassword(input.password),
      name: input.name,
      email: input.email,
      created_at: now.toISOString(),
    });
  } catch (error) {
    // Two registrations racing for the same name: the unique index decides.
    if (isUniqueViolation(error)) throw appError('CONFLICT', messages.usernameOrEmailTaken);
    throw error;
  }
  if (settings.requireEmailVerification) {
    await sendVerificationMail(ctx, { ...row, email: input.email });
    return { requiresVerification: true, message: messages.checkInbox };
  }
  // Signed in at once, with the link mailed before the answer (so it is there when the user looks). A mail
  // server that fails does not fail the sign-up: Profile shows the address unverified, with a button to
  // send the link again.
  await sendVerificationMail(ctx, { ...row, email: input.email }).catch((error: unknown) =>
    ctx.log.error({ err: error }, 'verification mail failed'),
  );
  if (ctx.sessionId) await endSession(ctx, ctx.cookies, ctx.sessionId);
  await startSession(ctx, ctx.cookies, row.id, { ip: ctx.ip, userAgent: ctx.userAgent });
  return { requiresVerification: false, user: toUser(row) };
}

export async function logout(ctx: SessionDeps): Promise<{ message: string }> {
  await endSession(ctx, ctx.cookies, ctx.sessionId);
  return { message: 'You have been logged out successfully.' };
}

export async function getPublicConfig(deps: AppDeps): Promise<PublicConfig> {
  const demo = deps.config.seedDemo ? await findUserByUsername(deps.db, DEMO_USERNAME) : undefined;
  const settings = await getInstanceSettings(deps);
  return {
    demoAccount: demo ? { username: DEMO_USERNAME, password: DEMO_PASSWORD } : null,
    freePlanLimit: settings.freePlanLimit,
    requireEmailVerification: settings.requireEmailVerification,
    registrationOpen: settings.registrationOpen,
    payments: deps.config.stripe ? 'stripe' : 'request',
  };
}

/** "Someone tried to register with your address": at most one such mail an hour per account. */
async function tellOwnerOfRegistrationAttempt(ctx: SessionDeps, owner: UserRow): Promise<void> {
  if (!owner.email) return;
  const now = ctx.clock.now();
  const key = `register-attempt:${owner.id}:${now.toISOString().slice(0, 13)}`;
  if (!(await claimNotification(ctx.db, key, owner.id, now.toISOString()))) return;
  sendInBackground(
    ctx,
    composeMail(
      {
        to: owner.email,
        subject: 'Someone tried to register with your address',
        greeting: greetingFor(owner),
        paragraphs: [
          'Someone just tried to create a QR Creator account with this e-mail address, which already belongs to your account. No account was created.',
          'If it was you, log in instead, or reset your password if you forgot it. If not, you can ignore this message.',
        ],
        action: { label: 'Log in', url: `${ctx.config.publicUrl}/auth` },
      },
      ctx.config.publicUrl,
    ),
  );
}
