import { sql } from 'kysely';
import { containsPattern, offsetOf } from '../../../src/api/paging.js';
import type { FolderListQuery, FolderSortKey } from '../../../src/qr/qr-list.schema.js';
import type { Db, FolderRow } from '../../db/database.js';

export function findFolderOf(db: Db, userId: number, id: number): Promise<FolderRow | undefined> {
  return db
    .selectFrom('folders')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function listFoldersOf(db: Db, userId: number) {
  return db
    .selectFrom('folders')
    .leftJoin('qr_codes', 'qr_codes.folder_id', 'folders.id')
    .select((eb) => [
      'folders.id',
      'folders.name',
      'folders.created',
      eb.fn.count<number>('qr_codes.id').as('qr_code_count'),
    ])
    .where('folders.user_id', '=', userId)
    .groupBy(['folders.id', 'folders.name', 'folders.created'])
    .orderBy('folders.name')
    .execute();
}

const folderSortColumns: Record<FolderSortKey, ReturnType<typeof sql>> = {
  name: sql`lower(folders.name)`,
  created: sql`folders.created`,
  qrCodeCount: sql`qr_code_count`,
};

/** The owner's folders a list query keeps (its search), for the page and its count alike. */
function filteredFoldersOf(db: Db, userId: number, query: FolderListQuery) {
  let q = db.selectFrom('folders').where('folders.user_id', '=', userId);
  if (query.search) {
    q = q.where(sql<boolean>`lower(folders.name) like ${containsPattern(query.search)} escape '\\'`);
  }
  return q;
}

/** One page of the owner's folders with their number of codes, searched, sorted and cut by the database. */
export async function listFolderPageOf(db: Db, userId: number, query: FolderListQuery) {
  const count = await filteredFoldersOf(db, userId, query)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const direction = sql.raw(query.order === 'asc' ? 'asc' : 'desc');
  const rows = await filteredFoldersOf(db, userId, query)
    .select((eb) => [
      'folders.id',
      'folders.name',
      'folders.created',
      eb
        .selectFrom('qr_codes')
        .select(eb.fn.countAll<number | string>().as('c'))
        .whereRef('qr_codes.folder_id', '=', 'folders.id')
        .as('qr_code_count'),
    ])
    .orderBy(sql`${folderSortColumns[query.sort]} ${direction}`)
    // The id breaks ties, so paging never shows a folder twice or skips one.
    .orderBy('folders.id', query.order)
    .limit(query.pageSize)
    .offset(offsetOf(query))
    .execute();
  return { rows, total: Number(count.total) };
}

export function insertFolder(db: Db, userId: number, name: string, now: string) {
  return db
    .insertInto('folders')
    .values({ name, user_id: userId, created: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Its codes move to the root, then the folder goes: one transaction. */
export async function deleteFolderKeepingCodes(db: Db, userId: number, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await findFolderOf(trx, userId, id))) return false;
    await trx
      .updateTable('qr_codes')
      .set({ folder_id: null })
      .where('folder_id', '=', id)
      .where('user_id', '=', userId)
      .execute();
    await trx.deleteFrom('folders').where('id', '=', id).execute();
    return true;
  });
}
