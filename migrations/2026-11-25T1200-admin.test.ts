import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { ownTableNames } from '../server/test/test-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-25T1200-admin';

const previous = previousOf(THIS);

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previous);
  // The previous release's data: an admin, a paid user with a Stripe subscription and a code.
  const now = new Date().toISOString();
  await sql`insert into users (username, password, is_admin, created_at) values ('root', 'hash', ${handle.dialect === 'postgres' ? sql`true` : sql`1`}, ${now})`.execute(
    db,
  );
  await sql`insert into users (username, password, subscription_tier, subscription_status, stripe_subscription_id, created_at)
            values ('ada', 'hash', 'pro', 'active', 'sub_1', ${now})`.execute(db);
  await sql`insert into qr_codes (name, type, content, user_id, customization)
            values ('Menu', 'url', 'https://example.com', 2, '{}')`.execute(db);

  await migrateTo(db, THIS);

  expect(
    await db
      .selectFrom('users')
      .select(['username', 'subscription_tier', 'stripe_subscription_id'])
      .orderBy('id')
      .execute(),
  ).toEqual([
    { username: 'root', subscription_tier: 'free', stripe_subscription_id: null },
    { username: 'ada', subscription_tier: 'pro', stripe_subscription_id: 'sub_1' },
  ]);
  expect(await db.selectFrom('qr_codes').select('name').execute()).toEqual([{ name: 'Menu' }]);

  // The new tables take rows; an audit entry outlives its actor, a request goes with its user.
  await db
    .insertInto('audit_log')
    .values({
      actor_id: 1,
      actor_username: 'root',
      action: 'user.update',
      target_type: 'user',
      target_id: '2',
      after: '{"name":"Ada"}',
      created_at: now,
    })
    .execute();
  await db.insertInto('upgrade_requests').values({ user_id: 2, tier: 'premium', created_at: now }).execute();
  await db
    .insertInto('instance_settings')
    .values({ key: 'freePlanLimit', value: '5', updated_at: now })
    .execute();
  await db
    .insertInto('stripe_events')
    .values({ id: 'evt_1', type: 'checkout.session.completed', received_at: now })
    .execute();
  await expect(
    db.insertInto('stripe_events').values({ id: 'evt_1', type: 'again', received_at: now }).execute(),
  ).rejects.toThrow();
  await db
    .insertInto('mail_log')
    .values({ recipient: 'a@example.com', subject: 'Hi', status: 'outbox', created_at: now })
    .execute();
  await db.deleteFrom('users').where('id', '=', 2).execute();
  expect(await db.selectFrom('upgrade_requests').select('id').execute()).toEqual([]);
  await db.deleteFrom('users').where('id', '=', 1).execute();
  expect(await db.selectFrom('audit_log').select(['actor_id', 'actor_username']).execute()).toEqual([
    { actor_id: null, actor_username: 'root' },
  ]);

  await migrateTo(db, previous);
  const tables = await ownTableNames(db);
  expect(tables).not.toContain('audit_log');
  expect(tables).toContain('users');
}

describeMigration(THIS, upgradeWithData);
