import { sql } from 'kysely';
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

/** Bytes of every upload the user keeps (logos and the profile picture). */
/** Which account an upload belongs to (a logo shown to another member of its team). */
export async function findUploadOwner(db: Db, id: string): Promise<number | undefined> {
  const row = await db.selectFrom('uploads').select('user_id').where('id', '=', id).executeTakeFirst();
  return row?.user_id;
}

export async function sumUploadBytesOf(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/** Deletes one of the user's uploads; answers whether there was one. */
export async function deleteUploadOf(db: Db, userId: number, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('uploads')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes logos stored before `before` that no code's design names; answers how many. */
export async function deleteUnusedLogos(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('uploads')
    .where('kind', '=', 'logo')
    .where('created_at', '<', before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('qr_codes')
            .select(sql<number>`1`.as('one'))
            .where(sql<boolean>`cast(qr_codes.customization as text) like '%' || uploads.id || '%'`),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
