import type { Db } from '../../db/database.js';

// Company accounts linked to people (user_identities), the link requests waiting for a local password
// (sso_link_requests), and the sessions a provider checks again (sessions.sso_*).

export function findIdentity(db: Db, provider: string, subject: string) {
  return db
    .selectFrom('user_identities')
    .selectAll()
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export async function insertIdentity(
  db: Db,
  values: { provider: string; subject: string; userId: number; email: string | null; now: string },
): Promise<void> {
  await db
    .insertInto('user_identities')
    .values({
      provider: values.provider,
      subject: values.subject,
      user_id: values.userId,
      email: values.email,
      created_at: values.now,
      last_sign_in_at: values.now,
    })
    .execute();
}

/** Links a company account to a person, unless it is linked already (the same person twice). */
export async function linkIdentityOnce(
  db: Db,
  values: { provider: string; subject: string; userId: number; now: string },
): Promise<void> {
  await db
    .insertInto('user_identities')
    .values({
      provider: values.provider,
      subject: values.subject,
      user_id: values.userId,
      email: null,
      created_at: values.now,
      last_sign_in_at: values.now,
    })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
    .execute();
}

export async function touchIdentity(
  db: Db,
  provider: string,
  subject: string,
  email: string | null,
  now: string,
): Promise<void> {
  await db
    .updateTable('user_identities')
    .set({ last_sign_in_at: now, email })
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .execute();
}

/** Each person's providers ('oidc:keycloak', 'ldap', 'proxy'), for the admin's users list. */
export async function providersOf(db: Db, userIds: number[]): Promise<Map<number, string[]>> {
  const byUser = new Map<number, string[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .selectFrom('user_identities')
    .select(['user_id', 'provider'])
    .where('user_id', 'in', userIds)
    .orderBy('created_at')
    .execute();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.provider]);
  return byUser;
}

export async function insertLinkRequest(
  db: Db,
  values: {
    id: string;
    userId: number;
    provider: string;
    subject: string;
    profile: string;
    expiresAt: string;
  },
): Promise<void> {
  await db
    .insertInto('sso_link_requests')
    .values({
      id: values.id,
      user_id: values.userId,
      provider: values.provider,
      subject: values.subject,
      profile: values.profile,
      expires_at: values.expiresAt,
    })
    .execute();
}

export function findLinkRequest(db: Db, id: string, now: string) {
  return db
    .selectFrom('sso_link_requests')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function countLinkAttempt(db: Db, id: string): Promise<void> {
  await db
    .updateTable('sso_link_requests')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Removes a finished link request and every expired one. */
export async function deleteLinkRequest(db: Db, id: string, now: string): Promise<void> {
  await db
    .deleteFrom('sso_link_requests')
    .where((eb) => eb.or([eb('id', '=', id), eb('expires_at', '<=', now)]))
    .execute();
}

/** The company-account sessions due for a check: one row per session. */
export function listSessionsToRecheck(db: Db, checkedBefore: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'sso_provider', 'sso_subject', 'sso_refresh_token', 'sso_id_token'])
    .where('sso_provider', 'is not', null)
    .where((eb) => eb.or([eb('sso_checked_at', 'is', null), eb('sso_checked_at', '<', checkedBefore)]))
    .orderBy('sso_checked_at')
    .limit(500)
    .execute();
}

export async function markSessionsChecked(
  db: Db,
  ids: string[],
  now: string,
  tokens?: { refreshToken: string | null; idToken: string | null },
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('sessions')
    .set(
      tokens
        ? { sso_checked_at: now, sso_refresh_token: tokens.refreshToken, sso_id_token: tokens.idToken }
        : { sso_checked_at: now },
    )
    .where('id', 'in', ids)
    .execute();
}

/** Ends the sessions a provider signed in for this person (the directory removed or disabled them). */
export async function deleteProviderSessions(db: Db, provider: string, subject: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('sso_provider', '=', provider)
    .where('sso_subject', '=', subject)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends the sessions of one OIDC session (`sid`), or of the person when the logout names no sid. */
export async function deleteOidcSessions(
  db: Db,
  provider: string,
  by: { sid?: string | null; subject?: string | null },
): Promise<number> {
  let query = db.deleteFrom('sessions').where('sso_provider', '=', provider);
  if (by.sid) query = query.where('sso_sid', '=', by.sid);
  if (by.subject) query = query.where('sso_subject', '=', by.subject);
  if (!by.sid && !by.subject) return 0;
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The ID token of a session (the hint of RP-initiated logout) and its provider. */
export function findSessionSso(db: Db, sessionId: string) {
  return db
    .selectFrom('sessions')
    .select(['sso_provider', 'sso_id_token'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
}

// Group mapping: memberships granted by groups ('sso'), and team workspaces found by name.

export function listMemberships(db: Db, userId: number) {
  return db
    .selectFrom('workspace_members')
    .select(['workspace_id', 'role', 'source'])
    .where('user_id', '=', userId)
    .execute();
}

/** A team workspace by its id, or by its name (case-insensitive; the oldest of that name). */
export function findTeamNamed(db: Db, workspace: string | number) {
  return db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('kind', '=', 'team')
    .where((eb) =>
      typeof workspace === 'number'
        ? eb('id', '=', workspace)
        : eb(eb.fn('lower', ['name']), '=', workspace.toLowerCase()),
    )
    .orderBy('id')
    .executeTakeFirst();
}

export async function setAdminFlag(db: Db, userId: number, isAdmin: boolean): Promise<void> {
  await db.updateTable('users').set({ is_admin: isAdmin }).where('id', '=', userId).execute();
}

/** Removes a person just made at a first sign-in that another instance won (nothing of theirs exists yet). */
export async function deleteFreshPerson(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).where('password', '=', '!sso').execute();
}
