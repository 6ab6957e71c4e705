import type { Db } from '../../db/database.js';

export async function wasStripeEventApplied(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('stripe_events').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Records a Stripe event as applied; false when it already was (a replay, or another instance first). */
export async function recordStripeEvent(db: Db, id: string, type: string, at: string): Promise<boolean> {
  const inserted = await db
    .insertInto('stripe_events')
    .values({ id, type, received_at: at })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}
