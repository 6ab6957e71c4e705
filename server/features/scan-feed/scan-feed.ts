import type { ColumnType } from 'kysely';
import type { DeviceCategory } from '../../../src/analytics/analytics.schema.js';
import { outcomeOfStored, type ScanOutcome } from '../../../src/qr/scan-outcome.js';
import type { Db, NullableTimestamp } from '../../db/database.js';
import { deviceOfCode } from '../scans/scan-columns.js';

/**
 * The raw scans as a feed that background consumers read after they are stored (webhooks, analytics
 * forwarding): never on the redirect's path, which writes its batch and answers as before. Each consumer
 * has a cursor (`scan_feed_cursors`, migrations/2026-12-09T1000-webhooks.ts): the last `qr_scans.id` it has
 * handled, claimed by one instance at a time, so two instances never hand the same scans on.
 *
 * Ids are given out before a batch commits. On SQLite one writer commits at a time, in id order; on
 * PostgreSQL two instances' batches may commit out of order, so a missing id can still appear. The reader
 * stops before such a gap and waits for it up to `GAP_WAIT_MS` (a batch commits in milliseconds); a gap
 * still open then is an id that will never come (a batch rolled back, or its code deleted meanwhile).
 */

declare module '../../db/database.js' {
  interface Database {
    scan_feed_cursors: ScanFeedCursorTable;
  }
}

export interface ScanFeedCursorTable {
  name: string;
  /** PostgreSQL bigint reads back as text. */
  last_id: ColumnType<number | string, number, number>;
  gap_id: ColumnType<number | string | null, number | null | undefined, number | null>;
  gap_since: NullableTimestamp;
  claimed_until: NullableTimestamp;
  claimed_by: string | null;
}

/** How long a missing id is waited for before the feed moves past it. */
export const GAP_WAIT_MS = 15_000;

/** One stored scan as the consumers see it: the code it was of and what it led to, dictionaries joined. */
export interface FeedScan {
  id: number;
  /** The workspace's account (the code's owner). */
  ownerId: number;
  qrCodeId: number;
  codeName: string;
  slug: string | null;
  domainId: number | null;
  folderId: number | null;
  /** ms since the epoch. */
  at: number;
  userAgent: string | null;
  referrer: string | null;
  /** "City, Country", a country, or "Unknown". */
  location: string | null;
  /** As stored (masked with ANONYMIZE_IPS). */
  ipAddress: string | null;
  device: DeviceCategory;
  outcome: ScanOutcome;
}

/** `1-4,7,9-10` for ids 1,2,3,4,7,9,10 (ascending): how a delivery names its scans compactly. */
export function encodeScanIds(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
    parts.push(i === j ? String(ids[i]) : `${ids[i]}-${ids[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

export function decodeScanIds(text: string): number[] {
  const ids: number[] = [];
  for (const part of text.split(',')) {
    if (part === '') continue;
    const [from, to] = part.split('-').map(Number) as [number, number | undefined];
    for (let id = from; id <= (to ?? from); id++) ids.push(id);
  }
  return ids;
}

function feedScanOf(r: {
  id: number | string;
  user_id: number;
  qr_code_id: number;
  name: string;
  slug: string | null;
  domain_id: number | null;
  folder_id: number | null;
  at: number | string;
  user_agent: string | null;
  referrer: string | null;
  location: string | null;
  ip_address: string | null;
  device: number;
  refused: number | null;
  rule: number | null;
}): FeedScan {
  return {
    id: Number(r.id),
    ownerId: Number(r.user_id),
    qrCodeId: Number(r.qr_code_id),
    codeName: r.name,
    slug: r.slug,
    domainId: r.domain_id === null ? null : Number(r.domain_id),
    folderId: r.folder_id === null ? null : Number(r.folder_id),
    at: Number(r.at),
    userAgent: r.user_agent,
    referrer: r.referrer,
    location: r.location,
    ipAddress: r.ip_address,
    device: deviceOfCode(r.device),
    outcome: outcomeOfStored(r.refused, r.rule),
  };
}

function selectFeedScans(db: Db) {
  return db
    .selectFrom('qr_scans as s')
    .innerJoin('qr_codes as c', 'c.id', 's.qr_code_id')
    .leftJoin('scan_user_agents as a', 'a.id', 's.user_agent_id')
    .leftJoin('scan_referrers as r', 'r.id', 's.referrer_id')
    .leftJoin('scan_locations as l', 'l.id', 's.location_id')
    .select([
      's.id',
      'c.user_id',
      's.qr_code_id',
      'c.name',
      'c.slug',
      'c.domain_id',
      'c.folder_id',
      's.at',
      'a.value as user_agent',
      'r.value as referrer',
      'l.value as location',
      's.ip_address',
      's.device',
      's.refused',
      's.rule',
    ]);
}

/** The scans with these ids that are still stored (their code deleted, or past retention: gone), in id order. */
export async function readScansByIds(db: Db, ids: readonly number[]): Promise<FeedScan[]> {
  const found: FeedScan[] = [];
  const sorted = [...ids].sort((a, b) => a - b);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  // Every id from the first to the last (a delivery of one endpoint taking every scan): the range alone, one
  // statement planned once, instead of a list of parameters to bind and check each row against.
  if (
    first !== undefined &&
    last !== undefined &&
    last - first === sorted.length - 1 &&
    new Set(sorted).size === sorted.length
  ) {
    const rows = await selectFeedScans(db)
      .where('s.id', '>=', first)
      .where('s.id', '<=', last)
      .orderBy('s.id')
      .execute();
    return rows.map(feedScanOf);
  }
  for (let i = 0; i < sorted.length; i += 500) {
    const chunk = sorted.slice(i, i + 500);
    // The range beside the list: without it SQLite read every scan in id order, checking each against the
    // list (3 ms a delivery on 60,000 scans, growing with the table); with it, a search of the range.
    const rows = await selectFeedScans(db)
      .where('s.id', '>=', chunk[0]!)
      .where('s.id', '<=', chunk[chunk.length - 1]!)
      .where('s.id', 'in', chunk)
      .orderBy('s.id')
      .execute();
    for (const r of rows) found.push(feedScanOf(r));
  }
  return found;
}

/** Scans after `afterId` in id order, at most `limit`. `ownerIds`: only those workspaces' codes. */
export async function readScansAfter(
  db: Db,
  afterId: number,
  limit: number,
  ownerIds?: readonly number[],
): Promise<FeedScan[]> {
  if (ownerIds && ownerIds.length === 0) return [];
  let query = selectFeedScans(db).where('s.id', '>', afterId).orderBy('s.id').limit(limit);
  if (ownerIds) query = query.where('c.user_id', 'in', ownerIds);
  return (await query.execute()).map(feedScanOf);
}

/** A stored scan as a consumer sorts it: whose, and when. */
export interface FeedEntry {
  id: number;
  ownerId: number;
  /** ms since the epoch. */
  at: number;
}

/**
 * Scans after `afterId` in id order, at most `limit`, without their details (no dictionary is read): for a
 * consumer that only hands ids on (webhooks name the scans of a delivery; its JSON is made when sent).
 */
export async function readEntriesAfter(db: Db, afterId: number, limit: number): Promise<FeedEntry[]> {
  const rows = await db
    .selectFrom('qr_scans as s')
    .innerJoin('qr_codes as c', 'c.id', 's.qr_code_id')
    .select(['s.id', 'c.user_id', 's.at'])
    .where('s.id', '>', afterId)
    .orderBy('s.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), ownerId: Number(r.user_id), at: Number(r.at) }));
}

/** The highest id any scan has now (0 when none): where a new consumer starts. */
async function lastScanId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('qr_scans')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export interface FeedPosition {
  lastId: number;
  gapId: number | null;
  gapSince: string | null;
}

/**
 * Makes the consumer `name` at the newest scan, unless it exists: a consumer starts with the scans stored
 * after it is made (a webhook's, when the first one is added).
 */
export async function ensureFeed(db: Db, name: string): Promise<void> {
  const existing = await db
    .selectFrom('scan_feed_cursors')
    .select('name')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return;
  await db
    .insertInto('scan_feed_cursors')
    .values({ name, last_id: await lastScanId(db) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * Claims the consumer `name` until `leaseUntil` for `instance` (made at the newest scan if it is new):
 * its position, or null while another instance holds it.
 */
export async function claimFeed(
  db: Db,
  name: string,
  instance: string,
  now: Date,
  leaseMs: number,
): Promise<FeedPosition | null> {
  const nowIso = now.toISOString();
  await ensureFeed(db, name);
  const claimed = await db
    .updateTable('scan_feed_cursors')
    .set({ claimed_until: new Date(now.getTime() + leaseMs).toISOString(), claimed_by: instance })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowIso)]))
    .returning(['last_id', 'gap_id', 'gap_since'])
    .executeTakeFirst();
  if (!claimed) return null;
  return {
    lastId: Number(claimed.last_id),
    gapId: claimed.gap_id === null ? null : Number(claimed.gap_id),
    gapSince: claimed.gap_since === null ? null : new Date(claimed.gap_since).toISOString(),
  };
}

/** Lets another instance claim the consumer at once (its position is kept). */
export async function releaseFeed(db: Db, name: string, instance: string): Promise<void> {
  await db
    .updateTable('scan_feed_cursors')
    .set({ claimed_until: null, claimed_by: null })
    .where('name', '=', name)
    .where('claimed_by', '=', instance)
    .execute();
}

/**
 * Of `scans` (read after `position.lastId`, in id order), those that may be handed on now, and the position
 * after them: every id up to the first missing one, and past a missing one once it has been waited for
 * `GAP_WAIT_MS`.
 */
export function nextScans<S extends { id: number }>(
  scans: readonly S[],
  position: FeedPosition,
  now: Date,
): { scans: S[]; position: FeedPosition } {
  const ready: S[] = [];
  let last = position.lastId;
  let gapId = position.gapId;
  let gapSince = position.gapSince;
  for (const scan of scans) {
    if (scan.id !== last + 1) {
      // A missing id just before this scan: wait for it, unless it has been waited for long enough.
      const missing = last + 1;
      if (gapId !== missing || gapSince === null) {
        gapId = missing;
        gapSince = now.toISOString();
        break;
      }
      if (now.getTime() - Date.parse(gapSince) < GAP_WAIT_MS) break;
    }
    ready.push(scan);
    last = scan.id;
  }
  if (ready.length > 0 && (gapId === null || gapId <= last)) {
    gapId = null;
    gapSince = null;
  }
  return { scans: ready, position: { lastId: last, gapId, gapSince } };
}

/** Stores the consumer's position (inside the transaction that handed its scans on, when there is one). */
export async function moveFeed(db: Db, name: string, position: FeedPosition): Promise<void> {
  await db
    .updateTable('scan_feed_cursors')
    .set({ last_id: position.lastId, gap_id: position.gapId, gap_since: position.gapSince })
    .where('name', '=', name)
    .execute();
}

/** The feed's row for tests and the admin: where the consumer stands. */
export async function feedPositionOf(db: Db, name: string): Promise<FeedPosition | null> {
  const row = await db
    .selectFrom('scan_feed_cursors')
    .select(['last_id', 'gap_id', 'gap_since'])
    .where('name', '=', name)
    .executeTakeFirst();
  if (!row) return null;
  return {
    lastId: Number(row.last_id),
    gapId: row.gap_id === null ? null : Number(row.gap_id),
    gapSince: row.gap_since === null ? null : new Date(row.gap_since).toISOString(),
  };
}

/**
 * Whether the consumer `name` exists and stands at the newest scan with no gap to wait on: nothing to do, so
 * nothing is written (no lease taken). An idle server's feeds then cost two reads a run, and write nothing
 * that other connections' transactions would have to wait for.
 */
async function feedIsCurrent(db: Db, name: string): Promise<boolean> {
  const position = await feedPositionOf(db, name);
  return position !== null && position.gapId === null && (await lastScanId(db)) <= position.lastId;
}

/**
 * One turn of a consumer: claims it, reads up to `limit` scans after its position, and hands those that
 * may go on to `handle` inside a transaction that also moves the position past them, so they are handed
 * on once (what `handle` writes commits with the move, or neither does). Returns how many were handed on;
 * 0 when there were none or another instance holds the consumer.
 */
export async function consumeScanFeed(
  db: Db,
  name: string,
  options: { instance: string; now: Date; leaseMs?: number; limit?: number },
  handle: (trx: Db, scans: FeedEntry[]) => Promise<void>,
): Promise<number> {
  if (await feedIsCurrent(db, name)) return 0;
  const position = await claimFeed(db, name, options.instance, options.now, options.leaseMs ?? 60_000);
  if (!position) return 0;
  try {
    const read = await readEntriesAfter(db, position.lastId, options.limit ?? 500);
    const next = nextScans(read, position, options.now);
    const moved =
      next.position.lastId !== position.lastId ||
      next.position.gapId !== position.gapId ||
      next.position.gapSince !== position.gapSince;
    if (!moved) return 0;
    await db.transaction().execute(async (trx) => {
      if (next.scans.length > 0) await handle(trx, next.scans);
      await moveFeed(trx, name, next.position);
    });
    return next.scans.length;
  } finally {
    await releaseFeed(db, name, options.instance);
  }
}

/**
 * Moves the consumer to the newest scan without reading any, when no one wants the scans now: a consumer
 * with nothing to hand on costs three small reads a run, however busy the short links are. Answers whether
 * no one wanted them (false: the caller hands the scans on).
 *
 * `noOneWants` is asked after the newest scan's id is read, and the consumer moves only up to that id: a
 * scan stored after a webhook (or a forwarding) was added, while this ran, is never skipped.
 */
export async function skipFeedToEnd(
  db: Db,
  name: string,
  instance: string,
  now: Date,
  noOneWants: () => Promise<boolean>,
): Promise<boolean> {
  const last = await lastScanId(db);
  if (!(await noOneWants())) return false;
  const current = await feedPositionOf(db, name);
  if (current !== null && current.gapId === null && last <= current.lastId) return true;
  const position = await claimFeed(db, name, instance, now, 60_000);
  if (!position) return true;
  try {
    if (last !== position.lastId || position.gapId !== null)
      await moveFeed(db, name, { lastId: Math.max(last, position.lastId), gapId: null, gapSince: null });
  } finally {
    await releaseFeed(db, name, instance);
  }
  return true;
}
