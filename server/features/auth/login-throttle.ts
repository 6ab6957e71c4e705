import type { Db } from '../../db/database.js';
import { appError } from '../../trpc/errors.js';

/**
 * Failed logins are counted per account and per client address in the database, so every instance
 * behind a load balancer sees the same counts. The window slides: a lockout ends by itself after
 * WINDOW_MS, so an attacker can slow the real owner down but never lock them out for good.
 */
export const WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

const accountKey = (username: string) => `user:${username.toLowerCase()}`;
const addressKey = (ip: string) => `ip:${ip}`;

async function failuresSince(db: Db, key: string, since: Date) {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('failed_at').as('oldest')])
    .where('key', '=', key)
    .where('failed_at', '>', since.toISOString())
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest) : null };
}

export async function assertLoginAllowed(db: Db, username: string, ip: string, now: Date) {
  const since = new Date(now.getTime() - WINDOW_MS);
  for (const [key, max] of [
    [accountKey(username), MAX_FAILURES_PER_ACCOUNT],
    [addressKey(ip), MAX_FAILURES_PER_ADDRESS],
  ] as const) {
    const { count, oldest } = await failuresSince(db, key, since);
    if (count >= max) {
      const retryMs = (oldest?.getTime() ?? now.getTime()) + WINDOW_MS - now.getTime();
      const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
      throw appError(
        'TOO_MANY_REQUESTS',
        `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        { retryAfterSeconds: Math.ceil(retryMs / 1000) },
      );
    }
  }
}

export async function recordLoginFailure(db: Db, username: string, ip: string, now: Date) {
  const keys = [accountKey(username), addressKey(ip)];
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('login_failures')
      .where('key', 'in', keys)
      .where('failed_at', '<=', new Date(now.getTime() - WINDOW_MS).toISOString())
      .execute();
    await trx
      .insertInto('login_failures')
      .values(keys.map((key) => ({ key, failed_at: now.toISOString() })))
      .execute();
  });
}

export async function clearLoginFailures(db: Db, username: string) {
  await db.deleteFrom('login_failures').where('key', '=', accountKey(username)).execute();
}
