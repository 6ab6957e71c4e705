import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-07T0900-short-domains';
const now = '2026-12-07T08:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  // A workspace with a dynamic code (and an old slug of it) and a static one, as the previous schema held them.
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  for (const [name, slug, dynamic] of [
    ['Menu', 'menu', true],
    ['Wi-Fi', null, false],
  ] as const) {
    await sql`insert into qr_codes (user_id, name, type, content, customization, slug, is_dynamic, created, updated)
              values (1, ${name}, 'url', 'https://example.com', '{}', ${slug}, ${dynamic}, ${now}, ${now})`.execute(
      db,
    );
  }
  await sql`insert into qr_slug_aliases (slug, qr_code_id, created) values ('winter', 1, ${now})`.execute(db);

  await migrateTo(db, THIS);

  // Every code keeps its link on the app's own address.
  const codes = await sql<{
    name: string;
    slug: string | null;
    domain_id: number | null;
  }>`select name, slug, domain_id from qr_codes order by id`.execute(db);
  expect(codes.rows).toEqual([
    { name: 'Menu', slug: 'menu', domain_id: null },
    { name: 'Wi-Fi', slug: null, domain_id: null },
  ]);
  const aliases = await sql<{ slug: string }>`select slug from qr_slug_aliases`.execute(db);
  expect(aliases.rows).toEqual([{ slug: 'winter' }]);

  // A domain, one host name once, available to a listed workspace; a code may use it.
  await sql`insert into short_domains (hostname, created) values ('go.example.com', ${now})`.execute(db);
  await expect(
    sql`insert into short_domains (hostname, created) values ('go.example.com', ${now})`.execute(db),
  ).rejects.toThrow();
  await sql`insert into short_domain_workspaces (domain_id, workspace_id) values (1, 1)`.execute(db);
  await sql`update qr_codes set domain_id = 1 where id = 1`.execute(db);
  const flags = await sql<{ all_workspaces: unknown }>`select all_workspaces from short_domains`.execute(db);
  expect(Boolean(flags.rows[0]!.all_workspaces)).toBe(false);
  // A domain a code uses stays; its workspaces go with it, and with their account.
  await expect(sql`delete from short_domains where id = 1`.execute(db)).rejects.toThrow();
  await sql`delete from qr_codes where id = 1`.execute(db);
  await sql`delete from users where id = 1`.execute(db);
  const listed = await sql<{ n: number }>`select count(*) as n from short_domain_workspaces`.execute(db);
  expect(Number(listed.rows[0]!.n)).toBe(0);

  await migrateTo(db, previousOf(THIS));
  // Down: the domains go, the codes stay.
  const kept = await sql<{ n: number }>`select count(*) as n from qr_codes`.execute(db);
  expect(Number(kept.rows[0]!.n)).toBe(0);
  await expect(sql`select * from short_domains`.execute(db)).rejects.toThrow();
}

describeMigration(THIS, upgradeWithData);
