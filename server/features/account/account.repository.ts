import { sql } from 'kysely';
import { containsPattern, offsetOf } from '../../../src/api/paging.js';
import type { SessionListQuery } from '../../../src/auth/session-list.schema.js';
import type { Db, UserRow } from '../../db/database.js';

/** The user's own columns a profile edit may change. */
export async function updateProfileRow(
  db: Db,
  id: number,
  changes: { name: string; email: string; emailVerified?: boolean; emailChangePending?: boolean },
): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({
      name: changes.name,
      email: changes.email,
      ...(changes.emailVerified === undefined ? {} : { email_verified: changes.emailVerified }),
      ...(changes.emailChangePending === undefined
        ? {}
        : { email_change_pending: changes.emailChangePending }),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setProfilePicture(db: Db, id: number, url: string): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({ profile_picture: url })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface PreferenceColumns {
  theme?: string;
  notify_product_updates?: boolean;
  notify_scan_digest?: boolean;
  notify_scan_thresholds?: boolean;
  login_alerts?: boolean;
  time_zone?: string;
  language?: string | null;
}

export function findPreferenceRow(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select([
      'theme',
      'notify_product_updates',
      'notify_scan_digest',
      'notify_scan_thresholds',
      'login_alerts',
      'time_zone',
      'language',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export async function updatePreferenceRow(db: Db, id: number, changes: PreferenceColumns): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** The user's sessions that have not reached their absolute end, most recently seen first. */
export function listSessionsOf(db: Db, userId: number, now: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'ip_address', 'user_agent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .execute();
}

/** The user's live sessions a list query keeps, for the page and its count alike. */
function filteredSessionsOf(db: Db, userId: number, now: string, query: SessionListQuery) {
  let q = db.selectFrom('sessions').where('user_id', '=', userId).where('expires_at', '>', now);
  if (query.search) {
    q = q.where(
      sql<boolean>`lower(coalesce(user_agent, '')) like ${containsPattern(query.search)} escape '\\'`,
    );
  }
  return q;
}

/** One page of the user's live sessions, searched, sorted and cut by the database. */
export async function listSessionPageOf(db: Db, userId: number, now: string, query: SessionListQuery) {
  const count = await filteredSessionsOf(db, userId, now, query)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await filteredSessionsOf(db, userId, now, query)
    .select(['id', 'created_at', 'last_seen_at', 'ip_address', 'user_agent'])
    .orderBy(query.sort === 'created' ? 'created_at' : 'last_seen_at', query.order)
    // The session's id breaks ties (never shown: the answer names sessions by a hash of it).
    .orderBy('id', query.order)
    .limit(query.pageSize)
    .offset(offsetOf(query))
    .execute();
  return { rows, total: Number(count.total) };
}

export async function deleteSessionOf(db: Db, userId: number, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every session of the user but `keepId` (none kept when it is null); answers how many ended. */
export async function deleteOtherSessionsOf(db: Db, userId: number, keepId: string | null): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId) query = query.where('id', '!=', keepId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes one of the user's own uploads (a replaced profile picture). */
export async function deleteUploadOf(db: Db, userId: number, id: string): Promise<void> {
  await db.deleteFrom('uploads').where('id', '=', id).where('user_id', '=', userId).execute();
}
