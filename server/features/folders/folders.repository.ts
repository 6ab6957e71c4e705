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
