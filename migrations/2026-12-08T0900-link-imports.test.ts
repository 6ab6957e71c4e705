import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-08T0900-link-imports';
const now = '2026-12-08T08:00:00.000Z';
const later = '2026-12-09T08:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  // A workspace with a dynamic code on a short domain, as the previous schema held them.
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into short_domains (hostname, created) values ('go.example.com', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, customization, slug, is_dynamic, created, updated, domain_id)
            values (1, 'Menu', 'url', 'https://example.com', '{}', 'menu', ${true}, ${now}, ${now}, 1)`.execute(
    db,
  );

  await migrateTo(db, THIS);

  // The code is as it was, and made here.
  const codes = await sql<{ slug: string; domain_id: number }>`select slug, domain_id from qr_codes`.execute(
    db,
  );
  expect(codes.rows.map((r) => [r.slug, Number(r.domain_id)])).toEqual([['menu', 1]]);
  const origins = await sql<{ n: number }>`select count(*) as n from qr_code_imports`.execute(db);
  expect(Number(origins.rows[0]!.n)).toBe(0);

  // An import with a row carried out once; the code says where it came from.
  await sql`insert into link_imports (id, user_id, source, origin, links, created_at, expires_at)
            values ('imp1', 1, 'shlink', 'short-urls.csv', '[]', ${now}, ${later})`.execute(db);
  await sql`insert into link_import_visits (import_id, row, visits) values ('imp1', 0, '[]')`.execute(db);
  await sql`insert into link_import_rows (import_id, row, status, code_id, slug, visits)
            values ('imp1', 0, 'created', 1, 'menu', 3)`.execute(db);
  await expect(
    sql`insert into link_import_rows (import_id, row, status) values ('imp1', 0, 'skipped')`.execute(db),
  ).rejects.toThrow();
  await sql`insert into qr_code_imports (qr_code_id, source, source_link, visits, imported_at)
            values (1, 'shlink', 'https://s.test/menu', 3, ${now})`.execute(db);

  // The code's deletion takes its origin; the account's takes its imports and their rows.
  await sql`delete from qr_codes where id = 1`.execute(db);
  const left = await sql<{ n: number }>`select count(*) as n from qr_code_imports`.execute(db);
  expect(Number(left.rows[0]!.n)).toBe(0);
  await sql`delete from users where id = 1`.execute(db);
  const rows = await sql<{ n: number }>`select count(*) as n from link_import_rows`.execute(db);
  expect(Number(rows.rows[0]!.n)).toBe(0);
  const visits = await sql<{ n: number }>`select count(*) as n from link_import_visits`.execute(db);
  expect(Number(visits.rows[0]!.n)).toBe(0);

  await migrateTo(db, previousOf(THIS));
  await expect(sql`select * from link_imports`.execute(db)).rejects.toThrow();
  const domains = await sql<{ n: number }>`select count(*) as n from short_domains`.execute(db);
  expect(Number(domains.rows[0]!.n)).toBe(1);
}

describeMigration(THIS, upgradeWithData);
