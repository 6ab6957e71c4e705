import { sql } from 'kysely';
import type { Db, NullableTimestamp } from '../../db/database.js';

/** Shared dashboards' SQL (analytics_shares); the figures they show are read by the analytics' queries. */

type Selected<T> = T extends NullableTimestamp ? Date | string | null : T;

/** A link with the name of what it shows (the code's or the folder's). */
export interface ShareWithTitle {
  id: number;
  owner_id: number;
  qr_code_id: number | null;
  folder_id: number | null;
  token: string;
  password_hash: string | null;
  expires_at: Selected<NullableTimestamp>;
  revoked_at: Selected<NullableTimestamp>;
  created_at: Date | string;
  views: number;
  last_viewed_at: Selected<NullableTimestamp>;
  title: string | null;
}

function sharesWithTitles(db: Db) {
  return (
    db
      .selectFrom('analytics_shares as s')
      // Only while the code or folder is still the owner's: a code moved to another workspace takes no link along.
      .leftJoin('qr_codes as c', (join) =>
        join.onRef('c.id', '=', 's.qr_code_id').onRef('c.user_id', '=', 's.owner_id'),
      )
      .leftJoin('folders as f', (join) =>
        join.onRef('f.id', '=', 's.folder_id').onRef('f.user_id', '=', 's.owner_id'),
      )
      .select([
        's.id',
        's.owner_id',
        's.qr_code_id',
        's.folder_id',
        's.token',
        's.password_hash',
        's.expires_at',
        's.revoked_at',
        's.created_at',
        's.views',
        's.last_viewed_at',
        sql<string | null>`coalesce(c.name, f.name)`.as('title'),
      ])
  );
}

export function insertShare(
  db: Db,
  row: {
    owner_id: number;
    created_by: number;
    qr_code_id: number | null;
    folder_id: number | null;
    token: string;
    token_hash: string;
    password_hash: string | null;
    expires_at: string | null;
    created_at: string;
  },
): Promise<{ id: number }> {
  return db.insertInto('analytics_shares').values(row).returning('id').executeTakeFirstOrThrow();
}

/** The owner's links that still open (not revoked, not expired), newest first; of one code or folder if asked. */
export function listLiveSharesOf(
  db: Db,
  ownerId: number,
  now: string,
  filter: { qrCodeId?: number | undefined; folderId?: number | undefined },
): Promise<ShareWithTitle[]> {
  let q = sharesWithTitles(db)
    .where('s.owner_id', '=', ownerId)
    .where('s.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('s.expires_at', 'is', null), eb('s.expires_at', '>', now)]))
    .where(sql<boolean>`coalesce(c.name, f.name) is not null`)
    .orderBy('s.id', 'desc');
  if (filter.qrCodeId !== undefined) q = q.where('s.qr_code_id', '=', filter.qrCodeId);
  if (filter.folderId !== undefined) q = q.where('s.folder_id', '=', filter.folderId);
  return q.execute();
}

/** One of the owner's links, revoked or not. */
export function findShareOf(db: Db, ownerId: number, id: number): Promise<ShareWithTitle | undefined> {
  return sharesWithTitles(db).where('s.owner_id', '=', ownerId).where('s.id', '=', id).executeTakeFirst();
}

export function findShareByTokenHash(db: Db, tokenHash: string): Promise<ShareWithTitle | undefined> {
  return sharesWithTitles(db).where('s.token_hash', '=', tokenHash).executeTakeFirst();
}

/** Revokes a live link; answers whether it was live. */
export async function revokeShareRow(db: Db, ownerId: number, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('analytics_shares')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** One more view: a single UPDATE of the link's row. */
export async function countShareView(db: Db, id: number, now: string): Promise<void> {
  await db
    .updateTable('analytics_shares')
    .set((eb) => ({ views: eb('views', '+', 1), last_viewed_at: now }))
    .where('id', '=', id)
    .execute();
}

/** The codes in one of the owner's folders: id and name, oldest first. */
export function listCodesInFolder(db: Db, ownerId: number, folderId: number) {
  return db
    .selectFrom('qr_codes')
    .select(['id', 'name'])
    .where('user_id', '=', ownerId)
    .where('folder_id', '=', folderId)
    .orderBy('id')
    .execute();
}
