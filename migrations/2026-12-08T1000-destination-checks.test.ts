import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-08T1000-destination-checks';
const now = '2026-12-08T10:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  // A dynamic code with smart options, as the previous schema held it.
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, customization, slug, is_dynamic, created, updated, redirect_options)
            values (1, 'Menu', 'url', 'https://example.com/menu', '{}', 'menu', ${true}, ${now}, ${now},
                    '{"fallbackUrl":"https://example.com/closed"}')`.execute(db);

  await migrateTo(db, THIS);

  // The code is untouched; its options read as before (no fallback while down unless asked).
  const code = await sql<{ redirect_options: string }>`select redirect_options from qr_codes`.execute(db);
  expect(code.rows[0]!.redirect_options).toBe('{"fallbackUrl":"https://example.com/closed"}');
  // One row per URL, due at once, unchecked.
  await sql`insert into destination_checks (url, host, next_check_at) values ('https://example.com/menu', 'example.com', ${now})`.execute(
    db,
  );
  await expect(
    sql`insert into destination_checks (url, host, next_check_at) values ('https://example.com/menu', 'example.com', ${now})`.execute(
      db,
    ),
  ).rejects.toThrow();
  const row = await sql<{
    state: string;
    failures: number;
  }>`select state, failures from destination_checks`.execute(db);
  expect(row.rows.map((r) => [r.state, Number(r.failures)])).toEqual([['unknown', 0]]);

  await migrateTo(db, previousOf(THIS));
  await expect(sql`select * from destination_checks`.execute(db)).rejects.toThrow();
  const codes = await sql<{ n: number }>`select count(*) as n from qr_codes`.execute(db);
  expect(Number(codes.rows[0]!.n)).toBe(1);
}

describeMigration(THIS, upgradeWithData);
