import type {
  LinkRequired,
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
import { negotiateLocale } from '../../../src/i18n/locales.js';
import { composeMailFor, mailLocaleOf } from '../mail/layout.js';
import { mailMessages } from '../mail/messages/index.js';
import { sendInBackground } from '../mail/mailer.js';
import { claimNotification } from '../notifications/notifications.repository.js';
import { getInstanceSettings } from '../settings/instance-settings.js';
import { appError, refuse } from '../../errors.js';
import { findUserByEmail, findUserByUsername, insertUser } from '../users/users.repository.js';
import { toUser } from '../users/users.mapper.js';
import { beginLoginAttempt, limitRegistrations } from './login-throttle.js';
import { isTrustedDevice, trustThisDevice } from './trusted-device.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { endSession, startSession } from './sessions.js';
import { afterSignIn } from './login-alerts.js';
import { beginPendingLogin } from './two-factor.service.js';
import { sendVerificationMail } from './recovery.service.js';
import { LdapUnavailableError, ldapSignIn } from './ldap.js';
import type { LdapConfig } from './sso.config.js';
import { providerLogoutUrl } from './sso-recheck.js';
import { passwordSignInAllowed, signInExternal, ssoMessages } from './sso-sign-in.js';

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

export async function login(
  ctx: SessionDeps,
  input: LoginInput,
): Promise<User | TwoFactorRequired | LinkRequired> {
  const row = await findUserByUsername(ctx.db, input.username);
  const ldap = ctx.config.sso?.ldap;
  const localAllowed = passwordSignInAllowed(ctx, input.username);
  // SSO-only without a directory behind the form: only the break-glass admin has a password here.
  if (!localAllowed && !ldap) throw appError('FORBIDDEN', ssoMessages.passwordsOff);
  const trustedDevice = row ? await isTrustedDevice(ctx, row.id) : false;
  const attempt = await beginLoginAttempt(
    ctx,
    { username: input.username, user: row },
    { trustedDevice, during: 'sign-in' },
  );
  const ok = localAllowed && (await verifyPassword(row?.password, input.password));
  if (!row || !ok) {
    // The login form also takes the company directory's names and passwords (LDAP / Active Directory).
    const profile = ldap ? await ldapProfile(ctx, ldap, input) : null;
    if (!profile) {
      await attempt.failed();
      throw refuse('INVALID_CREDENTIALS', messages.invalidCredentials);
    }
    await attempt.succeeded();
    const result = await signInExternal(ctx, profile);
    if (result.status === 'signed-in') return result.user;
    if (result.status === 'two-factor') return { requiresTwoFactor: true, message: result.message };
    return { linkRequired: true, message: result.message };
  }
  await attempt.succeeded();
  await trustThisDevice(ctx, row.id);
  const settings = await getInstanceSettings(ctx);
  if (settings.requireEmailVerification && !row.email_verified && !row.is_admin) {
    throw refuse('EMAIL_NOT_VERIFIED', messages.verifyFirst, { requiresVerification: true });
  }
  if (row.totp_enabled) return beginPendingLogin(ctx, row.id);
  // A new session on every login: an id set before sign-in is never promoted (no fixation).
  if (ctx.sessionId) await endSession(ctx, ctx.cookies, ctx.sessionId);
  await startSession(ctx, ctx.cookies, row.id, { ip: ctx.ip, userAgent: ctx.userAgent });
  await afterSignIn(ctx, row);
  return toUser(row);
}

export async function register(ctx: SessionDeps, input: RegisterInput): Promise<RegisterResult> {
  const settings = await getInstanceSettings(ctx);
  if (!settings.registrationOpen) throw refuse('REGISTRATION_CLOSED', messages.registrationClosed);
  // SSO-only: accounts come from the company's sign-in, never from the Register tab.
  if (ctx.config.sso?.ssoOnly) throw appError('FORBIDDEN', ssoMessages.passwordsOff);
  if (await findUserByUsername(ctx.db, input.username)) {
    throw refuse('USERNAME_TAKEN', messages.usernameTaken);
  }
  const owner = await findUserByEmail(ctx.db, input.email);
  if (owner) {
    // With verification on, the answer must not tell anyone whether an address has an account: it is
    // the one a new registration gets, and the address's owner is told instead.
    if (!settings.requireEmailVerification) throw refuse('EMAIL_TAKEN', messages.emailTaken);
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
      // The language the browser asks for: the verification link's mail is the first in it.
      browser_language: negotiateLocale(ctx.acceptLanguage),
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

/** The directory's answer for a name and password; a directory that does not answer is a 503. */
async function ldapProfile(ctx: SessionDeps, ldap: LdapConfig, input: LoginInput) {
  try {
    return await ldapSignIn(ldap, input.username, input.password, ctx.log);
  } catch (error) {
    if (!(error instanceof LdapUnavailableError)) throw error;
    ctx.log.error({ err: error }, 'LDAP sign-in failed: the directory did not answer');
    throw appError('SERVICE_UNAVAILABLE', ssoMessages.directoryDown);
  }
}

export async function logout(ctx: SessionDeps): Promise<{ message: string; logoutUrl?: string }> {
  // A company sign-in may end at its provider too (OIDC RP-initiated logout, the proxy's logout page).
  const logoutUrl = ctx.sessionId ? await providerLogoutUrl(ctx, ctx.sessionId) : undefined;
  await endSession(ctx, ctx.cookies, ctx.sessionId);
  return { message: 'You have been logged out successfully.', ...(logoutUrl ? { logoutUrl } : {}) };
}

export async function getPublicConfig(deps: AppDeps): Promise<PublicConfig> {
  const demo = deps.config.seedDemo ? await findUserByUsername(deps.db, DEMO_USERNAME) : undefined;
  const settings = await getInstanceSettings(deps);
  return {
    demoAccount: demo ? { username: DEMO_USERNAME, password: DEMO_PASSWORD } : null,
    freePlanLimit: settings.freePlanLimit,
    requireEmailVerification: settings.requireEmailVerification,
    registrationOpen: settings.registrationOpen && !deps.config.sso?.ssoOnly,
    payments: deps.config.stripe ? 'stripe' : 'request',
    sso: {
      providers: deps.config.sso?.oidc.map((p) => ({ id: p.id, name: p.name })) ?? [],
      ldap: deps.config.sso?.ldap?.name ?? null,
      passwordSignIn: !deps.config.sso?.ssoOnly,
      proxy: Boolean(deps.config.sso?.proxy),
    },
  };
}

/** "Someone tried to register with your address": at most one such mail an hour per account. */
async function tellOwnerOfRegistrationAttempt(ctx: SessionDeps, owner: UserRow): Promise<void> {
  if (!owner.email) return;
  const now = ctx.clock.now();
  const key = `register-attempt:${owner.id}:${now.toISOString().slice(0, 13)}`;
  if (!(await claimNotification(ctx.db, key, owner.id, now.toISOString()))) return;
  const locale = mailLocaleOf(owner);
  sendInBackground(
    ctx,
    composeMailFor(
      { to: owner.email, locale, name: owner },
      mailMessages(locale).registrationAttempt(),
      `${ctx.config.publicUrl}/auth`,
      ctx.config.publicUrl,
    ),
  );
}
