import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** The statements of destination checks (migrations/2026-12-08T1000-destination-checks.ts). */

export interface CheckRow {
  url: string;
  host: string;
  state: string;
  failures: number;
  problem: string | null;
  http_status: number | null;
  failing_since: Date | string | null;
  checked_at: Date | string | null;
}

/** The dynamic codes whose URLs are checked: their content, type and smart options, with their owner. */
export function listDynamicCodes(db: Db) {
  return db
    .selectFrom('qr_codes')
    .select(['id', 'user_id', 'name', 'type', 'content', 'redirect_options'])
    .where('is_dynamic', '=', true)
    .orderBy('id')
    .execute();
}

/** Adds the URLs not checked yet (due now), and forgets those no code uses any more. */
export async function syncCheckedUrls(db: Db, urls: ReadonlyMap<string, string>, now: string): Promise<void> {
  const entries = [...urls.entries()];
  for (let i = 0; i < entries.length; i += 250) {
    await db
      .insertInto('destination_checks')
      .values(entries.slice(i, i + 250).map(([url, host]) => ({ url, host, next_check_at: now })))
      .onConflict((oc) => oc.column('url').doNothing())
      .execute();
  }
  const known = await db.selectFrom('destination_checks').select('url').execute();
  const gone = known.map((r) => r.url).filter((url) => !urls.has(url));
  for (let i = 0; i < gone.length; i += 500) {
    await db
      .deleteFrom('destination_checks')
      .where('url', 'in', gone.slice(i, i + 500))
      .execute();
  }
}

/**
 * Claims up to `limit` URLs due for a check until `leaseUntil`, so another instance running the same job
 * takes others (PostgreSQL skips rows another claim holds; SQLite has one writer at a time).
 */
export async function claimDueUrls(
  db: Db,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<CheckRow[]> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const lock = pg ? sql`for update skip locked` : sql``;
  const result = await sql<CheckRow>`
    update destination_checks set claimed_until = ${leaseUntil}
    where url in (
      select url from destination_checks
      where next_check_at <= ${now} and (claimed_until is null or claimed_until < ${now})
      order by next_check_at limit ${limit} ${lock}
    )
    returning url, host, state, failures, problem, http_status, failing_since, checked_at`.execute(db);
  return result.rows;
}

/** Claims one URL now, whenever it was last checked (a user's "Check again"): false when checked in the last `minGapMs`. */
export async function claimUrlNow(
  db: Db,
  url: string,
  now: string,
  notCheckedSince: string,
  leaseUntil: string,
) {
  const result = await db
    .updateTable('destination_checks')
    .set({ claimed_until: leaseUntil })
    .where('url', '=', url)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', notCheckedSince)]))
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returning(['url', 'host', 'state', 'failures', 'problem', 'http_status', 'failing_since', 'checked_at'])
    .executeTakeFirst();
  return result;
}

export async function ensureCheckedUrl(db: Db, url: string, host: string, now: string): Promise<void> {
  await db
    .insertInto('destination_checks')
    .values({ url, host, next_check_at: now })
    .onConflict((oc) => oc.column('url').doNothing())
    .execute();
}

export interface CheckOutcome {
  state: string;
  failures: number;
  problem: string | null;
  httpStatus: number | null;
  failingSince: string | null;
  checkedAt: string;
  nextCheckAt: string;
}

export async function saveCheck(db: Db, url: string, o: CheckOutcome): Promise<void> {
  await db
    .updateTable('destination_checks')
    .set({
      state: o.state,
      failures: o.failures,
      problem: o.problem,
      http_status: o.httpStatus,
      failing_since: o.failingSince,
      checked_at: o.checkedAt,
      next_check_at: o.nextCheckAt,
      claimed_until: null,
    })
    .where('url', '=', url)
    .execute();
}

/** What the checks know of these URLs. */
export async function findChecks(db: Db, urls: readonly string[]): Promise<Map<string, CheckRow>> {
  const map = new Map<string, CheckRow>();
  for (let i = 0; i < urls.length; i += 500) {
    const rows = await db
      .selectFrom('destination_checks')
      .select(['url', 'host', 'state', 'failures', 'problem', 'http_status', 'failing_since', 'checked_at'])
      .where('url', 'in', urls.slice(i, i + 500))
      .execute();
    for (const row of rows) map.set(row.url, row);
  }
  return map;
}

/** Every URL now down (the redirect's fallback-when-down reads these into memory). */
export async function listDownUrls(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('destination_checks').select('url').where('state', '=', 'down').execute();
  return rows.map((r) => r.url);
}

/** One dynamic code of the workspace ("Check again"). */
export function findDynamicCodeOf(db: Db, userId: number, id: number) {
  return db
    .selectFrom('qr_codes')
    .select(['id', 'user_id', 'name', 'type', 'content', 'redirect_options'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('is_dynamic', '=', true)
    .executeTakeFirst();
}

/** A workspace's dynamic codes (for its issues list). */
export function listDynamicCodesOf(db: Db, userId: number) {
  return db
    .selectFrom('qr_codes')
    .select(['id', 'user_id', 'name', 'type', 'content', 'redirect_options'])
    .where('is_dynamic', '=', true)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** Who hears of a workspace's down destinations: its person, or a team's editors, admins and owners. */
export async function listWorkspaceEditors(db: Db, workspaceId: number) {
  const rows = await db
    .selectFrom('users')
    .leftJoin('workspace_members', (join) =>
      join
        .onRef('workspace_members.user_id', '=', 'users.id')
        .on('workspace_members.workspace_id', '=', workspaceId),
    )
    .select([
      'users.id',
      'users.username',
      'users.name',
      'users.email',
      'users.time_zone',
      'users.language',
      'users.browser_language',
    ])
    .where('users.kind', '=', 'person')
    .where('users.email', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('users.id', '=', workspaceId),
        eb('workspace_members.role', 'in', ['editor', 'admin', 'owner']),
      ]),
    )
    .orderBy('users.id')
    .execute();
  return rows.filter((r): r is typeof r & { email: string } => typeof r.email === 'string' && r.email !== '');
}
