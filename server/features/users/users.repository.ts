import { sql } from 'kysely';
import { dialectOf } from '../../db/create-db.js';
import type { Db, NewUserRow, UserRow, UserUpdate } from '../../db/database.js';

// A row of `users` is a person or a team workspace (kind 'team': migrations/2026-11-30T0900-workspaces.ts).
// A team row never acts as a person: every question here about people (sign-in, an address, the admin's
// users) asks for kind 'person'. findUserById answers either: the account that owns codes and a plan.

/** The account with this id: a person, or a team workspace. */
export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The account with this id when it is of this kind. */
export function findAccountById(db: Db, id: number, kind: 'person' | 'team'): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
}

/**
 * The person with this username. Usernames are unique regardless of case (see the lower(username)
 * index), a team's handle included: a team's handle is never found here, so it never signs in.
 */
export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .where('kind', '=', 'person')
    .executeTakeFirst();
}

/** The person with this address (a team has none; checked anyway). */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('kind', '=', 'person')
    .executeTakeFirst();
}

/** A user's row with their number of codes (the admin pages' users: people only). */
export type UserWithCount = UserRow & { qr_code_count: number | string };

export async function findUserWithCount(db: Db, id: number): Promise<UserWithCount | undefined> {
  const row = await db
    .selectFrom('users as u')
    .selectAll('u')
    .select((eb) =>
      eb
        .selectFrom('qr_codes as q')
        .select(eb.fn.countAll<number>().as('c'))
        .whereRef('q.user_id', '=', 'u.id')
        .as('qr_code_count'),
    )
    .where('u.id', '=', id)
    .where('u.kind', '=', 'person')
    .executeTakeFirst();
  return row as UserWithCount | undefined;
}

export async function insertUser(db: Db, user: NewUserRow): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

/** How many people (team workspaces are not people) and admins there are. */
export async function countUsers(db: Db): Promise<{ users: number; admins: number }> {
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number>().as('users'),
      eb.fn.sum<number>(eb.case().when('is_admin', '=', true).then(1).else(0).end()).as('admins'),
    ])
    .where('kind', '=', 'person')
    .executeTakeFirstOrThrow();
  return { users: Number(row.users), admins: Number(row.admins ?? 0) };
}

/**
 * Locks the user's row until the transaction ends, so that one user's writes that must not interleave
 * (creating codes under a plan's limit) run one after the other. PostgreSQL only: SQLite runs one
 * writing transaction at a time anyway (and has no row locks).
 */
export async function lockUserRow(trx: Db, id: number): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx.selectFrom('users').select('id').where('id', '=', id).forUpdate().execute();
}

export async function updateUserPassword(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password: passwordHash }).where('id', '=', id).execute();
}

/** Stores the hash of a new e-mail verification token (replacing any earlier one) and its expiry. */
export async function setVerificationToken(
  db: Db,
  id: number,
  tokenHash: string,
  expiresAt: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_verification_token: tokenHash, email_verification_expires: expiresAt })
    .where('id', '=', id)
    .execute();
}

/** The user holding this verification token hash: id and the token's expiry. */
export function findUserByVerificationToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email_verification_expires'])
    .where('email_verification_token', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks the e-mail address verified and spends the token. */
export async function markEmailVerified(db: Db, id: number): Promise<void> {
  await db
    .updateTable('users')
    .set({
      email_verified: true,
      email_change_pending: false,
      email_verification_token: null,
      email_verification_expires: null,
    })
    .where('id', '=', id)
    .execute();
}

/** Writes the given columns of one user (an admin's edit, a plan change). */
export async function updateUserColumns(db: Db, id: number, changes: UserUpdate): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** The e-mail addresses of the admins who have one. */
/** Keeps the language a person's browser asked for at sign-in (src/i18n/locales.ts). */
export async function setBrowserLanguage(db: Db, id: number, language: string): Promise<void> {
  await db.updateTable('users').set({ browser_language: language }).where('id', '=', id).execute();
}

/** The admins who have an address, with their language (their mails are written in it). */
export async function listAdminEmails(
  db: Db,
): Promise<{ email: string; language: string | null; browser_language: string | null }[]> {
  const rows = await db
    .selectFrom('users')
    .select(['email', 'language', 'browser_language'])
    .where('is_admin', '=', true)
    .where('kind', '=', 'person')
    .where('email', 'is not', null)
    .execute();
  return rows.flatMap((r) => (r.email ? [{ ...r, email: r.email }] : []));
}

export async function findUserIdByStripeSubscription(
  db: Db,
  subscriptionId: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('stripe_subscription_id', '=', subscriptionId)
    .executeTakeFirst();
  return row?.id;
}

/**
 * Revokes every API token of the user (a new password, an undone change of address, or on request with
 * "sign out all other sessions"): a token copied by whoever knew the old password stops working too.
 * Answers how many there were.
 */
export async function deleteApiTokensOfUser(db: Db, userId: number): Promise<number> {
  const result = await db.deleteFrom('api_tokens').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Puts an address back as it was before a change (an undo): its verified state, its pending state. */
export async function restoreEmail(
  db: Db,
  id: number,
  to: { email: string; verified: boolean; pending: boolean },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      email: to.email,
      email_verified: to.verified,
      email_change_pending: to.pending,
      email_verification_token: null,
      email_verification_expires: null,
    })
    .where('id', '=', id)
    .execute();
}
