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

/** An event about a Stripe subscription, placed in that subscription's order. */
export interface SubscriptionEventOrder {
  subscriptionId: string;
  eventId: string;
  type: string;
  /** Stripe's `created` of the event, Unix seconds. */
  created: number;
  /** Among events of the same second, the higher rank wins; an equal rank is applied too. */
  rank: number;
}

/**
 * Makes the event the last one applied to its subscription when it is newer than the one stored (a later
 * second, or the same second at an equal or higher rank); false when it is older and must change nothing.
 * One conditional upsert, so two deliveries at once cannot both pass on PostgreSQL.
 */
export async function claimSubscriptionEvent(
  db: Db,
  event: SubscriptionEventOrder,
  at: string,
): Promise<boolean> {
  const result = await db
    .insertInto('stripe_subscription_events')
    .values({
      subscription_id: event.subscriptionId,
      event_id: event.eventId,
      event_type: event.type,
      event_created: event.created,
      event_rank: event.rank,
      applied_at: at,
    })
    .onConflict((oc) =>
      oc
        .column('subscription_id')
        .doUpdateSet((eb) => ({
          event_id: eb.ref('excluded.event_id'),
          event_type: eb.ref('excluded.event_type'),
          event_created: eb.ref('excluded.event_created'),
          event_rank: eb.ref('excluded.event_rank'),
          applied_at: eb.ref('excluded.applied_at'),
        }))
        .where((eb) =>
          eb.or([
            eb('stripe_subscription_events.event_created', '<', eb.ref('excluded.event_created')),
            eb.and([
              eb('stripe_subscription_events.event_created', '=', eb.ref('excluded.event_created')),
              eb('stripe_subscription_events.event_rank', '<=', eb.ref('excluded.event_rank')),
            ]),
          ]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

// ---- Upgrade requests (instances without Stripe) ----

/** Pending upgrade requests of these users, by user id. */
export async function pendingRequestsOf(db: Db, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('upgrade_requests')
    .selectAll()
    .where('user_id', 'in', userIds)
    .where('status', '=', 'pending')
    .execute();
}

/** How many upgrade requests wait for an admin (those of existing users: the list an admin can act on). */
export async function countPendingRequests(db: Db): Promise<number> {
  const row = await db
    .selectFrom('upgrade_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('r.status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findUpgradeRequest(db: Db, id: number) {
  return db.selectFrom('upgrade_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertUpgradeRequest(db: Db, userId: number, tier: string, createdAt: string) {
  return db
    .insertInto('upgrade_requests')
    .values({ user_id: userId, tier, created_at: createdAt })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Decides a pending request; false when it was no longer pending (another admin was first). */
export async function decidePendingRequest(
  db: Db,
  id: number,
  decision: { status: 'approved' | 'declined'; at: string; by: number },
): Promise<boolean> {
  const result = await db
    .updateTable('upgrade_requests')
    .set({ status: decision.status, decided_at: decision.at, decided_by: decision.by })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
