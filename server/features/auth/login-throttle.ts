import type { AppDeps, RequestDeps } from '../../app-deps.js';
import type { Db } from '../../db/database.js';
import { storedAddress, unmapIpv4 } from '../scans/client-address.js';
import { appError, extrasOf } from '../../errors.js';
import { TRPCError } from '@trpc/server';
import { securityEvent } from '../../security-log.js';
import {
  countAttemptsSince,
  deleteAttemptsById,
  deleteAttemptsByKeyOrId,
  deleteAttemptsUntil,
  insertAttempts,
} from './auth.repository.js';

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

/** The key of an account's failed logins (a new password forgets them: recovery.service.ts). */
export const accountKey = (username: string) => `user:${username.toLowerCase()}`;
/**
 * The key of an account's wrong two-factor codes: apart from its failed passwords, so that a right
 * password (which forgets those) never forgets them, and counted whatever the browser.
 */
export const codeKey = (username: string) => `2fa:${username.toLowerCase()}`;
export const MAX_CODE_FAILURES = 5;

/** With ANONYMIZE_IPS the keys hold the masked address, like every stored address (a /24 shares limits). */
const addressKey = (deps: Pick<AppDeps, 'config'>, ip: string) => `ip:${storedAddress(deps.config, ip)}`;

export interface Limit {
  key: string;
  max: number;
}

/** An attempt counted: its rows, each key's count with it, and the limit it went over (if any). */
interface CountedAttempt {
  ids: number[];
  counts: Map<string, number>;
  over?: { key: string; retryMs: number };
}

/**
 * Records one attempt under every key *before* the guarded work, then counts. Because the rows are
 * written first, requests sent at the same moment see each other: at most `max` get through per
 * window, however many arrive together. Over a limit, the attempt is withdrawn.
 */
async function countAttempt(db: Db, limits: Limit[], windowMs: number, now: Date): Promise<CountedAttempt> {
  const keys = limits.map((l) => l.key);
  const since = new Date(now.getTime() - windowMs).toISOString();
  await deleteAttemptsUntil(db, keys, since);
  const ids = await insertAttempts(db, keys, now.toISOString());
  const rows = await countAttemptsSince(db, keys, since);
  const counts = new Map(rows.map((c) => [c.key, Number(c.count)]));
  const over = rows.find((c) => Number(c.count) > (limits.find((l) => l.key === c.key)?.max ?? Infinity));
  if (!over) return { ids, counts };
  await deleteAttemptsById(db, ids);
  const oldest = over.oldest ? new Date(over.oldest).getTime() : now.getTime();
  return { ids, counts, over: { key: over.key, retryMs: Math.max(1000, oldest + windowMs - now.getTime()) } };
}

function tooMany(what: string, retryMs: number) {
  const minutes = Math.ceil(retryMs / 60_000);
  return appError(
    'TOO_MANY_REQUESTS',
    `Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { retryAfterSeconds: Math.ceil(retryMs / 1000) },
  );
}

/**
 * countAttempt, throwing 429 (with Retry-After) when the attempt is over a limit. Answers the ids of the
 * rows written.
 */
export async function recordAttempt(db: Db, limits: Limit[], windowMs: number, now: Date, what: string) {
  const attempt = await countAttempt(db, limits, windowMs, now);
  if (attempt.over) throw tooMany(what, attempt.over.retryMs);
  return attempt.ids;
}

/** Whose password or code is checked: the name typed, and its account when there is one. */
export interface Attempted {
  username: string;
  user?: { id: number; username: string } | null;
}

/** Where a password or code is checked, as the security log says (`during`). */
export type AttemptStep =
  'sign-in' | 'password change' | 'e-mail change' | 'two-factor setup' | 'two-factor removal';

/** The limits this attempt brought exactly to their maximum: a failure now locks them. */
function reached(attempt: CountedAttempt, limits: (Limit & { lock: string })[]): string[] {
  return limits.filter((l) => attempt.counts.get(l.key) === l.max).map((l) => l.lock);
}

function lockedMessage(who: string, lock: string): string {
  if (lock === 'address') {
    return `sign-in locked for this address: ${MAX_FAILURES_PER_ADDRESS} failures in 15 minutes (last: ${who})`;
  }
  if (lock === 'two-factor') {
    return `two-factor step of ${who} locked: ${MAX_CODE_FAILURES} wrong codes in 15 minutes`;
  }
  return `account ${who} locked: ${MAX_FAILURES_PER_ACCOUNT} failed sign-ins in 15 minutes`;
}

export interface LoginAttempt {
  /** The password was right: forget this attempt and the account's earlier failures. */
  succeeded(): Promise<void>;
  /**
   * The password was wrong, or no account has the name: logs and audits `login.failed`, and
   * `account.locked` when this failure is the one that locks the account or the address.
   */
  failed(): Promise<void>;
}

/**
 * Counts a login as failed until `succeeded()` says otherwise. A refusal (429: the account or the
 * address is locked) is a `login.failed` too, with reason 'locked'.
 */
export async function beginLoginAttempt(
  deps: RequestDeps,
  who: Attempted,
  options: { trustedDevice?: boolean; during: AttemptStep },
): Promise<LoginAttempt> {
  const { db, ip } = deps;
  const now = deps.clock.now();
  const account = accountKey(who.username);
  const address = { key: addressKey(deps, ip), max: MAX_FAILURES_PER_ADDRESS, lock: 'address' };
  // A browser the account has signed in from before is not held by the account's lockout (only by its
  // address's): someone failing on purpose cannot keep the owner out.
  const limits = options.trustedDevice
    ? [address]
    : [{ key: account, max: MAX_FAILURES_PER_ACCOUNT, lock: 'account' }, address];
  const attempt = await countAttempt(db, limits, WINDOW_MS, now);
  const name = who.user?.username ?? who.username;
  const fields = { user: who.user ?? null, username: who.username };
  if (attempt.over) {
    const lock = attempt.over.key === account ? 'account' : 'address';
    await securityEvent(deps, 'login.failed', {
      ...fields,
      message: `${options.during} refused for ${name}: ${lock} locked`,
      details: { reason: 'locked', lock, during: options.during },
    });
    throw tooMany('failed login attempts', attempt.over.retryMs);
  }
  return {
    async succeeded() {
      await deleteAttemptsByKeyOrId(db, account, attempt.ids);
    },
    async failed() {
      const reason = who.user ? 'bad password' : 'unknown user';
      await securityEvent(deps, 'login.failed', {
        ...fields,
        message: `${options.during} failed for ${name}: ${reason}`,
        details: { reason, during: options.during, failures: attempt.counts.get(account) },
      });
      for (const lock of reached(attempt, limits)) {
        await securityEvent(deps, 'account.locked', {
          ...fields,
          message: lockedMessage(name, lock),
          details: { lock, minutes: WINDOW_MS / 60_000 },
        });
      }
    },
  };
}

export interface CodeAttempt {
  /** The code was right: this attempt is withdrawn (earlier wrong codes still count). */
  succeeded(): Promise<void>;
  /**
   * The code was wrong: logs and audits `twofactor.failed` (and `account.locked` when this failure locks
   * the code step or the address), and answers whether the code step is now locked.
   */
  failed(): Promise<{ locked: boolean }>;
}

/**
 * Counts a two-factor code before it is checked: 5 wrong codes per account in 15 minutes (whatever the
 * browser, a known device too), then 429 until the oldest is 15 minutes old. Only the code step is
 * locked: the password still works, and a right password forgets none of these. A refusal is a
 * `twofactor.failed` with reason 'locked'.
 */
export async function beginCodeAttempt(
  deps: RequestDeps,
  user: { id: number; username: string },
  during: AttemptStep,
): Promise<CodeAttempt> {
  const now = deps.clock.now();
  const key = codeKey(user.username);
  const address = { key: addressKey(deps, deps.ip), max: MAX_FAILURES_PER_ADDRESS, lock: 'address' };
  const attempt = await countAttempt(deps.db, [{ key, max: MAX_CODE_FAILURES }, address], WINDOW_MS, now);
  if (attempt.over) {
    const lock = attempt.over.key === key ? 'two-factor' : 'address';
    await securityEvent(deps, 'twofactor.failed', {
      user,
      message: `two-factor code refused for ${user.username} (${during}): ${lock} locked`,
      details: { reason: 'locked', lock, during },
    });
    throw tooMany('wrong two-factor codes', attempt.over.retryMs);
  }
  return {
    async succeeded() {
      await deleteAttemptsById(deps.db, attempt.ids);
    },
    async failed() {
      const since = new Date(now.getTime() - WINDOW_MS).toISOString();
      const [counted] = await countAttemptsSince(deps.db, [key], since);
      const failures = Number(counted?.count ?? 0);
      const locked = failures >= MAX_CODE_FAILURES;
      await securityEvent(deps, 'twofactor.failed', {
        user,
        message: `wrong two-factor code for ${user.username} (${during})`,
        details: { reason: 'wrong code', during, failures },
      });
      const locks = [
        ...(failures === MAX_CODE_FAILURES ? ['two-factor'] : []),
        ...reached(attempt, [address]),
      ];
      for (const lock of locks) {
        await securityEvent(deps, 'account.locked', {
          user,
          message: lockedMessage(user.username, lock),
          details: { lock, minutes: WINDOW_MS / 60_000 },
        });
      }
      return { locked };
    },
  };
}

/** Limits reset and verification requests, so nobody's inbox can be flooded through us. */
export async function limitMailRequest(deps: RequestDeps, kind: 'reset' | 'verify', email: string) {
  const now = deps.clock.now();
  await recordAttempt(
    deps.db,
    [
      { key: `${kind}:${email.toLowerCase()}`, max: MAX_MAILS_PER_EMAIL },
      { key: `${kind}-ip:${storedAddress(deps.config, deps.ip)}`, max: MAX_MAILS_PER_CLIENT },
    ],
    MAIL_WINDOW_MS,
    now,
    'requests',
  );
}

/** "Send verification link" on the profile: one a minute and VERIFICATION_LINKS_PER_HOUR an hour per user. */
export const VERIFICATION_LINK_GAP_MS = 60_000;
export const VERIFICATION_LINKS_PER_HOUR = 5;

/** "45 seconds", "1 minute", "23 minutes": how long to wait, in the unit a person reads. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** Rewords recordAttempt's 429 with `say(wait)`, keeping its Retry-After. */
function reworded(error: unknown, say: (wait: string) => string): unknown {
  if (!(error instanceof TRPCError) || error.code !== 'TOO_MANY_REQUESTS') return error;
  const retryAfterSeconds = Number(extrasOf(error)?.retryAfterSeconds ?? 60);
  return appError('TOO_MANY_REQUESTS', say(waitText(retryAfterSeconds)), { retryAfterSeconds });
}

/**
 * Counts a verification link a signed-in user asks for (it mails their own address): one a minute, five
 * an hour, shared by every instance; past either, 429 saying when to try again. A refused request is not
 * counted, so pressing the button again does not push the wait further.
 */
export async function limitVerificationLinks(deps: Pick<AppDeps, 'db' | 'clock'>, userId: number) {
  const now = deps.clock.now();
  const hourly = await recordAttempt(
    deps.db,
    [{ key: `verify-link:${userId}`, max: VERIFICATION_LINKS_PER_HOUR }],
    MAIL_WINDOW_MS,
    now,
    'verification links',
  ).catch((error: unknown) => {
    throw reworded(
      error,
      (wait) =>
        `You asked for ${VERIFICATION_LINKS_PER_HOUR} verification links in the last hour. Please try again in ${wait}.`,
    );
  });
  try {
    await recordAttempt(
      deps.db,
      [{ key: `verify-link-gap:${userId}`, max: 1 }],
      VERIFICATION_LINK_GAP_MS,
      now,
      'verification links',
    );
  } catch (error) {
    await deleteAttemptsById(deps.db, hourly);
    throw reworded(
      error,
      (wait) => `A verification link was sent less than a minute ago. Please try again in ${wait}.`,
    );
  }
}

/** Uploads one user may make in an hour: a loop cannot write faster than a person designs. */
export const MAX_UPLOADS_PER_HOUR = 60;

/** Counts an upload of `userId`; past the hour's limit, 429 with Retry-After (shared by every instance). */
export async function limitUploads(deps: Pick<AppDeps, 'db' | 'clock'>, userId: number) {
  await recordAttempt(
    deps.db,
    [{ key: `upload:${userId}`, max: MAX_UPLOADS_PER_HOUR }],
    MAIL_WINDOW_MS,
    deps.clock.now(),
    'uploads',
  );
}

/**
 * Counts a registration from the caller's address: each pays a password hash, so one address may make
 * REGISTRATIONS_PER_HOUR (5) an hour, shared by every instance; past it, 429 with Retry-After.
 * Loopback is not counted: it is this machine itself, or a reverse proxy not named in TRUST_PROXY, behind
 * which every visitor would share one address and the limit would close sign-up for everyone.
 */
export async function limitRegistrations(deps: RequestDeps) {
  const address = unmapIpv4(deps.ip);
  if (address === '::1' || address.startsWith('127.')) return;
  await recordAttempt(
    deps.db,
    [{ key: `register-ip:${storedAddress(deps.config, address)}`, max: deps.config.registrationsPerHour }],
    MAIL_WINDOW_MS,
    deps.clock.now(),
    'registrations',
  );
}
