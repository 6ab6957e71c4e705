import type { Db } from '../../db/database.js';

export async function insertUpload(
  db: Db,
  upload: { id: string; userId: number; kind: string; mime: string; data: Buffer; createdAt: string },
): Promise<void> {
  await db
    .insertInto('uploads')
    .values({
      id: upload.id,
      user_id: upload.userId,
      kind: upload.kind,
      mime: upload.mime,
      size: upload.data.length,
      data: upload.data,
      created_at: upload.createdAt,
    })
    .execute();
}

/** The user's upload (its type and bytes), or undefined: another user's is indistinguishable from a missing one. */
export function findUploadContentOf(db: Db, userId: number, id: string) {
  return db
    .selectFrom('uploads')
    .select(['mime', 'data'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}
