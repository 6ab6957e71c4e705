import type { Db, NewQrCodeRow, QrCodeRow } from '../../db/database.js';

/** The demo account's SQL (seed.ts): its codes, written and read back inside the seeding transaction. */

/** A demo code; answers its id. */
export function insertDemoCodeReturningId(db: Db, row: NewQrCodeRow): Promise<{ id: number }> {
  return db.insertInto('qr_codes').values(row).returning('id').executeTakeFirstOrThrow();
}

/** A demo code whose id is not needed. */
export function insertDemoCode(db: Db, row: NewQrCodeRow) {
  return db.insertInto('qr_codes').values(row).execute();
}

/** The user's codes, in no particular order. */
export function findCodesOfUser(db: Db, userId: number): Promise<QrCodeRow[]> {
  return db.selectFrom('qr_codes').selectAll().where('user_id', '=', userId).execute();
}
