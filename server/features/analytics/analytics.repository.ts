import { sql, type RawBuilder } from 'kysely';
import { containsPattern } from '../../../src/api/paging.js';
import type { Db } from '../../db/database.js';
import { deviceColumns, QUARTER_MS } from '../scans/rollup-model.js';
import { BOT_DEVICE_CODE, deviceOfCode } from '../scans/scan-columns.js';
import type { UtcDays } from './period.js';

/**
 * The analytics' SQL, and nothing else: reads of the scan rollups (their tables and units are
 * described in scans/rollup-model.ts) and of the raw scans, each named after what it returns. Time
 * ranges arrive in ms ([from, to), `to` may be Infinity) or as whole UTC days; periods, zones and
 * the shape of the answers are the service's (analytics.service.ts, report-data.ts).
 */

/**
 * Raw scans are lean (scan-columns.ts): `at` in ms, the device as a code, and the user agent,
 * referrer and location as ids of dictionaries, joined back here when a query returns them.
 */

/** Raw scans that are not bots. */
function notBotScan(column: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} <> ${sql.lit(BOT_DEVICE_CODE)}`;
}

const isBotScan = sql<number>`case when s.device = ${sql.lit(BOT_DEVICE_CODE)} then 1 else 0 end`;

/** Each device column summed, under its own name. */
const sumDevices = deviceColumns.map((c) => sql<number>`sum(${sql.ref(c)})`.as(c));

/**
 * The unique scanners counted in the rows (unique-scanners.ts), and how many rows counted theirs
 * before unique scanners were (null: unknown, left out of the sum).
 */
const sumUniques = [
  sql<number | null>`sum(unique_scanners)`.as('unique_scanners'),
  sql<number>`sum(case when unique_scanners is null then 1 else 0 end)`.as('unknown_uniques'),
];

const sumScans = (excludeBots: boolean) =>
  sql.raw(`sum(mobile + tablet + desktop + unknown${excludeBots ? '' : ' + bot'})`);

const iso = (ms: number) => new Date(ms).toISOString();

// ---------------------------------------------------------------------------------------------------
// Quarter hours: a user's (all their codes) or one code's

/**
 * Whose quarter hours: a user's (scan_user_quarters), one code's, or the codes of one of a user's
 * folders (scan_code_quarters; a shared dashboard).
 */
export type QuarterSource = { userId: number } | { codeId: number } | FolderScope;

/** The codes of one folder of a user. */
export interface FolderScope {
  userId: number;
  folderId: number;
}

/** The ids of the codes in the user's folder (a subquery). */
function codesOfFolder(scope: FolderScope): RawBuilder<unknown> {
  return sql`(select id from qr_codes where user_id = ${scope.userId} and folder_id = ${scope.folderId})`;
}

function quartersOf(source: QuarterSource) {
  if ('folderId' in source) {
    return {
      table: 'scan_code_quarters' as const,
      match: sql<boolean>`qr_code_id in ${codesOfFolder(source)}`,
    };
  }
  return 'userId' in source
    ? { table: 'scan_user_quarters' as const, match: sql<boolean>`${sql.ref('user_id')} = ${source.userId}` }
    : {
        table: 'scan_code_quarters' as const,
        match: sql<boolean>`${sql.ref('qr_code_id')} = ${source.codeId}`,
      };
}

/** The source's first quarter-hour bucket, or null when it has none. */
export async function findFirstBucket(db: Db, source: QuarterSource): Promise<number | null> {
  const { table, match } = quartersOf(source);
  const first = await db
    .selectFrom(table)
    .select((eb) => eb.fn.min<number>('bucket').as('b'))
    .where(match)
    .executeTakeFirst();
  return first?.b === null || first?.b === undefined ? null : Number(first.b);
}

/** A stretch of time [from, to) in ms throughout which the viewer's zone is `offset` ms from UTC. */
export interface OffsetStretch {
  from: number;
  to: number;
  offset: number;
}

/**
 * The source's scans in a stretch, grouped in the database by local day or local hour: quarter-hour
 * buckets are shifted by the stretch's offset and grouped, so a 90-day series reads ~90 grouped
 * rows, not ~8,600 buckets.
 */
function sumScansByLocal(
  db: Db,
  source: QuarterSource,
  stretch: OffsetStretch,
  excludeBots: boolean,
  unit: 'day' | 'hourOfDay',
) {
  const { table, match } = quartersOf(source);
  const minutes = sql`(bucket * 15 + ${sql.lit(Math.round(stretch.offset / 60_000))})`;
  const group = unit === 'day' ? sql<number>`${minutes} / 1440` : sql<number>`(${minutes} / 60) % 24`;
  return db
    .selectFrom(table)
    .select([group.as('k'), sumScans(excludeBots).as('n'), ...sumUniques])
    .where(match)
    .where('bucket', '>=', Math.floor(stretch.from / QUARTER_MS))
    .where('bucket', '<', Math.ceil(stretch.to / QUARTER_MS))
    .groupBy(group)
    .execute();
}

/**
 * Scans per local day (days since the epoch in the viewer's zone) in a stretch: rows { k: day, n },
 * with the day's unique scanners (`sumUniques`).
 */
export function sumScansByLocalDay(
  db: Db,
  source: QuarterSource,
  stretch: OffsetStretch,
  excludeBots: boolean,
) {
  return sumScansByLocal(db, source, stretch, excludeBots, 'day');
}

/** Scans per local hour of the day (0–23) in a stretch: rows { k: hour, n }. */
export function sumScansByLocalHour(
  db: Db,
  source: QuarterSource,
  stretch: OffsetStretch,
  excludeBots: boolean,
) {
  return sumScansByLocal(db, source, stretch, excludeBots, 'hourOfDay');
}

// ---------------------------------------------------------------------------------------------------
// A user's codes

/** The user's codes, oldest first: id, name and type. */
export function listCodesOf(db: Db, userId: number) {
  return db
    .selectFrom('qr_codes')
    .select(['id', 'name', 'type'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** Device counts per code of the user over whole UTC days (scan_code_days). */
export function sumDevicesPerCodeOverUtcDays(db: Db, userId: number, days: UtcDays) {
  let q = db
    .selectFrom('scan_code_days')
    .select(['qr_code_id', ...sumDevices, ...sumUniques])
    .where('user_id', '=', userId)
    .groupBy('qr_code_id');
  if (days.first > -Infinity) q = q.where('day', '>=', days.first);
  if (days.end < Infinity) q = q.where('day', '<', days.end);
  return q.execute();
}

/** Device counts per code of the user in [from, to) ms by quarter hour (the ragged ends of a period). */
export function sumDevicesPerCodeOverRange(db: Db, userId: number, from: number, to: number) {
  let q = db
    .selectFrom('scan_code_quarters as q')
    .innerJoin('qr_codes as c', 'c.id', 'q.qr_code_id')
    .select(['q.qr_code_id', ...sumDevices, ...sumUniques])
    .where('c.user_id', '=', userId)
    .where('q.bucket', '>=', Math.floor(from / QUARTER_MS))
    .groupBy('q.qr_code_id');
  if (to < Infinity) q = q.where('q.bucket', '<', Math.ceil(to / QUARTER_MS));
  return q.execute();
}

/**
 * When the user's codes were last scanned (by a person, when bots are excluded), or null: the latest
 * quarter hour with such a scan from the rollups, then the latest raw scan from that quarter hour on.
 */
export async function findLastScanAt(db: Db, userId: number, excludeBots: boolean): Promise<number | null> {
  const nonBot = sql<number>`mobile + tablet + desktop + unknown`;
  const latest = await db
    .selectFrom('scan_user_quarters')
    .select((eb) => eb.fn.max('bucket').as('bucket'))
    .where('user_id', '=', userId)
    .where(excludeBots ? sql<boolean>`${nonBot} > 0` : sql<boolean>`${nonBot} + bot > 0`)
    .executeTakeFirst();
  if (latest?.bucket === null || latest?.bucket === undefined) return null;
  let q = db
    .selectFrom('qr_scans as s')
    .select((eb) => eb.fn.max('s.at').as('at'))
    .where('s.qr_code_id', 'in', (eb) => eb.selectFrom('qr_codes').select('id').where('user_id', '=', userId))
    .where('s.at', '>=', Number(latest.bucket) * QUARTER_MS);
  if (excludeBots) q = q.where(notBotScan('s.device'));
  const row = await q.executeTakeFirst();
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}

/**
 * Scans and bot scans per location over whole UTC days: of a user's codes (scan_user_day_locations), of one
 * code, or of the codes in one of a user's folders (scan_code_day_locations), as quartersOf picks.
 */
export function sumLocationsOverUtcDays(db: Db, source: QuarterSource, days: UtcDays) {
  const { table, match } =
    'folderId' in source
      ? {
          table: 'scan_code_day_locations' as const,
          match: sql<boolean>`qr_code_id in ${codesOfFolder(source)}`,
        }
      : 'userId' in source
        ? { table: 'scan_user_day_locations' as const, match: sql<boolean>`user_id = ${source.userId}` }
        : { table: 'scan_code_day_locations' as const, match: sql<boolean>`qr_code_id = ${source.codeId}` };
  let q = db
    .selectFrom(table)
    .select([
      'location',
      (eb) => eb.fn.sum<number>('scans').as('scans'),
      (eb) => eb.fn.sum<number>('bots').as('bots'),
    ])
    .where(match)
    .groupBy('location');
  if (days.first > -Infinity) q = q.where('day', '>=', days.first);
  if (days.end < Infinity) q = q.where('day', '<', days.end);
  return q.execute();
}

/** Whose raw scans: all of a user's codes, one code, or the codes of one of the user's folders. */
export type ScanScope = { userId: number } | { codeId: number } | FolderScope;

/** Scans and bot scans per location in [from, to) ms, from the raw scans of `scope`. */
export function countRawScansByLocation(db: Db, scope: ScanScope, from: number, to: number) {
  const location = sql<string>`coalesce(nullif(l.value, ''), 'Unknown')`;
  let q = db
    .selectFrom('qr_scans as s')
    .leftJoin('scan_locations as l', 'l.id', 's.location_id')
    .select([
      location.as('location'),
      (eb) => eb.fn.countAll().as('scans'),
      sql<number>`sum(${isBotScan})`.as('bots'),
    ])
    .where((eb) =>
      'codeId' in scope
        ? eb('s.qr_code_id', '=', scope.codeId)
        : 'folderId' in scope
          ? sql<boolean>`s.qr_code_id in ${codesOfFolder(scope)}`
          : eb(
              's.qr_code_id',
              'in',
              eb.selectFrom('qr_codes').select('id').where('user_id', '=', scope.userId),
            ),
    )
    .where('s.at', '>=', from)
    .groupBy(location);
  if (to < Infinity) q = q.where('s.at', '<', to);
  return q.execute();
}

// ---------------------------------------------------------------------------------------------------
// One code

/** How many raw scans of the code are kept (with SCAN_RETENTION_DAYS, fewer than its total). */
export async function countRawScansOfCode(
  db: Db,
  codeId: number,
  excludeBots: boolean,
  search?: string,
): Promise<number> {
  let q = db
    .selectFrom('qr_scans')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('qr_code_id', '=', codeId);
  if (excludeBots) q = q.where(notBotScan('device'));
  if (search) q = q.where('location_id', 'in', placesMatching(db, search));
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The ids of the places whose name contains `search`, in any letter case (`%` and `_` as typed). */
function placesMatching(db: Db, search: string) {
  return db
    .selectFrom('scan_locations')
    .select('id')
    .where(sql<boolean>`lower(value) like ${containsPattern(search)} escape '\\'`);
}

/** A page of the code's raw scans, newest first unless `order` says otherwise (pages count from 1). */
export async function listScanHistoryPage(
  db: Db,
  codeId: number,
  page: { page: number; pageSize: number; excludeBots: boolean; order?: 'asc' | 'desc'; search?: string },
) {
  const order = page.order ?? 'desc';
  let paged = db
    .selectFrom('qr_scans')
    .select(['id', 'at', 'user_agent_id', 'location_id', 'ip_address', 'device', 'refused', 'rule'])
    .where('qr_code_id', '=', codeId)
    .orderBy('at', order)
    .orderBy('id', order)
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  if (page.excludeBots) paged = paged.where(notBotScan('device'));
  if (page.search) paged = paged.where('location_id', 'in', placesMatching(db, page.search));
  // The page first, then its dictionary values: the rows an offset skips are never joined.
  const rows = await db
    .selectFrom(paged.as('s'))
    .leftJoin('scan_user_agents as a', 'a.id', 's.user_agent_id')
    .leftJoin('scan_locations as l', 'l.id', 's.location_id')
    .select([
      's.id',
      's.at',
      'a.value as user_agent',
      'l.value as location',
      's.ip_address',
      's.device',
      's.refused',
      's.rule',
    ])
    .orderBy('s.at', order)
    .orderBy('s.id', order)
    .execute();
  return rows.map(({ at, device, ...row }) => ({
    ...row,
    timestamp: iso(Number(at)),
    device: deviceOfCode(device),
  }));
}

/**
 * The code's kept raw scans per outcome (`refused`, `rule`: src/qr/scan-outcome.ts), from `fromMs` on
 * when given. Read through the (qr_code_id, at) index: one code's rows, for its details page.
 */
export async function countScanOutcomesOfCode(
  db: Db,
  codeId: number,
  options: { fromMs: number | null; excludeBots: boolean },
) {
  let q = db
    .selectFrom('qr_scans')
    .select(['refused', 'rule', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('qr_code_id', '=', codeId)
    .groupBy(['refused', 'rule']);
  if (options.fromMs !== null) q = q.where('at', '>=', options.fromMs);
  if (options.excludeBots) q = q.where(notBotScan('device'));
  const rows = await q.execute();
  return rows.map((r) => ({ refused: r.refused, rule: r.rule, n: Number(r.n) }));
}

/**
 * The code's scans by people that were served (what its scan limit counts: scan-counts.ts), all time:
 * its rollups' scans by people less those refused (password forms and the owner's tests included).
 */
export async function countServedScansOfCode(db: Db, codeId: number): Promise<number> {
  const [rolled, refused] = await Promise.all([
    db
      .selectFrom('scan_code_days')
      .select(sql<number | string | null>`sum(mobile + tablet + desktop + unknown)`.as('n'))
      .where('qr_code_id', '=', codeId)
      .executeTakeFirst(),
    db
      .selectFrom('refused_scans')
      .select(sql<number | string | null>`sum(scans - bots)`.as('n'))
      .where('qr_code_id', '=', codeId)
      .executeTakeFirst(),
  ]);
  return Math.max(0, Number(rolled?.n ?? 0) - Number(refused?.n ?? 0));
}

/** The code's device counts and unique scanners over all time (undefined or nulls when it has none). */
export function sumDevicesOfCode(db: Db, codeId: number) {
  return db
    .selectFrom('scan_code_days')
    .select([...sumDevices, ...sumUniques])
    .where('qr_code_id', '=', codeId)
    .executeTakeFirst();
}

/** Scans of the code counted apart: one client beyond its per-minute limit (scan-throttle.ts). */
export async function countThrottledScansOfCode(db: Db, codeId: number): Promise<number> {
  const row = await db
    .selectFrom('throttled_scans')
    .select((eb) => eb.fn.sum<number | string | null>('scans').as('n'))
    .where('qr_code_id', '=', codeId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** How many places the code was scanned from (by a person, when bots are excluded). */
export async function countPlacesOfCode(db: Db, codeId: number, excludeBots: boolean): Promise<number> {
  const row = await db
    .selectFrom('scan_code_places')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('qr_code_id', '=', codeId)
    // Without bots, a place only bots came from is not a location anyone scanned from.
    .where(excludeBots ? sql<boolean>`scans > bots` : sql<boolean>`scans > 0`)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------------
// Reports

/** The user's codes with their kind, creation time and latest scan in [from, to) ms (or null). */
export function listCodesWithLastScan(
  db: Db,
  userId: number,
  from: number,
  to: number,
  excludeBots: boolean,
) {
  return db
    .selectFrom('qr_codes as c')
    .select(['c.id', 'c.is_dynamic', 'c.created'])
    .select((eb) => {
      let last = eb
        .selectFrom('qr_scans as s')
        .select('s.at')
        .whereRef('s.qr_code_id', '=', 'c.id')
        .where('s.at', '>=', from)
        .where('s.at', '<', to)
        .orderBy('s.at', 'desc')
        .limit(1);
      if (excludeBots) last = last.where(notBotScan('s.device'));
      return last.as('last_scan');
    })
    .where('c.user_id', '=', userId)
    .execute();
}

/** The user's quarter-hour rows with buckets in [fromBucket, belowBucket), newest first, at most `limit`. */
export function listUserQuartersNewestFirst(
  db: Db,
  userId: number,
  fromBucket: number,
  belowBucket: number,
  limit: number,
) {
  return db
    .selectFrom('scan_user_quarters')
    .select(['bucket', ...deviceColumns])
    .where('user_id', '=', userId)
    .where('bucket', '>=', fromBucket)
    .where('bucket', '<', belowBucket)
    .orderBy('bucket', 'desc')
    .limit(limit)
    .execute();
}

/**
 * A keyset page of the raw scans of the user's codes in [from, to) ms, newest first: at most `limit`
 * rows, all before `after` in (at, id) order when given.
 */
export async function listScansPageNewestFirst(
  db: Db,
  userId: number,
  page: {
    from: number;
    to: number;
    after: { at: number; id: number } | null;
    limit: number;
    excludeBots: boolean;
  },
) {
  let q = db
    .selectFrom('qr_scans as s')
    .leftJoin('scan_locations as l', 'l.id', 's.location_id')
    .leftJoin('scan_referrers as r', 'r.id', 's.referrer_id')
    .select([
      's.id',
      's.qr_code_id',
      's.at',
      's.device',
      'l.value as location',
      'r.value as referrer',
      's.ip_address',
    ])
    .where('s.qr_code_id', 'in', (eb) => eb.selectFrom('qr_codes').select('id').where('user_id', '=', userId))
    .where('s.at', '>=', page.from)
    .where('s.at', '<', page.to)
    .orderBy('s.at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(page.limit);
  if (page.after) {
    const { at, id } = page.after;
    q = q.where((eb) => eb(eb.refTuple('s.at', 's.id'), '<', eb.tuple(at, id)));
  }
  if (page.excludeBots) q = q.where(notBotScan('s.device'));
  const rows = await q.execute();
  return rows.map((row) => ({ ...row, at: Number(row.at), device: deviceOfCode(row.device) }));
}
