import type { User } from '../../../src/auth/auth.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import { toUser } from '../users/users.mapper.js';
import { hashToken, newToken } from './tokens.js';

export interface CookieOptions {
  httpOnly: boolean;
  sameSite: 'lax';
  path: '/';
  secure: boolean;
  maxAge?: number;
}

/** The slice of the HTTP layer that sessions need; the tRPC context provides it. */
export interface SessionCookies {
  read(name: string): string | undefined;
  set(name: string, value: string, options: CookieOptions): void;
  clear(name: string, options: CookieOptions): void;
}

/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-qr_session' : 'qr_session';
}

function cookieOptions(publicUrl: string): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: publicUrl.startsWith('https:') };
}

export async function startSession(
  deps: AppDeps,
  cookies: SessionCookies,
  userId: number,
  client: { ip: string; userAgent: string | null },
): Promise<void> {
  const token = newToken();
  const now = deps.clock.now();
  await deps.db
    .insertInto('sessions')
    .values({
      id: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + deps.config.sessionMaxMs).toISOString(),
      ip_address: client.ip,
      user_agent: client.userAgent?.slice(0, 512) ?? null,
    })
    .execute();
  cookies.set(sessionCookieName(deps.config.publicUrl), token, {
    ...cookieOptions(deps.config.publicUrl),
    maxAge: Math.floor(deps.config.sessionMaxMs / 1000),
  });
}

/** The session named by the cookie, if it exists and neither its idle nor absolute lifetime passed. */
export async function readSession(
  deps: AppDeps,
  cookies: SessionCookies,
): Promise<{ id: string; user: User } | null> {
  const token = cookies.read(sessionCookieName(deps.config.publicUrl));
  if (!token || token.length > 100) return null;
  const id = hashToken(token);
  const row = await deps.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.last_seen_at', 'sessions.expires_at'])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const now = deps.clock.now().getTime();
  const lastSeen = new Date(toIso(row.last_seen_at)).getTime();
  if (new Date(toIso(row.expires_at)).getTime() <= now || lastSeen + deps.config.sessionIdleMs <= now) {
    await deps.db.deleteFrom('sessions').where('id', '=', id).execute();
    return null;
  }
  if (now - lastSeen > TOUCH_INTERVAL_MS) {
    await deps.db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(now).toISOString() })
      .where('id', '=', id)
      .execute();
  }
  return { id, user: toUser(row) };
}

export async function endSession(
  deps: AppDeps,
  cookies: SessionCookies,
  sessionId: string | null,
): Promise<void> {
  if (sessionId) await deps.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  cookies.clear(sessionCookieName(deps.config.publicUrl), cookieOptions(deps.config.publicUrl));
}

/** Ends every session of a user (password change or reset, deletion, admin reset). */
export async function endAllSessionsOf(deps: Pick<AppDeps, 'db'>, userId: number): Promise<void> {
  await deps.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}
