import { randomBytes } from 'node:crypto';
import type { User } from '../../../src/auth/auth.schema.js';
import { roleAtLeast, type WorkspaceRole } from '../../../src/workspaces/workspace.schema.js';
import type { AppDeps, SessionDeps } from '../../app-deps.js';
import { recordAudit } from '../../audit.js';
import type { UserRow } from '../../db/database.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import { appError, refuse } from '../../errors.js';
import { afterSignIn } from './login-alerts.js';
import { verifyPassword } from './passwords.js';
import { cookieOptions, endSession, startSession } from './sessions.js';
import type { SsoSession } from './sessions.repository.js';
import { hashToken, newToken } from './tokens.js';
import { beginPendingLogin } from './two-factor.service.js';
import { findUserByEmail, findUserById, findUserByUsername, insertUser } from '../users/users.repository.js';
import { toUser } from '../users/users.mapper.js';
import {
  deleteMember,
  insertMember,
  insertTeam,
  setMemberRole,
} from '../workspaces/workspaces.repository.js';
import {
  countLinkAttempt,
  deleteFreshPerson,
  deleteLinkRequest,
  findIdentity,
  findLinkRequest,
  findTeamNamed,
  insertIdentity,
  insertLinkRequest,
  linkIdentityOnce,
  listMemberships,
  setAdminFlag,
  touchIdentity,
} from './sso-identities.repository.js';
import { providerName, type SsoConfig } from './sso.config.js';

// One way in for every company account (OIDC, LDAP, the trusted proxy): the provider's module proves who
// the person is and hands over an ExternalProfile; this finds or makes the local person, applies the
// groups, and starts a session that remembers its provider (so that it can be checked again).

/** Who a provider says the person is. */
export interface ExternalProfile {
  /** 'oidc:<id>', 'ldap' or 'proxy'. */
  provider: string;
  /** The provider's stable id of the person (OIDC `sub`, the LDAP entry's DN, the proxy's user name). */
  subject: string;
  /** The username wished for a new account (made unique and valid here). */
  username: string;
  email: string | null;
  /** Whether the provider vouches for the address (OIDC `email_verified`, a company directory). */
  emailVerified: boolean;
  name: string | null;
  /** Group names or DNs, as the provider gives them; matched by sso.groups. */
  groups: string[];
}

export type ExternalSignIn =
  | { status: 'signed-in'; user: User; sessionId?: string }
  | { status: 'two-factor'; message: string }
  /** The address belongs to a local account: the person proves its password once (`linkCookie` set). */
  | { status: 'link-required'; email: string; message: string };

/** A person made at first sign-in has no local password: this never verifies. */
export const NO_LOCAL_PASSWORD = '!sso';
export const LINK_COOKIE = 'qr_sso_link';
const LINK_TTL_MS = 10 * 60_000;
const LINK_ATTEMPTS = 5;

export const ssoMessages = {
  notConfigured: 'Sign-in with a company account is not set up on this server.',
  unverifiedEmail:
    'Your company account’s e-mail address is not verified, so it cannot be linked to the existing account with that address. Ask an administrator.',
  linkRequired:
    'An account with your e-mail address already exists. Enter its password once to link it to your company account.',
  linkOtherProvider:
    'An account with your e-mail address already exists and signs in another way. Ask an administrator to link it.',
  noLinkPending: 'This link request has expired. Sign in with your company account again.',
  wrongPassword: 'Wrong password for the existing account.',
  tooManyAttempts: 'Too many wrong passwords. Sign in with your company account again.',
  passwordsOff: 'Sign-in with a password is turned off on this server. Use your company account.',
  linked: 'Your company account is now linked to your existing account.',
  directoryDown: 'The company directory is not answering. Try again in a minute.',
} as const;

/** Whether one of the person's groups is `wanted`: case-insensitive; a DN also by its first value, a
 * path (Keycloak's `/marketing`) also without its slash. */
export function inGroup(groups: readonly string[], wanted: string): boolean {
  const norm = (g: string) => g.trim().toLowerCase().replace(/^\/+/, '');
  const target = norm(wanted);
  return groups.some((g) => {
    const n = norm(g);
    if (n === target) return true;
    const rdn = /^[a-z]+=([^,]+),/.exec(n);
    return rdn !== null && rdn[1]!.trim() === target;
  });
}

function ssoOf(deps: AppDeps): SsoConfig {
  const sso = deps.config.sso;
  if (!sso) throw appError('NOT_FOUND', ssoMessages.notConfigured);
  return sso;
}

/**
 * Applies the group mapping to a person: instance admin (when admin groups are configured) and the
 * workspace roles their groups grant. A membership made by the mapping is taken away when the group is
 * gone; one given by hand (an invitation) is left as it is. Runs at every sign-in and every re-check.
 */
export async function applyGroups(deps: AppDeps, user: UserRow, groups: readonly string[]): Promise<void> {
  const sso = ssoOf(deps);
  const now = deps.clock.now();
  if (sso.groups.admin.length > 0 && user.username !== sso.breakGlassAdmin) {
    const admin = sso.groups.admin.some((g) => inGroup(groups, g));
    if (admin !== Boolean(user.is_admin)) {
      await setAdminFlag(deps.db, user.id, admin);
      await recordAudit(deps.db, { id: null, username: 'directory' }, now, {
        action: admin ? 'user.admin-granted' : 'user.admin-revoked',
        targetType: 'user',
        targetId: user.id,
        targetLabel: user.username,
        before: { isAdmin: Boolean(user.is_admin) },
        after: { isAdmin: admin },
      });
    }
  }

  // The highest role each workspace's groups grant.
  const wanted = new Map<number, WorkspaceRole>();
  for (const grant of sso.groups.workspaces) {
    if (!inGroup(groups, grant.group)) continue;
    const team =
      (await findTeamNamed(deps.db, grant.workspace)) ??
      (typeof grant.workspace === 'string'
        ? await insertTeam(
            deps.db,
            grant.workspace,
            `team~${randomBytes(9).toString('base64url')}`,
            now.toISOString(),
          )
        : undefined);
    // A team named by id that no longer exists grants nothing.
    if (!team) continue;
    const role = grant.role;
    const before = wanted.get(team.id);
    if (!before || roleAtLeast(role, before)) wanted.set(team.id, role);
  }
  const current = await listMemberships(deps.db, user.id);
  for (const membership of current) {
    if (membership.source !== 'sso') continue;
    const role = wanted.get(membership.workspace_id);
    if (!role) await deleteMember(deps.db, membership.workspace_id, user.id);
    else if (role !== membership.role) await setMemberRole(deps.db, membership.workspace_id, user.id, role);
  }
  for (const [workspaceId, role] of wanted) {
    if (current.some((m) => m.workspace_id === workspaceId)) continue;
    await insertMember(deps.db, workspaceId, user.id, role, now.toISOString(), 'sso');
  }
}

/** A valid, free username from what the provider suggests: `ada`, else `ada-2`, `ada-3`… */
async function freeUsername(deps: AppDeps, wished: string): Promise<string> {
  const base =
    wished
      .trim()
      // eslint-disable-next-line no-control-regex
      .replace(/[\s\u0000-\u001f\u007f]+/g, '.')
      .slice(0, 40) || 'user';
  const padded = base.length >= 3 ? base : `${base}-sso`;
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? padded : `${padded}-${n}`;
    if (!(await findUserByUsername(deps.db, candidate))) return candidate;
  }
  return `${padded}-${randomBytes(4).toString('hex')}`;
}

/** A person made at first sign-in: no local password, the provider's name and (if free) address. */
async function createPerson(deps: AppDeps, profile: ExternalProfile): Promise<UserRow> {
  const email = profile.email && !(await findUserByEmail(deps.db, profile.email)) ? profile.email : null;
  for (let attempt = 0; ; attempt++) {
    try {
      return await insertUser(deps.db, {
        username: await freeUsername(deps, profile.username),
        password: NO_LOCAL_PASSWORD,
        name: profile.name,
        email,
        email_verified: email !== null && profile.emailVerified,
        created_at: deps.clock.now().toISOString(),
      });
    } catch (error) {
      // Two first sign-ins racing for one name: the unique index decides, the loser takes the next.
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** Starts the session (or the two-factor step) of a person a provider vouched for. */
async function finishSignIn(
  ctx: SessionDeps,
  row: UserRow,
  profile: ExternalProfile,
  session: Omit<SsoSession, 'provider' | 'subject'>,
): Promise<ExternalSignIn> {
  const sso = ssoOf(ctx);
  const now = ctx.clock.now().toISOString();
  await touchIdentity(ctx.db, profile.provider, profile.subject, profile.email, now);
  await applyGroups(ctx, row, profile.groups);
  const fresh = (await findUserById(ctx.db, row.id)) ?? row;
  const ssoSession: SsoSession = { provider: profile.provider, subject: profile.subject, ...session };
  // Not behind the proxy: it names the person on every request and asks its own factors (Authelia, Authentik).
  if (sso.twoFactor && fresh.totp_enabled && profile.provider !== 'proxy') {
    const pending = await beginPendingLogin(ctx, fresh.id, ssoSession);
    return { status: 'two-factor', message: pending.message };
  }
  // A new session on every sign-in: an id set before is never promoted (no fixation).
  if (ctx.sessionId) await endSession(ctx, ctx.cookies, ctx.sessionId);
  const sessionId = await startSession(
    ctx,
    ctx.cookies,
    fresh.id,
    { ip: ctx.ip, userAgent: ctx.userAgent },
    ssoSession,
  );
  await afterSignIn(ctx, fresh);
  return { status: 'signed-in', user: toUser(fresh), sessionId };
}

/**
 * Signs in the person a provider vouched for: their linked account, or a new one (just in time), or — when
 * the address is an existing local account's — a link request the person proves with that account's
 * password (only when the provider says the address is verified).
 */
export function signInExternal(
  ctx: SessionDeps,
  profile: ExternalProfile,
  session: Omit<SsoSession, 'provider' | 'subject'> = {},
): Promise<ExternalSignIn> {
  ssoOf(ctx);
  // One at a time per company account in this process: a page's first requests through the proxy (or a
  // double-clicked callback) must not each make the person.
  const key = `${profile.provider}\n${profile.subject}`;
  const before = inFlight.get(key) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => signInOnce(ctx, profile, session));
  inFlight.set(key, run);
  void run
    .catch(() => undefined)
    .finally(() => {
      if (inFlight.get(key) === run) inFlight.delete(key);
    });
  return run;
}

const inFlight = new Map<string, Promise<unknown>>();

async function signInOnce(
  ctx: SessionDeps,
  profile: ExternalProfile,
  session: Omit<SsoSession, 'provider' | 'subject'>,
): Promise<ExternalSignIn> {
  const identity = await findIdentity(ctx.db, profile.provider, profile.subject);
  const linked = identity ? await findUserById(ctx.db, identity.user_id) : undefined;
  if (linked) return finishSignIn(ctx, linked, profile, session);

  const existing = profile.email ? await findUserByEmail(ctx.db, profile.email) : undefined;
  if (existing) {
    if (!profile.emailVerified) throw appError('FORBIDDEN', ssoMessages.unverifiedEmail);
    if (existing.password === NO_LOCAL_PASSWORD) throw appError('CONFLICT', ssoMessages.linkOtherProvider);
    const token = newToken();
    const now = ctx.clock.now();
    await insertLinkRequest(ctx.db, {
      id: hashToken(token),
      userId: existing.id,
      provider: profile.provider,
      subject: profile.subject,
      profile: JSON.stringify({ profile, session }),
      expiresAt: new Date(now.getTime() + LINK_TTL_MS).toISOString(),
    });
    ctx.cookies.set(LINK_COOKIE, token, {
      ...cookieOptions(ctx.config.publicUrl),
      maxAge: LINK_TTL_MS / 1000,
    });
    return { status: 'link-required', email: profile.email!, message: ssoMessages.linkRequired };
  }

  const row = await createPerson(ctx, profile);
  try {
    await insertIdentity(ctx.db, {
      provider: profile.provider,
      subject: profile.subject,
      userId: row.id,
      email: profile.email,
      now: ctx.clock.now().toISOString(),
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another instance made this person at the same moment (the lock above is per process): theirs stands.
    await deleteFreshPerson(ctx.db, row.id);
    return signInOnce(ctx, profile, session);
  }
  return finishSignIn(ctx, row, profile, session);
}

/** The pending link request of this browser (whose address, which company account), or null. */
export async function pendingLink(
  ctx: SessionDeps,
): Promise<{ email: string; username: string; provider: string } | null> {
  const token = ctx.cookies.read(LINK_COOKIE);
  const now = ctx.clock.now().toISOString();
  const request =
    token && token.length <= 100 ? await findLinkRequest(ctx.db, hashToken(token), now) : undefined;
  const row = request ? await findUserById(ctx.db, request.user_id) : undefined;
  if (!request || !row) return null;
  return {
    email: row.email ?? '',
    username: row.username,
    provider: providerName(ctx.config.sso, request.provider),
  };
}

async function linkRequestOf(ctx: SessionDeps) {
  const token = ctx.cookies.read(LINK_COOKIE);
  const now = ctx.clock.now().toISOString();
  const request =
    token && token.length <= 100 ? await findLinkRequest(ctx.db, hashToken(token), now) : undefined;
  if (!request) throw appError('NOT_FOUND', ssoMessages.noLinkPending);
  return request;
}

/** Proves the local password once: links the company account to the local one and signs in. */
export async function completeLink(ctx: SessionDeps, password: string): Promise<ExternalSignIn> {
  const request = await linkRequestOf(ctx);
  const now = ctx.clock.now().toISOString();
  const row = await findUserById(ctx.db, request.user_id);
  if (!row || request.attempts >= LINK_ATTEMPTS) {
    await deleteLinkRequest(ctx.db, request.id, now);
    ctx.cookies.clear(LINK_COOKIE, cookieOptions(ctx.config.publicUrl));
    throw refuse('INVALID_CREDENTIALS', row ? ssoMessages.tooManyAttempts : ssoMessages.noLinkPending);
  }
  if (!(await verifyPassword(row.password, password))) {
    await countLinkAttempt(ctx.db, request.id);
    throw refuse('INVALID_CREDENTIALS', ssoMessages.wrongPassword);
  }
  await deleteLinkRequest(ctx.db, request.id, now);
  ctx.cookies.clear(LINK_COOKIE, cookieOptions(ctx.config.publicUrl));
  const { profile, session } = JSON.parse(request.profile) as {
    profile: ExternalProfile;
    session: Omit<SsoSession, 'provider' | 'subject'>;
  };
  // An account with two-factor on links only once its code is given too: the company account would
  // otherwise become a way in without it.
  if (row.totp_enabled) {
    const pending = await beginPendingLogin(ctx, row.id, {
      provider: profile.provider,
      subject: profile.subject,
      ...session,
      linkIdentity: true,
    });
    return { status: 'two-factor', message: pending.message };
  }
  await linkIdentityOnce(ctx.db, {
    provider: request.provider,
    subject: request.subject,
    userId: row.id,
    now,
  });
  return finishSignIn(ctx, row, profile, session);
}

/** Whether a password sign-in is allowed for this username (SSO-only mode keeps the break-glass admin). */
export function passwordSignInAllowed(deps: AppDeps, username: string): boolean {
  const sso = deps.config.sso;
  return !sso?.ssoOnly || username === sso.breakGlassAdmin;
}
