import type { Db } from '../../db/database.js';

/** Sets (enrolment) or clears (off) the TOTP secret; a new secret counts only once confirmed. */
export async function setTotp(
  db: Db,
  userId: number,
  secret: string | null,
  enabled: boolean,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: secret, totp_enabled: enabled, totp_last_step: null })
    .where('id', '=', userId)
    .execute();
}

export async function enableTotp(db: Db, userId: number): Promise<void> {
  await db.updateTable('users').set({ totp_enabled: true }).where('id', '=', userId).execute();
}

/**
 * Records that a code of time step `step` was accepted, only if no code of that step or a later one was:
 * true for the one request that wins, so a code is never accepted twice (on any instance).
 */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Two-factor sign-in off: no secret, no recovery codes (inside the caller's transaction). */
export async function clearTwoFactor(db: Db, userId: number): Promise<void> {
  await setTotp(db, userId, null, false);
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: Db, userId: number, hashes: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    if (hashes.length > 0) {
      await trx
        .insertInto('recovery_codes')
        .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
        .execute();
    }
  });
}

/** Spends an unused recovery code; true for the one request that spends it. */
export async function spendRecoveryCode(db: Db, userId: number, hash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUnusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertPendingLogin(
  db: Db,
  id: string,
  userId: number,
  expiresAt: string,
  ssoSession: string | null = null,
): Promise<void> {
  await db
    .insertInto('pending_logins')
    .values({ id, user_id: userId, expires_at: expiresAt, sso_session: ssoSession })
    .execute();
}

/** The user of a pending sign-in that has not expired, and the company sign-in it continues, if any. */
export async function findPendingLogin(
  db: Db,
  id: string,
  now: string,
): Promise<{ user_id: number; sso_session: string | null } | undefined> {
  return db
    .selectFrom('pending_logins')
    .select(['user_id', 'sso_session'])
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Removes a finished pending sign-in and every expired one. */
export async function deletePendingLogin(db: Db, id: string, now: string): Promise<void> {
  await db
    .deleteFrom('pending_logins')
    .where((eb) => eb.or([eb('id', '=', id), eb('expires_at', '<=', now)]))
    .execute();
}
