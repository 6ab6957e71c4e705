import type { Db } from '../../db/database.js';

/** Browsers and addresses seen (login alerts); trusted-device tokens are not counted. */
export async function countKnownDevices(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('known_devices')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('fingerprint', 'not like', 'device:%')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Records fingerprints; answers those that were new for this user. */
export async function rememberDevices(
  db: Db,
  userId: number,
  fingerprints: readonly string[],
  now: string,
): Promise<string[]> {
  const fresh: string[] = [];
  for (const fingerprint of fingerprints) {
    const result = await db
      .insertInto('known_devices')
      .values({ user_id: userId, fingerprint, first_seen_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'fingerprint']).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) fresh.push(fingerprint);
  }
  return fresh;
}

export async function isKnownDevice(db: Db, userId: number, fingerprint: string): Promise<boolean> {
  const row = await db
    .selectFrom('known_devices')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
  return row !== undefined;
}
