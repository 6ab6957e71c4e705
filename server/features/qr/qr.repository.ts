import { sql } from 'kysely';
import { containsPattern, offsetOf } from '../../../src/api/paging.js';
import type { QrCodeListQuery, QrCodeSortKey } from '../../../src/qr/qr-list.schema.js';
import { qrTypes } from '../../../src/qr/qr-types.js';
import { dialectOf } from '../../db/create-db.js';
import { findFolderOf } from '../folders/folders.repository.js';
import { subtractCodeFromUserRollups } from '../scans/scan-rollups.js';
import { lockUserRow } from '../users/users.repository.js';
import type { Db, NewQrCodeRow, QrCodeRow } from '../../db/database.js';

export function listQrCodesOf(db: Db, userId: number): Promise<QrCodeRow[]> {
  return db
    .selectFrom('qr_codes')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A code's scans by people (bots left out) from its daily rollups: what `sort=scans` orders by. */
const scansOfCode = sql<number>`(select coalesce(sum(d.mobile + d.tablet + d.desktop + d.unknown), 0)
  from scan_code_days d where d.qr_code_id = qr_codes.id)`;

const codeSortColumns: Record<QrCodeSortKey, ReturnType<typeof sql>> = {
  created: sql`qr_codes.created`,
  updated: sql`qr_codes.updated`,
  name: sql`lower(qr_codes.name)`,
  scans: scansOfCode,
};

/** The owner's codes a list query keeps: its search and filters, as one where clause for the page and its count. */
function filteredCodesOf(db: Db, userId: number, query: QrCodeListQuery) {
  let q = db.selectFrom('qr_codes').where('qr_codes.user_id', '=', userId);
  if (query.search) {
    q = q.where(sql<boolean>`lower(qr_codes.name) like ${containsPattern(query.search)} escape '\\'`);
  }
  if (query.type === 'url') {
    // A type this version does not know is read as url (normalizeQrType): it is listed with them.
    q = q.where((eb) =>
      eb.or([eb('qr_codes.type', '=', 'url'), eb('qr_codes.type', 'not in', [...qrTypes])]),
    );
  } else if (query.type) {
    q = q.where('qr_codes.type', '=', query.type);
  }
  if (query.dynamic !== undefined) q = q.where('qr_codes.is_dynamic', '=', query.dynamic);
  if (query.folderId === 'root') q = q.where('qr_codes.folder_id', 'is', null);
  else if (query.folderId !== undefined) q = q.where('qr_codes.folder_id', '=', query.folderId);
  if (query.createdFrom) q = q.where('qr_codes.created', '>=', query.createdFrom);
  if (query.createdTo) q = q.where('qr_codes.created', '<', query.createdTo);
  if (query.verdict) q = q.where('qr_codes.scan_verdict', '=', query.verdict);
  return q;
}

/**
 * One page of the owner's codes, searched, filtered, sorted, counted and cut by the database (GET
 * /api/qr-codes): the page and its total come from the same where clause.
 */
export async function listQrCodePageOf(
  db: Db,
  userId: number,
  query: QrCodeListQuery,
): Promise<{ rows: QrCodeRow[]; total: number }> {
  const count = await filteredCodesOf(db, userId, query)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const direction = sql.raw(query.order === 'asc' ? 'asc' : 'desc');
  const rows = await filteredCodesOf(db, userId, query)
    .selectAll('qr_codes')
    .orderBy(sql`${codeSortColumns[query.sort]} ${direction}`)
    // The id breaks ties, so paging never shows a code twice or skips one.
    .orderBy('qr_codes.id', query.order)
    .limit(query.pageSize)
    .offset(offsetOf(query))
    .execute();
  return { rows, total: Number(count.total) };
}

/** The caller's code, or undefined: another user's code is indistinguishable from a missing one. */
export function findQrCodeOf(db: Db, userId: number, id: number): Promise<QrCodeRow | undefined> {
  return db
    .selectFrom('qr_codes')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function countQrCodesOf(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('qr_codes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function insertQrCode(db: Db, row: NewQrCodeRow): Promise<QrCodeRow> {
  return db.insertInto('qr_codes').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateQrCodeRow(
  db: Db,
  userId: number,
  id: number,
  changes: Partial<Pick<QrCodeRow, 'name' | 'content' | 'folder_id' | 'slug'>> & {
    customization?: string;
    updated: string;
  },
): Promise<QrCodeRow | undefined> {
  return db
    .updateTable('qr_codes')
    .set(changes)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Deletes a code, its scans and its rollups, and takes its counts out of its owner's rollups. On
 * PostgreSQL the code's row is locked first: a scan being written meanwhile (its foreign key takes
 * a share lock on that row) either committed before — and is subtracted — or waits and then fails,
 * so the owner's counts never keep a scan of a deleted code. SQLite runs one writer at a time.
 */
export async function deleteQrCodeWithScans(
  db: Db,
  userId: number,
  id: number,
  /** What else commits with the deletion (its webhook event). */
  alongside?: (trx: Db) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    let lookup = trx.selectFrom('qr_codes').select('id').where('id', '=', id).where('user_id', '=', userId);
    if (dialectOf(trx) === 'postgres') lookup = lookup.forUpdate();
    const code = await lookup.executeTakeFirst();
    if (!code) return false;
    await subtractCodeFromUserRollups(trx, userId, id);
    await trx.deleteFrom('qr_scans').where('qr_code_id', '=', id).execute();
    await trx.deleteFrom('qr_codes').where('id', '=', id).execute();
    await alongside?.(trx);
    return true;
  });
}

/** What the owner holds at the moment a new code would be added. */
export interface OwnerState {
  /** How many codes the owner has. */
  count: number;
  /** False when the new code names a folder that is not the owner's. */
  folderFound: boolean;
}

/**
 * Inserts a user's new code in one transaction that holds the user's row, so two creations at once cannot
 * both slip under a limit: `check` sees the owner's state first and throws to refuse.
 */
export async function insertQrCodeOfOwner(
  db: Db,
  row: NewQrCodeRow,
  check: (state: OwnerState) => void,
  /** Runs in the same transaction after the insert (the code's first version). */
  afterInsert?: (trx: Db, inserted: QrCodeRow) => Promise<void>,
): Promise<QrCodeRow> {
  return db.transaction().execute(async (trx) => {
    await lockUserRow(trx, row.user_id);
    const folderFound =
      row.folder_id == null || (await findFolderOf(trx, row.user_id, row.folder_id)) !== undefined;
    check({ count: folderFound ? await countQrCodesOf(trx, row.user_id) : 0, folderFound });
    const inserted = await insertQrCode(trx, row);
    await afterInsert?.(trx, inserted);
    return inserted;
  });
}

/** The owner's dynamic codes with what their short link needs, oldest first (the redirect export). */
export async function listDynamicCodesOf(
  db: Db,
  userId: number,
): Promise<
  (Pick<QrCodeRow, 'id' | 'slug' | 'name' | 'type' | 'content'> & {
    redirectOptions: string | null;
    passwordProtected: boolean;
    domainId: number | null;
  })[]
> {
  return db
    .selectFrom('qr_codes')
    .select([
      'id',
      'slug',
      'name',
      'type',
      'content',
      'redirect_options as redirectOptions',
      'domain_id as domainId',
    ])
    .select((eb) => eb('password_hash', 'is not', null).as('passwordProtected'))
    .where('user_id', '=', userId)
    .where('is_dynamic', '=', true)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, passwordProtected: Boolean(r.passwordProtected) })));
}

/** Stores a code's scan-safety verdict and its first reason (scan-verdicts.ts). */
export function storeScanVerdict(db: Db, userId: number, id: number, verdict: string, reason: string) {
  return db
    .updateTable('qr_codes')
    .set({ scan_verdict: verdict, scan_reason: reason })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
}

/** Up to `limit` codes never checked for scan safety, in id order, leaving out the ids in `skip`. */
export function listUncheckedQrCodes(db: Db, limit: number, skip: ReadonlySet<number>): Promise<QrCodeRow[]> {
  let query = db
    .selectFrom('qr_codes')
    .selectAll()
    .where('scan_verdict', 'is', null)
    .orderBy('id')
    .limit(limit);
  if (skip.size > 0) query = query.where('id', 'not in', [...skip]);
  return query.execute();
}
