import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-09T0900-analytics-shares';
const now = '2026-12-09T09:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  // A user with a folder and a code in it, as the previous schema held them.
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into folders (user_id, name, created) values (1, 'Posters', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, customization, slug, is_dynamic, created, updated, folder_id)
            values (1, 'Menu', 'url', 'https://example.com/menu', '{}', 'menu', ${true}, ${now}, ${now}, 1)`.execute(
    db,
  );

  await migrateTo(db, THIS);

  // A link to the code and one to the folder; never both, never neither; tokens are unique.
  const insert = (token: string, code: number | null, folder: number | null) =>
    sql`insert into analytics_shares (owner_id, created_by, qr_code_id, folder_id, token, token_hash, created_at)
        values (1, 1, ${code}, ${folder}, ${token}, ${`hash-${token}`}, ${now})`.execute(db);
  await insert('a', 1, null);
  await insert('b', null, 1);
  await expect(insert('c', 1, 1)).rejects.toThrow();
  await expect(insert('d', null, null)).rejects.toThrow();
  await expect(insert('a', 1, null)).rejects.toThrow();
  const rows = await sql<{
    views: number;
    revoked_at: unknown;
  }>`select views, revoked_at from analytics_shares order by id`.execute(db);
  expect(rows.rows.map((r) => [Number(r.views), r.revoked_at])).toEqual([
    [0, null],
    [0, null],
  ]);
  // Deleting the code deletes its link; the folder's stays.
  await sql`delete from qr_codes`.execute(db);
  const left = await sql<{ token: string }>`select token from analytics_shares`.execute(db);
  expect(left.rows.map((r) => r.token)).toEqual(['b']);

  await migrateTo(db, previousOf(THIS));
  await expect(sql`select * from analytics_shares`.execute(db)).rejects.toThrow();
  const folders = await sql<{ n: number }>`select count(*) as n from folders`.execute(db);
  expect(Number(folders.rows[0]!.n)).toBe(1);
}

describeMigration(THIS, upgradeWithData);
