import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-25T0700-account';

const previous = previousOf(THIS);

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previous);
  // A database as the previous release left it: a user with a session, a folder and a code.
  await sql`insert into users (username, password, name, email, created_at)
            values ('ada', 'hash', 'Ada', 'ada@example.com', ${new Date().toISOString()})`.execute(db);
  await sql`insert into sessions (id, user_id, created_at, last_seen_at, expires_at, ip_address, user_agent)
            values ('s1', 1, ${new Date().toISOString()}, ${new Date().toISOString()},
                    ${new Date(Date.now() + 86_400_000).toISOString()}, '203.0.113.1', 'test')`.execute(db);
  await sql`insert into qr_codes (name, type, content, user_id, customization)
            values ('Menu', 'url', 'https://example.com', 1, '{}')`.execute(db);

  await migrateTo(db, THIS);

  const user = await db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
  expect(user).toMatchObject({
    username: 'ada',
    name: 'Ada',
    email: 'ada@example.com',
    theme: 'system',
    time_zone: 'UTC',
    totp_secret: null,
    totp_last_step: null,
  });
  for (const flag of [
    'notify_product_updates',
    'notify_scan_digest',
    'notify_scan_thresholds',
    'login_alerts',
    'totp_enabled',
  ] as const) {
    expect(Boolean(user[flag]), flag).toBe(false);
  }
  expect(await db.selectFrom('sessions').select('id').execute()).toEqual([{ id: 's1' }]);
  expect(await db.selectFrom('qr_codes').select('name').execute()).toEqual([{ name: 'Menu' }]);
  // The new tables take rows, and a notification key is taken once.
  await db.insertInto('recovery_codes').values({ user_id: 1, code_hash: 'h' }).execute();
  await db
    .insertInto('known_devices')
    .values({ user_id: 1, fingerprint: 'f', first_seen_at: new Date().toISOString() })
    .execute();
  await db
    .insertInto('sent_notifications')
    .values({ key: 'k', user_id: 1, sent_at: new Date().toISOString() })
    .execute();
  await expect(
    db
      .insertInto('sent_notifications')
      .values({ key: 'k', user_id: 1, sent_at: new Date().toISOString() })
      .execute(),
  ).rejects.toThrow();

  // And it rolls back to the previous schema with the data still there.
  await migrateTo(db, previous);
  expect(await db.selectFrom('users').select('username').execute()).toEqual([{ username: 'ada' }]);
}

describeMigration(THIS, upgradeWithData);
