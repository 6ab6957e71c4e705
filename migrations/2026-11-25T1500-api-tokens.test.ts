import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { ownTableNames } from '../server/test/test-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-25T1500-api-tokens';

const previous = previousOf(THIS);

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
  expect(await ownTableNames(db)).not.toContain('api_tokens');
}

describeMigration(THIS, upgradeWithData);
