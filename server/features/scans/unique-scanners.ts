import { createHash, hash, randomBytes } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database, Db } from '../../db/database.js';
import { startPeriodic } from '../../periodic.js';
import { deviceCategory } from './device.js';
import { DAY_MS, hasVisitor, timeOf, type ScanToStore } from './rollup-model.js';
import {
  deleteSaltsBefore,
  deleteVisitorsBefore,
  findSaltOfDay,
  insertSaltIfAbsent,
  insertVisitors,
  overwriteSaltsBefore,
  prepareVisitorInsert,
} from './scans.repository.js';

/**
 * # Unique scanners without linkable identifiers
 *
 * Plausible's method. Each scan of a person (not a bot) gets a visitor hash: the first 48 bits of
 * SHA-256(daily salt ‖ code id ‖ address ‖ user agent). The salt is 32 random bytes made for the
 * current UTC day (`scan_salts`, one row) and deleted when the day changes — at the first scan of the
 * next day, and by a sweep every ten minutes — so a day's hashes can never be made again: the same
 * phone gets an unrelated hash the next day, on another code and for another owner, and nothing
 * stored links one person across days. The address hashed is the one stored: with ANONYMIZE_IPS the
 * shortened one, since a hash of the full address and today's salt (both in the database) would give
 * the zeroed IPv4 octet back in 256 tries; two phones behind one /24 with the same browser then count
 * as one person that day.
 *
 * Counting stays exact and adds no read to a redirect: the writer inserts each batch's hashes into
 * `scan_code_day_visitors` (code, UTC day, visitor) with "on conflict do nothing" inside the batch's
 * transaction, and the rows it really inserted are first sightings, added to `unique_scanners` of
 * the quarter-hour and day rollups (rollup-model.ts). Those rows are only needed while their day can
 * still receive scans: the sweep deletes them ten minutes after the day ends, when the counts are
 * final. The figure is daily-unique: the same person on two days counts twice (their hashes differ),
 * and a period's figure is the sum of its days. A local day that spans two UTC days counts someone
 * scanning on both sides of UTC midnight twice, as the salt changes there.
 */

export const SALT_BYTES = 32;
/** 48 bits: a 6-byte integer in SQLite, exact in a JavaScript number, collisions negligible per code and day. */
const HASH_BYTES = 6;
/** Set rows of a day are kept this long after it ends, for scans of that day still being written. */
export const VISITOR_DAY_GRACE_MS = 10 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;
/** Set rows per delete, so a scan waiting to be written never waits long. */
const DELETE_BATCH = 5_000;

/** The UTC day (since the epoch) of a time in ms. */
export const utcDayOf = (ms: number): number => Math.floor(ms / DAY_MS);

/** Salt and key, written into one buffer for the one-shot hash: no Hash object per scan. */
const input = Buffer.allocUnsafe(4096);

/**
 * A scan's visitor hash for the day `salt` belongs to: a signed 48-bit integer, SHA-256 of the salt's
 * bytes followed by the key's UTF-8 bytes. It runs on every scan, so the bytes go through one reused
 * buffer and `crypto.hash` in one call (about a third of the cost of a `createHash` object); a key too
 * long for the buffer (a very long user agent) takes the streamed form, which hashes the same bytes.
 */
export function visitorHash(
  salt: Buffer,
  codeId: number,
  address: string,
  userAgent: string | null | undefined,
): number {
  const key = `${codeId}\u0000${address}\u0000${userAgent ?? ''}`;
  // Each UTF-16 unit is at most 3 UTF-8 bytes: the key surely fits when this holds.
  if (salt.length + key.length * 3 <= input.length) {
    salt.copy(input, 0);
    const end = salt.length + input.write(key, salt.length, 'utf8');
    return (hash('sha256', input.subarray(0, end), 'buffer') as Buffer).readIntBE(0, HASH_BYTES);
  }
  return createHash('sha256').update(salt).update(key).digest().readIntBE(0, HASH_BYTES);
}

/**
 * Destroys the salts of the days before `day`: overwritten with zeros, then deleted. A plain delete
 * leaves a row's bytes in its page's free space (SQLite) until something overwrites them. PostgreSQL
 * keeps dead row versions until autovacuum removes them (docs/scaling.md).
 */
async function destroySaltsBefore(db: Db, day: number): Promise<number> {
  await overwriteSaltsBefore(db, day, Buffer.alloc(SALT_BYTES));
  const deleted = await deleteSaltsBefore(db, day);
  return Number(deleted.numDeletedRows);
}

/**
 * The salt of `day`, made by the first instance that needs it: insert-or-ignore, then read, so several
 * instances on one PostgreSQL agree. Older days' salts are deleted at once: from now on their hashes
 * cannot be recomputed.
 */
async function saltOfDay(db: Db, day: number): Promise<Buffer> {
  await insertSaltIfAbsent(db, day, randomBytes(SALT_BYTES));
  const row = await findSaltOfDay(db, day);
  await destroySaltsBefore(db, day);
  return Buffer.from(row.salt);
}

/** The current day's salt, kept in memory: a scan reads the database only when the day has changed. */
export interface DailySalts {
  /** The salt of `day`: at once when remembered, else a promise (made or read once per day). */
  saltOf(day: number): Buffer | Promise<Buffer>;
  /** Forgets a remembered salt of a day before `today`. */
  forgetBefore(today: number): void;
}

export function createDailySalts(db: Db): DailySalts {
  let current: { day: number; salt: Buffer } | null = null;
  let pending: { day: number; salt: Promise<Buffer> } | null = null;
  return {
    saltOf(day) {
      if (current?.day === day) return current.salt;
      if (pending?.day === day) return pending.salt;
      const salt = saltOfDay(db, day).then(
        (value) => {
          if (pending?.day === day) pending = null;
          if (!current || current.day <= day) current = { day, salt: value };
          return value;
        },
        (error: unknown) => {
          if (pending?.day === day) pending = null;
          throw error;
        },
      );
      pending = { day, salt };
      return salt;
    },
    forgetBefore(today) {
      if (current && current.day < today) current = null;
    },
  };
}

/** Visitor hashes of the scans one scan service records (scan.service.ts). */
export interface VisitorHasher {
  /** A person's scan's visitor hash for the UTC day of `nowMs`; null for a bot (never counted). */
  hashOf(
    codeId: number,
    address: string,
    userAgent: string | null | undefined,
    nowMs: number,
  ): number | null | Promise<number | null>;
  /** `sweepVisitorDays`, and forgets the remembered salt of a finished day. */
  sweep(nowMs: number): Promise<{ salts: number; visitors: number }>;
}

export function createVisitorHasher(db: Db): VisitorHasher {
  const salts = createDailySalts(db);
  return {
    hashOf(codeId, address, userAgent, nowMs) {
      if (deviceCategory(userAgent) === 'Bot') return null;
      const salt = salts.saltOf(utcDayOf(nowMs));
      return Buffer.isBuffer(salt)
        ? visitorHash(salt, codeId, address, userAgent)
        : salt.then((value) => visitorHash(value, codeId, address, userAgent));
    },
    sweep(nowMs) {
      salts.forgetBefore(utcDayOf(nowMs));
      return sweepVisitorDays(db, nowMs);
    },
  };
}

const keyOf = (codeId: unknown, day: unknown, visitor: unknown) =>
  `${String(codeId)}:${String(day)}:${String(visitor)}`;

/**
 * SQLite (the recorder's native batch, inside its transaction): records each scan's visitor in the
 * day's set and answers the scans that were first sightings.
 */
export function nativeFirstSightings(
  connection: SQLite.Database,
): (rows: readonly ScanToStore[]) => Set<ScanToStore> {
  const insert = prepareVisitorInsert(connection);
  return (rows) => {
    const first = new Set<ScanToStore>();
    for (const row of rows) {
      if (!hasVisitor(row)) continue;
      if (insert.run(row.qr_code_id, utcDayOf(timeOf(row.timestamp)), row.visitor).changes > 0)
        first.add(row);
    }
    return first;
  };
}

/** The same through Kysely (any database): call inside the batch's transaction. */
export async function insertFirstSightings(
  trx: Kysely<Database>,
  rows: readonly ScanToStore[],
): Promise<Set<ScanToStore>> {
  // The first scan of each visitor in the batch (the batch is in time order) is its candidate.
  const candidates = new Map<
    string,
    { row: ScanToStore; qr_code_id: number; day: number; visitor: number }
  >();
  for (const row of rows) {
    if (!hasVisitor(row)) continue;
    const day = utcDayOf(timeOf(row.timestamp));
    const key = keyOf(row.qr_code_id, day, row.visitor);
    if (!candidates.has(key))
      candidates.set(key, { row, qr_code_id: row.qr_code_id, day, visitor: row.visitor });
  }
  // In key order: two PostgreSQL instances inserting the same visitors lock them in the same order.
  const sorted = [...candidates.values()].sort(
    (a, b) => a.qr_code_id - b.qr_code_id || a.day - b.day || a.visitor - b.visitor,
  );
  const first = new Set<ScanToStore>();
  for (let i = 0; i < sorted.length; i += 500) {
    const inserted = await insertVisitors(
      trx,
      sorted.slice(i, i + 500).map(({ qr_code_id, day, visitor }) => ({ qr_code_id, day, visitor })),
    );
    for (const r of inserted) {
      const candidate = candidates.get(keyOf(r.qr_code_id, r.day, r.visitor));
      if (candidate) first.add(candidate.row);
    }
  }
  return first;
}

/**
 * Deletes every salt of a day before today's (none is needed again) and the visitor sets of days
 * that ended more than VISITOR_DAY_GRACE_MS ago (their counts are final), a batch at a time.
 */
export async function sweepVisitorDays(
  db: Db,
  nowMs: number,
  pauseMs = 20,
): Promise<{ salts: number; visitors: number }> {
  const salts = await destroySaltsBefore(db, utcDayOf(nowMs));
  const finished = utcDayOf(nowMs - VISITOR_DAY_GRACE_MS);
  let visitors = 0;
  for (;;) {
    // A batch of keys, then those rows: the write lock is held for one short statement at a time.
    const result = await deleteVisitorsBefore(db, finished, DELETE_BATCH);
    const deleted = Number(result.numAffectedRows ?? 0);
    visitors += deleted;
    if (deleted < DELETE_BATCH) break;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return { salts, visitors };
}

/** Sweeps visitor days shortly after start and then every ten minutes (see `sweepVisitorDays`). */
export function startVisitorSweep(
  deps: { clock: Clock; scans: { sweepVisitorDays(): Promise<unknown> } },
  log: Pick<FastifyBaseLogger, 'error'>,
  firstRunMs = 60_000,
): () => void {
  return startPeriodic(() => deps.scans.sweepVisitorDays(), {
    firstRunMs,
    everyMs: SWEEP_EVERY_MS,
    onError: (error) => log.error({ err: error }, 'deleting old visitor salts and sets failed'),
  });
}
