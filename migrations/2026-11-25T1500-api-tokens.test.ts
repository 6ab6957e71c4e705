import { randomBytes } from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../server/db/create-db.js';
import type { Database } from '../server/db/database.js';
import { testDatabaseUrl } from '../server/test/test-db.js';
import { migrations } from './index.js';

const THIS = '2026-11-25T1500-api-tokens';

async function migrateTo(db: Kysely<Database>, target: string) {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error } = await migrator.migrateTo(target);
  if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
}

const previous = Object.keys(migrations)[Object.keys(migrations).indexOf(THIS) - 1]!;

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previous);
  const now = new Date().toISOString();
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into audit_log (actor_username, action, target_type, created_at)
            values ('root', 'settings.update', 'settings', ${now})`.execute(db);

  await migrateTo(db, THIS);

  expect(await db.selectFrom('users').select('username').execute()).toEqual([{ username: 'ada' }]);
  expect(await db.selectFrom('audit_log').select('action').execute()).toEqual([
    { action: 'settings.update' },
  ]);
  const token = await db
    .insertInto('api_tokens')
    .values({ user_id: 1, name: 'CI', token_hash: 'h1', prefix: 'qrc_abcd', scope: 'read', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await expect(
    db
      .insertInto('api_tokens')
      .values({
        user_id: 1,
        name: 'dup',
        token_hash: 'h1',
        prefix: 'qrc_abcd',
        scope: 'read',
        created_at: now,
      })
      .execute(),
  ).rejects.toThrow();
  await db
    .insertInto('api_token_usage')
    .values({ token_id: token.id, minute: 29_000_000, count: 1 })
    .execute();
  // A token and its counts go with their user.
  await db.deleteFrom('users').execute();
  expect(await db.selectFrom('api_token_usage').selectAll().execute()).toEqual([]);

  await migrateTo(db, previous);
  expect((await db.introspection.getTables()).map((t) => t.name)).not.toContain('api_tokens');
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
