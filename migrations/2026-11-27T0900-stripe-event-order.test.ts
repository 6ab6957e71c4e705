import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { ownTableNames } from '../server/test/test-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-27T0900-stripe-event-order';

const previous = previousOf(THIS);

/** 2100-01-01 in Unix seconds: past what a 32-bit integer holds. */
const LATE = 4_102_444_800;

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previous);
  // The previous release's data: a user paying through Stripe and the events already applied.
  const now = '2026-11-20T08:00:00.000Z';
  await sql`insert into users (username, password, subscription_tier, subscription_status, stripe_customer_id,
            stripe_subscription_id, created_at)
            values ('ada', 'hash', 'premium', 'active', 'cus_1', 'sub_1', ${now})`.execute(db);
  await sql`insert into stripe_events (id, type, received_at)
            values ('evt_1', 'checkout.session.completed', ${now}),
                   ('evt_2', 'customer.subscription.updated', ${now})`.execute(db);

  await migrateTo(db, THIS);

  // Untouched: the plan, and the events applied (a replay of them is still a duplicate).
  expect(
    await db
      .selectFrom('users')
      .select(['username', 'subscription_tier', 'subscription_status', 'stripe_subscription_id'])
      .execute(),
  ).toEqual([
    {
      username: 'ada',
      subscription_tier: 'premium',
      subscription_status: 'active',
      stripe_subscription_id: 'sub_1',
    },
  ]);
  expect(await db.selectFrom('stripe_events').select(['id', 'type']).orderBy('id').execute()).toEqual([
    { id: 'evt_1', type: 'checkout.session.completed' },
    { id: 'evt_2', type: 'customer.subscription.updated' },
  ]);
  // Nothing known of the order of earlier events: each subscription's order starts with its next one.
  expect(await db.selectFrom('stripe_subscription_events').selectAll().execute()).toEqual([]);

  // One row per subscription, holding a time past 2038, stamped when applied.
  await db
    .insertInto('stripe_subscription_events')
    .values({
      subscription_id: 'sub_1',
      event_id: 'evt_3',
      event_type: 'customer.subscription.deleted',
      event_created: LATE,
      event_rank: 2,
    })
    .execute();
  const [row] = await db.selectFrom('stripe_subscription_events').selectAll().execute();
  expect({ ...row, event_created: Number(row?.event_created), applied_at: undefined }).toEqual({
    subscription_id: 'sub_1',
    event_id: 'evt_3',
    event_type: 'customer.subscription.deleted',
    event_created: LATE,
    event_rank: 2,
    applied_at: undefined,
  });
  expect(Number.isNaN(new Date(row!.applied_at).getTime())).toBe(false);
  await expect(
    db
      .insertInto('stripe_subscription_events')
      .values({
        subscription_id: 'sub_1',
        event_id: 'evt_4',
        event_type: 'customer.subscription.updated',
        event_created: LATE,
        event_rank: 1,
        applied_at: now,
      })
      .execute(),
  ).rejects.toThrow();

  await migrateTo(db, previous);
  const tables = await ownTableNames(db);
  expect(tables).not.toContain('stripe_subscription_events');
  expect(tables).toContain('stripe_events');
}

describeMigration(THIS, upgradeWithData);
