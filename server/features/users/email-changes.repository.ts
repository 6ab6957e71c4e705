import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** A self-service change of address, recorded as the user's row is updated (same transaction). */
export async function insertEmailChange(
  db: Db,
  change: {
    userId: number;
    oldEmail: string;
    oldVerified: boolean;
    oldPending: boolean;
    fallbackEmail: string | null;
    newEmail: string;
    undoTokenHash: string;
    createdAt: string;
    expiresAt: string;
  },
): Promise<void> {
  await db
    .insertInto('email_changes')
    .values({
      user_id: change.userId,
      old_email: change.oldEmail,
      old_verified: change.oldVerified,
      old_pending: change.oldPending,
      fallback_email: change.fallbackEmail,
      new_email: change.newEmail,
      undo_token_hash: change.undoTokenHash,
      created_at: change.createdAt,
      expires_at: change.expiresAt,
    })
    .execute();
}

/** The user's latest change of address, whatever its state. */
export function findLatestEmailChange(db: Db, userId: number) {
  return db
    .selectFrom('email_changes')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Users whose address is a change still pending and whose latest change falls back to `email` for
 * password resets: that trusted address still gets their reset link.
 */
export function findUsersFallingBackTo(db: Db, email: string) {
  return db
    .selectFrom('email_changes as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .selectAll('u')
    .select('c.fallback_email')
    .where(sql<string>`lower(c.fallback_email)`, '=', email.toLowerCase())
    .where('u.email_change_pending', '=', true)
    .where('c.closed_at', 'is', null)
    .where((eb) =>
      eb(
        'c.id',
        '=',
        eb
          .selectFrom('email_changes as l')
          .select((e) => e.fn.max('l.id').as('id'))
          .whereRef('l.user_id', '=', 'c.user_id'),
      ),
    )
    .execute();
}

export function findEmailChangeByUndoToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('email_changes')
    .selectAll()
    .where('undo_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Closes every open change of the user: an undo makes all later and earlier undo links moot. */
export async function closeEmailChangesOf(db: Db, userId: number, at: string): Promise<void> {
  await db
    .updateTable('email_changes')
    .set({ closed_at: at })
    .where('user_id', '=', userId)
    .where('closed_at', 'is', null)
    .execute();
}
