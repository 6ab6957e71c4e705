import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-10T0900-user-language';
const now = '2026-12-10T09:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  // A person with a code and a team workspace, as the previous schema held them.
  await sql`insert into users (username, password, email, time_zone, created_at)
            values ('ada', 'hash', 'ada@example.com', 'Europe/Berlin', ${now})`.execute(db);
  await sql`insert into users (username, password, kind, created_at) values ('team-1', '', 'team', ${now})`.execute(
    db,
  );
  await sql`insert into qr_codes (user_id, name, type, content, customization, created, updated)
            values (1, 'Menu', 'url', 'https://example.com/menu', '{}', ${now}, ${now})`.execute(db);

  await migrateTo(db, THIS);

  // Everything kept; no language known yet (mails stay English until they sign in or choose one).
  const rows = await sql<{
    username: string;
    email: string | null;
    time_zone: string;
    language: string | null;
    browser_language: string | null;
  }>`select username, email, time_zone, language, browser_language from users order by id`.execute(db);
  expect(rows.rows).toEqual([
    {
      username: 'ada',
      email: 'ada@example.com',
      time_zone: 'Europe/Berlin',
      language: null,
      browser_language: null,
    },
    { username: 'team-1', email: null, time_zone: 'UTC', language: null, browser_language: null },
  ]);
  await sql`update users set language = 'de', browser_language = 'pt-BR' where id = 1`.execute(db);
  const set = await sql<{ language: string; browser_language: string }>`
    select language, browser_language from users where id = 1`.execute(db);
  expect(set.rows[0]).toEqual({ language: 'de', browser_language: 'pt-BR' });
  const codes = await sql<{ n: number }>`select count(*) as n from qr_codes`.execute(db);
  expect(Number(codes.rows[0]!.n)).toBe(1);

  await migrateTo(db, previousOf(THIS));
  await expect(sql`select language from users`.execute(db)).rejects.toThrow();
  const users = await sql<{ n: number }>`select count(*) as n from users`.execute(db);
  expect(Number(users.rows[0]!.n)).toBe(2);
}

describeMigration(THIS, upgradeWithData);
