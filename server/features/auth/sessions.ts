import type { User } from '../../../src/auth/auth.schema.js';
import type { AppDeps, CookieOptions, SessionCookies } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import { storedAddress } from '../scans/client-address.js';
import { toUser } from '../users/users.mapper.js';
import {
  deleteSession,
  deleteSessionsOfUser,
  findSessionWithUser,
  insertSession,
  touchSession,
  type SsoSession,
} from './sessions.repository.js';
import { hashToken, newToken } from './tokens.js';

/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-qr_session' : 'qr_session';
}

export function cookieOptions(publicUrl: string): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: publicUrl.startsWith('https:') };
}

export async function startSession(
  deps: AppDeps,
  cookies: SessionCookies,
  userId: number,
  client: { ip: string; userAgent: string | null },
  sso?: SsoSession,
): Promise<string> {
  const token = newToken();
  const id = hashToken(token);
  const now = deps.clock.now();
  await insertSession(deps.db, {
    id,
    userId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + deps.config.sessionMaxMs).toISOString(),
    // ANONYMIZE_IPS: masked like every stored address.
    ip: storedAddress(deps.config, client.ip),
    userAgent: client.userAgent?.slice(0, 512) ?? null,
    sso,
  });
  cookies.set(sessionCookieName(deps.config.publicUrl), token, {
    ...cookieOptions(deps.config.publicUrl),
    maxAge: Math.floor(deps.config.sessionMaxMs / 1000),
  });
  return id;
}

/** The session named by the cookie, if it exists and neither its idle nor absolute lifetime passed. */
export async function readSession(
  deps: AppDeps,
  cookies: SessionCookies,
): Promise<{
  id: string;
  user: User;
  currentWorkspaceId: number | null;
  /** Set when signed in through a company account: its provider and the provider's id of the person. */
  sso: { provider: string; subject: string } | null;
} | null> {
  const token = cookies.read(sessionCookieName(deps.config.publicUrl));
  if (!token || token.length > 100) return null;
  const id = hashToken(token);
  const row = await findSessionWithUser(deps.db, id);
  if (!row) return null;
  const now = deps.clock.now().getTime();
  const lastSeen = new Date(toIso(row.last_seen_at)).getTime();
  if (new Date(toIso(row.expires_at)).getTime() <= now || lastSeen + deps.config.sessionIdleMs <= now) {
    await deleteSession(deps.db, id);
    return null;
  }
  if (now - lastSeen > TOUCH_INTERVAL_MS) {
    await touchSession(deps.db, id, new Date(now).toISOString());
  }
  return {
    id,
    user: toUser(row),
    currentWorkspaceId: row.current_workspace_id,
    sso: row.sso_provider ? { provider: row.sso_provider, subject: row.sso_subject ?? '' } : null,
  };
}

export async function endSession(
  deps: AppDeps,
  cookies: SessionCookies,
  sessionId: string | null,
): Promise<void> {
  if (sessionId) await deleteSession(deps.db, sessionId);
  cookies.clear(sessionCookieName(deps.config.publicUrl), cookieOptions(deps.config.publicUrl));
}

/** Ends every session of a user (password change or reset, deletion, admin reset). */
export async function endAllSessionsOf(deps: AppDeps, userId: number): Promise<void> {
  await deleteSessionsOfUser(deps.db, userId);
}
