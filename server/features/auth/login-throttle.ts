import type { Db } from '../../db/database.js';
import { appError } from '../../trpc/errors.js';

/**
 * Attempts (failed logins, reset and verification mails) are counted per key in the database, so
 * every instance behind a load balancer sees the same counts. Windows slide: a lockout ends by itself
 * once the attempts that caused it are older than the window, so an attacker can slow the real owner
 * down but never lock them out for good (refused attempts are not counted, so hammering does not
 * extend a lockout).
 */
export const WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
/** Reset and verification mails: per address and per client, per hour. */
export const MAIL_WINDOW_MS = 60 * 60_000;
export const MAX_MAILS_PER_EMAIL = 3;
export const MAX_MAILS_PER_CLIENT = 10;

const accountKey = (username: string) => `user:${username.toLowerCase()}`;
const addressKey = (ip: string) => `ip:${ip}`;

interface Limit {
  key: string;
  max: number;
}

/**
 * Records one attempt under every key *before* the guarded work, then counts. Because the rows are
 * written first, requests sent at the same moment see each other: at most `max` get through per
 * window, however many arrive together. Over a limit, the attempt is withdrawn and 429 thrown.
 * Answers the ids of the rows written.
 */
async function recordAttempt(db: Db, limits: Limit[], windowMs: number, now: Date, what: string) {
  const keys = limits.map((l) => l.key);
  const since = new Date(now.getTime() - windowMs).toISOString();
  await db.deleteFrom('login_failures').where('key', 'in', keys).where('failed_at', '<=', since).execute();
  const inserted = await db
    .insertInto('login_failures')
    .values(keys.map((key) => ({ key, failed_at: now.toISOString() })))
    .returning('id')
    .execute();
  const ids = inserted.map((r) => r.id);
  const counts = await db
    .selectFrom('login_failures')
    .select((eb) => ['key', eb.fn.countAll<number>().as('count'), eb.fn.min('failed_at').as('oldest')])
    .where('key', 'in', keys)
    .where('failed_at', '>', since)
    .groupBy('key')
    .execute();
  const over = counts.find((c) => Number(c.count) > (limits.find((l) => l.key === c.key)?.max ?? Infinity));
  if (over) {
    await db.deleteFrom('login_failures').where('id', 'in', ids).execute();
    const oldest = over.oldest ? new Date(over.oldest).getTime() : now.getTime();
    const retryMs = Math.max(1000, oldest + windowMs - now.getTime());
    const minutes = Math.ceil(retryMs / 60_000);
    throw appError(
      'TOO_MANY_REQUESTS',
      `Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { retryAfterSeconds: Math.ceil(retryMs / 1000) },
    );
  }
  return ids;
}

export interface LoginAttempt {
  /** The password was right: forget this attempt and the account's earlier failures. */
  succeeded(): Promise<void>;
}

/** Counts a login as failed until `succeeded()` says otherwise. */
export async function beginLoginAttempt(
  db: Db,
  username: string,
  ip: string,
  now: Date,
): Promise<LoginAttempt> {
  const account = accountKey(username);
  const ids = await recordAttempt(
    db,
    [
      { key: account, max: MAX_FAILURES_PER_ACCOUNT },
      { key: addressKey(ip), max: MAX_FAILURES_PER_ADDRESS },
    ],
    WINDOW_MS,
    now,
    'failed login attempts',
  );
  return {
    async succeeded() {
      await db
        .deleteFrom('login_failures')
        .where((eb) => eb.or([eb('key', '=', account), eb('id', 'in', ids)]))
        .execute();
    },
  };
}

/** Limits reset and verification requests, so nobody's inbox can be flooded through us. */
export async function limitMailRequest(
  db: Db,
  kind: 'reset' | 'verify',
  email: string,
  ip: string,
  now: Date,
) {
  await recordAttempt(
    db,
    [
      { key: `${kind}:${email.toLowerCase()}`, max: MAX_MAILS_PER_EMAIL },
      { key: `${kind}-ip:${ip}`, max: MAX_MAILS_PER_CLIENT },
    ],
    MAIL_WINDOW_MS,
    now,
    'requests',
  );
}

/** Forgets an account's failed logins (after a password reset). */
export async function clearAccountFailures(db: Db, username: string) {
  await db.deleteFrom('login_failures').where('key', '=', accountKey(username)).execute();
}
