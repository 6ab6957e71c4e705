import { randomBytes } from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../server/db/create-db.js';
import type { Database } from '../server/db/database.js';
import { testDatabaseUrl } from '../server/test/test-db.js';
import { migrations } from './index.js';

const THIS = '2026-11-25T0700-account';

/** Migrates to `target` (inclusive) with the real migrations. */
async function migrateTo(db: Kysely<Database>, target: string) {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error } = await migrator.migrateTo(target);
  if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
}

const previous = Object.keys(migrations)[Object.keys(migrations).indexOf(THIS) - 1]!;

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

describe(`migration ${THIS}`, () => {
  it('upgrades a SQLite database holding data from the previous schema', async () => {
    const handle = createDb('sqlite::memory:');
    try {
      await upgradeWithData(handle);
    } finally {
      await handle.close();
    }
  });

  const url = testDatabaseUrl();
  it.skipIf(!url)(
    `upgrades a PostgreSQL database holding data from the previous schema${url ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`,
    async () => {
      const schema = `t_${randomBytes(8).toString('hex')}`;
      const handle = createDb(url!, { searchPath: schema, poolSize: 2 });
      try {
        await sql`create schema ${sql.id(schema)}`.execute(handle.db);
        await upgradeWithData(handle);
      } finally {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
        await handle.close();
      }
    },
  );
});
