import type { Db } from '../../db/database.js';
import { appError } from '../../trpc/errors.js';

/**
 * Failed logins are counted per account and per client address in the database, so every instance
 * behind a load balancer sees the same counts. The window slides: a lockout ends by itself WINDOW_MS
 * after the failures that caused it, so an attacker can slow the real owner down but never lock them
 * out for good (refused attempts are not counted, so hammering does not extend the lockout).
 */
export const WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

const accountKey = (username: string) => `user:${username.toLowerCase()}`;
const addressKey = (ip: string) => `ip:${ip}`;

export interface LoginAttempt {
  /** The password was right: forget this attempt and the account's earlier failures. */
  succeeded(): Promise<void>;
}

/**
 * Records the attempt as a failure *before* the password is checked, then counts. Because the row is
 * written first, guesses sent at the same moment see each other: at most the allowed number get
 * through, however many arrive together.
 */
export async function beginLoginAttempt(
  db: Db,
  username: string,
  ip: string,
  now: Date,
): Promise<LoginAttempt> {
  const keys = [accountKey(username), addressKey(ip)] as const;
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  await db.deleteFrom('login_failures').where('key', 'in', keys).where('failed_at', '<=', since).execute();
  const inserted = await db
    .insertInto('login_failures')
    .values(keys.map((key) => ({ key, failed_at: now.toISOString() })))
    .returning('id')
    .execute();
  const ownIds = inserted.map((r) => r.id);

  const counts = await db
    .selectFrom('login_failures')
    .select((eb) => ['key', eb.fn.countAll<number>().as('count'), eb.fn.min('failed_at').as('oldest')])
    .where('key', 'in', keys)
    .where('failed_at', '>', since)
    .groupBy('key')
    .execute();
  const limits = { [keys[0]]: MAX_FAILURES_PER_ACCOUNT, [keys[1]]: MAX_FAILURES_PER_ADDRESS };
  const over = counts.find((c) => Number(c.count) > (limits[c.key] ?? Infinity));
  if (over) {
    await db.deleteFrom('login_failures').where('id', 'in', ownIds).execute();
    const oldest = over.oldest ? new Date(over.oldest).getTime() : now.getTime();
    const retryMs = Math.max(1000, oldest + WINDOW_MS - now.getTime());
    const minutes = Math.ceil(retryMs / 60_000);
    throw appError(
      'TOO_MANY_REQUESTS',
      `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { retryAfterSeconds: Math.ceil(retryMs / 1000) },
    );
  }

  return {
    async succeeded() {
      await db
        .deleteFrom('login_failures')
        .where((eb) => eb.or([eb('key', '=', keys[0]), eb('id', 'in', ownIds)]))
        .execute();
    },
  };
}
