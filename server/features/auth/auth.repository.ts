import type { Db } from '../../db/database.js';
import { deleteApiTokensOfUser, updateUserPassword } from '../users/users.repository.js';
import { deleteSessionsOfUser } from './sessions.repository.js';

// ---------------------------------------------------------------------------------------------------
// Attempts: failed logins and mail requests, one row per attempt under a key (login-throttle.ts)

/** Forgets the keys' attempts made at or before `until` (ISO 8601). */
export async function deleteAttemptsUntil(db: Db, keys: string[], until: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key', 'in', keys).where('failed_at', '<=', until).execute();
}

/** One attempt under each key, made `at` (ISO 8601); answers the new rows' ids. */
export async function insertAttempts(db: Db, keys: string[], at: string): Promise<number[]> {
  const inserted = await db
    .insertInto('login_failures')
    .values(keys.map((key) => ({ key, failed_at: at })))
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

/** Per key with attempts after `since` (ISO 8601): how many, and when the oldest of them was made. */
export function countAttemptsSince(db: Db, keys: string[], since: string) {
  return db
    .selectFrom('login_failures')
    .select((eb) => ['key', eb.fn.countAll<number>().as('count'), eb.fn.min('failed_at').as('oldest')])
    .where('key', 'in', keys)
    .where('failed_at', '>', since)
    .groupBy('key')
    .execute();
}

export async function deleteAttemptsById(db: Db, ids: number[]): Promise<void> {
  await db.deleteFrom('login_failures').where('id', 'in', ids).execute();
}

export async function deleteAttemptsByKey(db: Db, key: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key', '=', key).execute();
}

/** Forgets every attempt under `key`, and the attempts `ids` whatever their key (`ids` not empty). */
export async function deleteAttemptsByKeyOrId(db: Db, key: string, ids: number[]): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where((eb) => eb.or([eb('key', '=', key), eb('id', 'in', ids)]))
    .execute();
}

// ---------------------------------------------------------------------------------------------------
// Password reset tokens, stored only as their SHA-256 (tokens.ts)

export async function insertResetToken(
  db: Db,
  token: { id: string; userId: number; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('password_reset_tokens')
    .values({
      id: token.id,
      user_id: token.userId,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
    })
    .execute();
}

export function findResetToken(db: Db, id: string) {
  return db.selectFrom('password_reset_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A password reset's writes, in one transaction: spends every unused reset token of the user, sets
 * the new password, ends all the user's sessions, revokes their API tokens and forgets the attempts
 * under `failureKey` (the account's failed logins). Spending the tokens is the guard: of two resets
 * racing with one token, only one updates a row; the other answers null and changes nothing. Answers
 * how many sessions ended and tokens were revoked.
 */
export function applyPasswordReset(
  db: Db,
  reset: { userId: number; passwordHash: string; at: string; failureKey: string | null },
): Promise<{ sessions: number; tokens: number } | null> {
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: reset.at })
      .where('user_id', '=', reset.userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) === 0) return null;
    await updateUserPassword(trx, reset.userId, reset.passwordHash);
    const sessions = await deleteSessionsOfUser(trx, reset.userId);
    const tokens = await deleteApiTokensOfUser(trx, reset.userId);
    if (reset.failureKey !== null) await deleteAttemptsByKey(trx, reset.failureKey);
    return { sessions, tokens };
  });
}
