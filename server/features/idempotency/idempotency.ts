import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../app-deps.js';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import { refuse } from '../../errors.js';
import { startPeriodic } from '../../periodic.js';

/**
 * Safe retries (docs/api.md, "Retries"): a POST sent with `Idempotency-Key` runs once per caller and key
 * for 24 hours. The first request claims the key with a fingerprint of what it asks; its answer is stored
 * once it succeeds, and the same request again gets that answer back (`Idempotent-Replayed: true`) without
 * acting twice. A failed request releases its key (nothing was changed, so trying again is safe).
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_HEADER = 'idempotency-key';

export const idempotencyMessages = {
  invalidKey: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
  reused:
    'This Idempotency-Key was used for another request in the last 24 hours: send a new key with a new request',
  inUse: 'A request with this Idempotency-Key is still running: retry once it has finished',
} as const;

/** The header's key: undefined when absent, a 400 when it is not 1–255 printable ASCII characters. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(key)) {
    throw refuse('VALIDATION_FAILED', idempotencyMessages.invalidKey, { field: 'Idempotency-Key' });
  }
  return key;
}

/** What a request asks, as the key remembers it: the same method, route, ids, workspace and body. */
export function fingerprintOf(parts: readonly (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('base64url');
}

export type Claim = { replay: false } | { replay: true; status: number; body: string };

type Db = Kysely<Database>;

/**
 * Claims `key` for `owner`: a new key (or one older than 24 hours) is taken for this request; a key
 * whose first request still runs is a 409; a key already answered gives that answer to the same request
 * and a 422 to another.
 */
export async function claimIdempotencyKey(
  db: Db,
  now: Date,
  owner: string,
  key: string,
  fingerprint: string,
): Promise<Claim> {
  const cutoff = now.getTime() - IDEMPOTENCY_WINDOW_MS;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db
        .insertInto('idempotency_keys')
        .values({ owner, key, fingerprint, status: null, body: null, created_at: now.toISOString() })
        .execute();
      return { replay: false };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const row = await db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'status', 'body', 'created_at'])
      .where('owner', '=', owner)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) continue; // released meanwhile: claim it again
    if (new Date(row.created_at).getTime() <= cutoff) {
      await db
        .deleteFrom('idempotency_keys')
        .where('owner', '=', owner)
        .where('key', '=', key)
        .where('created_at', '=', row.created_at as string)
        .execute();
      continue;
    }
    if (row.status === null || row.body === null) {
      throw refuse('IDEMPOTENCY_KEY_IN_USE', idempotencyMessages.inUse);
    }
    if (row.fingerprint !== fingerprint) throw refuse('IDEMPOTENCY_KEY_REUSED', idempotencyMessages.reused);
    return { replay: true, status: row.status, body: row.body };
  }
  throw refuse('IDEMPOTENCY_KEY_IN_USE', idempotencyMessages.inUse);
}

/** Stores the answer of the request that claimed the key. */
export async function completeIdempotencyKey(
  db: Db,
  owner: string,
  key: string,
  answer: { status: number; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: answer.status, body: answer.body })
    .where('owner', '=', owner)
    .where('key', '=', key)
    .execute();
}

/** Lets the key go (the request failed or answered something that cannot be replayed). */
export async function releaseIdempotencyKey(db: Db, owner: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('owner', '=', owner)
    .where('key', '=', key)
    .where('status', 'is', null)
    .execute();
}

/** Deletes the keys older than 24 hours: their answers are kept no longer. */
export async function deleteExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The hourly sweep of expired keys (a key is also renewed in place when it is used after 24 hours). */
export function startIdempotencySweep(deps: AppDeps, log: Pick<FastifyBaseLogger, 'error'>): () => void {
  return startPeriodic(() => deleteExpiredIdempotencyKeys(deps.db, deps.clock.now()), {
    firstRunMs: 5 * 60_000,
    everyMs: 60 * 60_000,
    onError: (error) => log.error({ err: error }, 'deleting expired idempotency keys failed'),
  });
}
