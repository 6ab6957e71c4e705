import type { Db, UserRow } from '../../db/database.js';

/** Sessions are stored under the SHA-256 of their cookie token (see tokens.ts), never the token. */
export interface NewSession {
  id: string;
  userId: number;
  /** ISO 8601: start, and when the absolute lifetime ends. */
  createdAt: string;
  expiresAt: string;
  ip: string;
  userAgent: string | null;
  /** Signed in through a company account: checked again with its provider (server/features/sso). */
  sso?: SsoSession;
}

/** How a session signed in through a company account; what its provider needs to check it again. */
export interface SsoSession {
  /** 'oidc:<id>', 'ldap' or 'proxy'. */
  provider: string;
  subject: string;
  sid?: string | null;
  refreshToken?: string | null;
  idToken?: string | null;
  /** A pending two-factor step that, once passed, links this company account to the person (sso-sign-in.ts). */
  linkIdentity?: boolean;
}

export async function insertSession(db: Db, session: NewSession): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      created_at: session.createdAt,
      last_seen_at: session.createdAt,
      expires_at: session.expiresAt,
      ip_address: session.ip,
      user_agent: session.userAgent,
      sso_provider: session.sso?.provider ?? null,
      sso_subject: session.sso?.subject ?? null,
      sso_sid: session.sso?.sid ?? null,
      sso_refresh_token: session.sso?.refreshToken ?? null,
      sso_id_token: session.sso?.idToken ?? null,
      sso_checked_at: session.sso ? session.createdAt : null,
    })
    .execute();
}

/** The session's user row, with when the session was last seen and when it expires; or undefined. */
export function findSessionWithUser(
  db: Db,
  id: string,
): Promise<
  | (UserRow & {
      last_seen_at: Date | string;
      expires_at: Date | string;
      sso_provider: string | null;
      sso_subject: string | null;
    })
  | undefined
> {
  // A team workspace's row never signs in, so no session of one is ever a signed-in user.
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.last_seen_at', 'sessions.expires_at', 'sessions.sso_provider', 'sessions.sso_subject'])
    .where('sessions.id', '=', id)
    .where('users.kind', '=', 'person')
    .executeTakeFirst();
}

export async function touchSession(db: Db, id: string, seenAt: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: seenAt }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Ends every session of the user; answers how many there were. */
export async function deleteSessionsOfUser(db: Db, userId: number): Promise<number> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
