import type { Db, MailLogTable } from '../../db/database.js';
import type { Insertable } from 'kysely';

/** The mail log's SQL (mailer.ts): what /admin's Email Management shows. */

export function insertMailLogEntry(db: Db, entry: Insertable<MailLogTable>) {
  return db.insertInto('mail_log').values(entry).execute();
}

/** The newest mails first. */
export function listMailLogRows(db: Db, limit: number) {
  return db.selectFrom('mail_log').selectAll().orderBy('id', 'desc').limit(limit).execute();
}
