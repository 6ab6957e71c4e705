import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-06T0900-slug-aliases';
const now = '2026-12-06T08:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  // Two dynamic codes with random slugs that differ only in case, and a static one, as the previous
  // schema could hold them: the upgrade must keep all three (the new index on lower(slug) is not unique).
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  for (const [name, slug, dynamic] of [
    ['Menu', 'AbC2xYz', true],
    ['Menu copy', 'abc2xyz', true],
    ['Wi-Fi', null, false],
  ] as const) {
    await sql`insert into qr_codes (user_id, name, type, content, customization, slug, is_dynamic, created, updated)
              values (1, ${name}, 'url', 'https://example.com', '{}', ${slug}, ${dynamic}, ${now}, ${now})`.execute(
      db,
    );
  }

  await migrateTo(db, THIS);

  const codes = await sql<{
    name: string;
    slug: string | null;
  }>`select name, slug from qr_codes order by id`.execute(db);
  expect(codes.rows).toEqual([
    { name: 'Menu', slug: 'AbC2xYz' },
    { name: 'Menu copy', slug: 'abc2xyz' },
    { name: 'Wi-Fi', slug: null },
  ]);
  // An old slug of a code: one code's at a time, gone with its code.
  await sql`insert into qr_slug_aliases (slug, qr_code_id, created) values ('winter', 1, ${now})`.execute(db);
  await expect(
    sql`insert into qr_slug_aliases (slug, qr_code_id, created) values ('winter', 2, ${now})`.execute(db),
  ).rejects.toThrow();
  const holders = await sql<{
    id: number;
  }>`select id from qr_codes where lower(slug) = 'abc2xyz' order by id`.execute(db);
  expect(holders.rows.map((r) => Number(r.id))).toEqual([1, 2]);
  await sql`delete from qr_codes where id = 1`.execute(db);
  const left = await sql<{ n: number }>`select count(*) as n from qr_slug_aliases`.execute(db);
  expect(Number(left.rows[0]!.n)).toBe(0);

  await migrateTo(db, previousOf(THIS));
  // Down: the old slugs go, the codes stay.
  const kept = await sql<{ n: number }>`select count(*) as n from qr_codes`.execute(db);
  expect(Number(kept.rows[0]!.n)).toBe(2);
  await expect(sql`select * from qr_slug_aliases`.execute(db)).rejects.toThrow();
}

describeMigration(THIS, upgradeWithData);
