import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** Scans by people: every device column but bots. */
const peopleScans = sql<number>`mobile + tablet + desktop + unknown`;

export interface Recipient {
  id: number;
  username: string;
  name: string | null;
  email: string;
  time_zone: string;
  language: string | null;
  browser_language: string | null;
}

/** People who asked for one kind of scan mail and have an address to send it to (never a team's row). */
export async function listRecipients(
  db: Db,
  kind: 'notify_scan_digest' | 'notify_scan_thresholds',
): Promise<Recipient[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'name', 'email', 'time_zone', 'language', 'browser_language'])
    .where(kind, '=', true)
    .where('kind', '=', 'person')
    .where('email', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.filter((r): r is Recipient => typeof r.email === 'string' && r.email !== '');
}

/** A user's scans by people per code over quarter-hour buckets [from, to), busiest first. */
export async function sumScansPerCodeBetween(db: Db, userId: number, fromBucket: number, toBucket: number) {
  const rows = await db
    .selectFrom('scan_code_quarters as q')
    .innerJoin('qr_codes as c', 'c.id', 'q.qr_code_id')
    .select(['c.id', 'c.name', (eb) => eb.fn.sum<number | string>(peopleScans).as('scans')])
    .where('c.user_id', '=', userId)
    .where('q.bucket', '>=', fromBucket)
    .where('q.bucket', '<', toBucket)
    .groupBy(['c.id', 'c.name'])
    .execute();
  return rows
    .map((r) => ({ id: r.id, name: r.name, scans: Number(r.scans) }))
    .filter((r) => r.scans > 0)
    .sort((a, b) => b.scans - a.scans || a.id - b.id);
}

/** Every code of a user with its total scans by people. */
export async function sumScansPerCodeOf(db: Db, userId: number) {
  const rows = await db
    .selectFrom('scan_code_days as d')
    .innerJoin('qr_codes as c', 'c.id', 'd.qr_code_id')
    .select(['c.id', 'c.name', (eb) => eb.fn.sum<number | string>(peopleScans).as('scans')])
    .where('c.user_id', '=', userId)
    .groupBy(['c.id', 'c.name'])
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, scans: Number(r.scans) }));
}

/**
 * Claims a notification by its key: true for the one caller that wrote it (it sends the mail), false for
 * everyone else, on every instance. The primary key decides.
 */
export async function claimNotification(db: Db, key: string, userId: number, now: string): Promise<boolean> {
  const result = await db
    .insertInto('sent_notifications')
    .values({ key, user_id: userId, sent_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Gives a claim back when its mail could not be sent, so the next run tries again. */
export async function releaseNotification(db: Db, key: string): Promise<void> {
  await db.deleteFrom('sent_notifications').where('key', '=', key).execute();
}

export async function hasNotification(db: Db, key: string): Promise<boolean> {
  return (
    (await db.selectFrom('sent_notifications').select('key').where('key', '=', key).executeTakeFirst()) !==
    undefined
  );
}
