import type { Db, MailLogTable, MailQueueTable } from '../../db/database.js';
import type { Insertable, Selectable, Updateable } from 'kysely';

/** The mail log's SQL (mailer.ts): what /admin's Email Management shows. */

export function insertMailLogEntry(db: Db, entry: Insertable<MailLogTable>) {
  return db.insertInto('mail_log').values(entry).execute();
}

/** The newest mails first. */
export function listMailLogRows(db: Db, limit: number) {
  return db.selectFrom('mail_log').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** The mail queue's SQL (mail-queue.service.ts): mails whose first attempt failed. */

export type QueuedMailRow = Selectable<MailQueueTable>;

export async function insertQueuedMail(db: Db, row: Insertable<MailQueueTable>): Promise<number> {
  const { id } = await db.insertInto('mail_queue').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Drops the mails that wait under `key` (not one being sent): a newer mail replaces them. */
export async function deleteWaitingMails(db: Db, key: string, exceptId?: number): Promise<number> {
  let query = db.deleteFrom('mail_queue').where('replace_key', '=', key).where('status', '=', 'pending');
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Mails due by `now`: waiting ones, and claimed ones whose claim ran out (their instance died). */
export async function findDueMailIds(db: Db, now: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('mail_queue')
    .select('id')
    .where('status', 'in', ['pending', 'sending'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Takes one mail for one attempt, atomically: of several instances asking at once, one gets the row
 * (its status becomes 'sending', its attempts grow by one, `next_attempt_at` becomes the end of the
 * claim), the others get nothing. `dueBy`: only a mail due by then (the retrier); null: at any time
 * (an admin's Retry now).
 */
export function claimQueuedMail(
  db: Db,
  id: number,
  claim: { statuses: readonly string[]; dueBy: string | null; leaseUntil: string },
) {
  let query = db
    .updateTable('mail_queue')
    .set((eb) => ({
      status: 'sending',
      attempts: eb('attempts', '+', 1),
      next_attempt_at: claim.leaseUntil,
    }))
    .where('id', '=', id)
    .where('status', 'in', [...claim.statuses]);
  if (claim.dueBy !== null) query = query.where('next_attempt_at', '<=', claim.dueBy);
  return query.returningAll().executeTakeFirst();
}

/** Records an attempt's outcome, only while the claim is still this attempt's (same attempts count). */
export async function finishAttempt(
  db: Db,
  claimed: { id: number; attempts: number },
  changes: Updateable<MailQueueTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('mail_queue')
    .set(changes)
    .where('id', '=', claimed.id)
    .where('status', '=', 'sending')
    .where('attempts', '=', claimed.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function findQueuedMail(db: Db, id: number) {
  return db.selectFrom('mail_queue').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Waiting, being sent and given up: the newest first. */
export function listUnsentMailRows(db: Db, limit: number) {
  return db
    .selectFrom('mail_queue')
    .select([
      'id',
      'recipient',
      'subject',
      'status',
      'attempts',
      'next_attempt_at',
      'expires_at',
      'last_error',
      'created_at',
      'finished_at',
    ])
    .where('status', 'in', ['pending', 'sending', 'given-up'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** How many mails are in each status. */
export async function countQueuedMailsByStatus(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('mail_queue')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/** Deletes finished mails (sent or given up) finished before `before`. */
export async function deleteFinishedMails(db: Db, status: 'sent' | 'given-up', before: string) {
  const result = await db
    .deleteFrom('mail_queue')
    .where('status', '=', status)
    .where('finished_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
