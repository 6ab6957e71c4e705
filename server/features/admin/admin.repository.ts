import { sql } from 'kysely';
import type { UserSortKey } from '../../../src/admin/admin.schema.js';
import { dialectOf } from '../../db/create-db.js';
import type { Db } from '../../db/database.js';
import type { UserWithCount } from '../users/users.repository.js';

// The admin area's SQL: the users page, a user's deletion, the instance's figures. "Users" are people:
// a team workspace's row of `users` (kind 'team') is never listed, counted or acted on as one.

const sortColumns: Record<UserSortKey, string> = {
  username: 'lower(u.username)',
  name: 'lower(u.name)',
  email: 'lower(u.email)',
  createdAt: 'u.created_at',
  qrCodeCount: 'qr_code_count',
  tier: 'u.subscription_tier',
  status: 'u.subscription_status',
};

/** `%` and `_` in a search are letters, not wildcards. */
function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type ListFilter = { search?: string | undefined; filter: 'all' | 'paid' | 'requests' };

/**
 * The people a search and filter keep (username, name or e-mail containing the search). "Not a team"
 * rather than `kind = 'person'`: an equality on kind makes SQLite walk users_kind_idx and sort every
 * person, instead of walking the index the page is ordered by (created_at, lower(username)) and
 * stopping after one page.
 */
function filteredUsers(db: Db, { search, filter }: ListFilter) {
  let query = db.selectFrom('users as u').where('u.kind', '<>', 'team');
  if (search) {
    const pattern = sql`${likePattern(search)} escape '\\'`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(u.username)`, 'like', pattern),
        eb(sql`lower(coalesce(u.name, ''))`, 'like', pattern),
        eb(sql`lower(coalesce(u.email, ''))`, 'like', pattern),
      ]),
    );
  }
  if (filter === 'paid') query = query.where('u.subscription_tier', '!=', 'free');
  if (filter === 'requests') {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('upgrade_requests as r')
          .select('r.id')
          .whereRef('r.user_id', '=', 'u.id')
          .where('r.status', '=', 'pending'),
      ),
    );
  }
  return query;
}

/**
 * One page of users, searched, filtered, sorted and counted by the database: the page costs about the
 * same at 10 users or 10,000. Each row carries its number of codes.
 */
export async function listUsersPage(
  db: Db,
  input: ListFilter & { sort: UserSortKey; order: 'asc' | 'desc'; page: number; pageSize: number },
): Promise<{ rows: UserWithCount[]; total: number }> {
  const countRow = await filteredUsers(db, input)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const direction = sql.raw(input.order === 'asc' ? 'asc' : 'desc');
  const nulls = sql.raw(input.order === 'asc' ? 'nulls first' : 'nulls last');
  const rows = await filteredUsers(db, input)
    .selectAll('u')
    .select((eb) =>
      eb
        .selectFrom('qr_codes as q')
        .select(eb.fn.countAll<number>().as('c'))
        .whereRef('q.user_id', '=', 'u.id')
        .as('qr_code_count'),
    )
    // The id breaks ties, so paging never shows a row twice or skips one.
    .orderBy(sql`${sql.raw(sortColumns[input.sort])} ${direction} ${nulls}`)
    .orderBy('u.id', input.order)
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize)
    .execute();
  return { rows: rows as UserWithCount[], total: Number(countRow.total) };
}

export async function countAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('is_admin', '=', true)
    .where('kind', '=', 'person')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many admins have an e-mail address (those told about upgrade requests). */
export async function countAdminsWithEmail(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('is_admin', '=', true)
    .where('kind', '=', 'person')
    .where('email', 'is not', null)
    .where('email', '!=', '')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many codes, scans and folders go with a user. */
export async function deletionImpactOf(db: Db, userId: number) {
  const codes = await db
    .selectFrom('qr_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const scans = await db
    .selectFrom('scan_code_days')
    .select(sql<number | string | null>`sum(mobile + tablet + desktop + bot + unknown)`.as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const folders = await db
    .selectFrom('folders')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { qrCodes: Number(codes.n), scans: Number(scans.n ?? 0), folders: Number(folders.n) };
}

/** Tables holding a user's rows directly, deleted before the user (children first). */
const userTables = [
  'scan_user_quarters',
  'scan_user_day_locations',
  'sessions',
  'pending_logins',
  'password_reset_tokens',
  'recovery_codes',
  'known_devices',
  'sent_notifications',
  'upgrade_requests',
  'uploads',
  'api_tokens',
] as const;
/** Tables keyed by a code of the user's. */
const codeTables = [
  'qr_scans',
  'scan_code_quarters',
  'scan_code_days',
  'scan_code_day_locations',
  'scan_code_places',
  'throttled_scans',
  'refused_scans',
] as const;

/**
 * Deletes a user and everything of theirs, explicitly and inside the caller's transaction (the foreign
 * keys would cascade too; this does not depend on them): scans and rollups, codes, folders, uploads,
 * sessions and the rest. Audit entries they wrote keep their name.
 */
export async function deleteUserAndData(trx: Db, userId: number): Promise<void> {
  const codesOfUser = trx.selectFrom('qr_codes').select('id').where('user_id', '=', userId);
  for (const table of codeTables) {
    await trx.deleteFrom(table).where('qr_code_id', 'in', codesOfUser).execute();
  }
  await trx.deleteFrom('qr_codes').where('user_id', '=', userId).execute();
  const tokensOfUser = trx.selectFrom('api_tokens').select('id').where('user_id', '=', userId);
  await trx.deleteFrom('api_token_usage').where('token_id', 'in', tokensOfUser).execute();
  await trx.deleteFrom('folders').where('user_id', '=', userId).execute();
  for (const table of userTables) {
    await trx.deleteFrom(table).where('user_id', '=', userId).execute();
  }
  await trx
    .updateTable('upgrade_requests')
    .set({ decided_by: null })
    .where('decided_by', '=', userId)
    .execute();
  await trx.updateTable('audit_log').set({ actor_id: null }).where('actor_id', '=', userId).execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
}

// ---- The instance at a glance ----

/** Every code, whoever owns it (a person or a team). */
export async function countCodes(db: Db): Promise<number> {
  const row = await db
    .selectFrom('qr_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Scans per UTC day from `fromDay` on (bots left out), from the day rollups. */
export async function sumScansPerDay(db: Db, fromDay: number) {
  const rows = await db
    .selectFrom('scan_code_days')
    .select(['day', sql<number | string>`sum(mobile + tablet + desktop + unknown)`.as('scans')])
    .where('day', '>=', fromDay)
    .groupBy('day')
    .execute();
  return rows.map((r) => ({ day: Number(r.day), scans: Number(r.scans) }));
}

/** The people whose own codes were scanned most since `fromDay` (bots left out; teams' codes are not a person's). */
export async function topUsersByScans(db: Db, fromDay: number, limit: number) {
  const rows = await db
    .selectFrom('scan_code_days as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select([
      'u.id',
      'u.username',
      sql<number | string>`sum(d.mobile + d.tablet + d.desktop + d.unknown)`.as('scans'),
    ])
    .where('d.day', '>=', fromDay)
    .where('u.kind', '=', 'person')
    .groupBy(['u.id', 'u.username'])
    .orderBy('scans', 'desc')
    .orderBy('u.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, username: r.username, scans: Number(r.scans) }));
}

/** Sign-up times since `since`, for the sign-ups chart (a team's creation is no sign-up). */
export async function listSignupTimes(db: Db, since: string) {
  const rows = await db
    .selectFrom('users')
    .select('created_at')
    .where('created_at', '>=', since)
    // Not `= 'person'`: the range on created_at keeps its index (see filteredUsers).
    .where('kind', '<>', 'team')
    .execute();
  return rows.map((r) => r.created_at);
}

/** The database's size on disk in bytes (SQLite: pages × page size; PostgreSQL: the database's size). */
export async function databaseBytes(db: Db): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{
      bytes: string;
    }>`select pg_database_size(current_database()) as bytes`.execute(db);
    return Number(rows[0]?.bytes ?? 0);
  }
  const { rows } = await sql<{
    bytes: number;
  }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(db);
  return Number(rows[0]?.bytes ?? 0);
}
