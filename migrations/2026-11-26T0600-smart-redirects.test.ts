import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-26T0600-smart-redirects';

const previous = previousOf(THIS);

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previous);
  const now = new Date().toISOString();
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, slug)
            values (1, 'Menu', 'url', 'https://example.com', ${true}, 'menu1')`.execute(db);
  await sql`insert into qr_scans (qr_code_id, at, device) values (1, ${Date.now()}, 1)`.execute(db);

  await migrateTo(db, THIS);

  // Codes and scans saved before have nothing on and were all served.
  expect(
    await db
      .selectFrom('qr_codes')
      .select(['name', 'content', 'redirect_options', 'password_hash'])
      .execute(),
  ).toEqual([{ name: 'Menu', content: 'https://example.com', redirect_options: null, password_hash: null }]);
  expect(await db.selectFrom('qr_scans').select(['qr_code_id', 'refused']).execute()).toEqual([
    { qr_code_id: 1, refused: null },
  ]);

  await db
    .updateTable('qr_codes')
    .set({ redirect_options: '{"paused":true}', password_hash: '$argon2id$…' })
    .where('id', '=', 1)
    .execute();
  await db.insertInto('qr_scans').values({ qr_code_id: 1, at: Date.now(), device: 3, refused: 1 }).execute();
  await db.insertInto('refused_scans').values({ qr_code_id: 1, day: 20_000, scans: 1, bots: 0 }).execute();
  await db.insertInto('server_secrets').values({ name: 'k', value: 'v' }).execute();
  expect(await db.selectFrom('qr_scans').select('refused').orderBy('id').execute()).toEqual([
    { refused: null },
    { refused: 1 },
  ]);
  // A second value under the same name is refused: every instance reads the one stored.
  await expect(db.insertInto('server_secrets').values({ name: 'k', value: 'w' }).execute()).rejects.toThrow();
  // Deleting a code deletes its refused counts.
  await db.deleteFrom('qr_scans').execute();
  await db.deleteFrom('qr_codes').execute();
  expect(await db.selectFrom('refused_scans').selectAll().execute()).toEqual([]);

  await migrateTo(db, previous);
  expect(await db.selectFrom('users').select('username').execute()).toEqual([{ username: 'ada' }]);
}

describeMigration(THIS, upgradeWithData);
