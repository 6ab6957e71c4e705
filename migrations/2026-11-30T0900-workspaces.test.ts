import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import type { Database } from '../server/db/database.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-30T0900-workspaces';

const now = '2026-11-20T08:00:00.000Z';

/** What each person owned before: codes, folders, a day's rollup and tokens, by owner. */
async function ownedBy(db: Kysely<Database>) {
  const codes = await sql<{ name: string; user_id: number; folder_id: number | null }>`
    select name, user_id, folder_id from qr_codes order by id`.execute(db);
  const folders = await sql<{ name: string; user_id: number }>`
    select name, user_id from folders order by id`.execute(db);
  const days = await sql<{ qr_code_id: number; user_id: number; mobile: number }>`
    select qr_code_id, user_id, mobile from scan_code_days order by qr_code_id`.execute(db);
  const quarters = await sql<{ user_id: number; desktop: number }>`
    select user_id, desktop from scan_user_quarters order by user_id`.execute(db);
  const tokens = await sql<{ name: string; user_id: number }>`
    select name, user_id from api_tokens order by id`.execute(db);
  const num = <T extends Record<string, unknown>>(rows: T[]) =>
    rows.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && k !== 'name' ? Number(v) : v]),
      ),
    );
  return {
    codes: num(codes.rows),
    folders: num(folders.rows),
    days: num(days.rows),
    quarters: num(quarters.rows),
    tokens: num(tokens.rows),
  };
}

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));

  // Two people, each with a folder, a code in it, a day's and a quarter's scans, and an API token.
  await sql`insert into users (username, password, email, subscription_tier, created_at)
            values ('ada', 'hash', 'ada@example.com', 'pro', ${now})`.execute(db);
  await sql`insert into users (username, password, email, created_at)
            values ('bob', 'hash', 'bob@example.com', ${now})`.execute(db);
  await sql`insert into folders (name, user_id, created) values ('Menus', 1, ${now}), ('Posters', 2, ${now})`.execute(
    db,
  );
  await sql`insert into qr_codes (user_id, folder_id, name, type, content, is_dynamic, slug, customization, created, updated)
            values (1, 1, 'Menu', 'url', 'https://example.com/menu', ${true}, 'menu1', ${'{}'}, ${now}, ${now}),
                   (2, 2, 'Poster', 'url', 'https://example.com/poster', ${true}, 'post1', ${'{}'}, ${now}, ${now})`.execute(
    db,
  );
  await sql`insert into scan_code_days (qr_code_id, day, user_id, mobile) values (1, 20400, 1, 5), (2, 20400, 2, 3)`.execute(
    db,
  );
  await sql`insert into scan_user_quarters (user_id, bucket, desktop) values (1, 1958400, 2), (2, 1958400, 4)`.execute(
    db,
  );
  await sql`insert into api_tokens (user_id, name, token_hash, prefix, scope, created_at)
            values (1, 'ada script', 'h1', 'qrc_a', 'write', ${now}),
                   (2, 'bob script', 'h2', 'qrc_b', 'read', ${now})`.execute(db);
  const before = await ownedBy(db);
  expect(before.codes).toEqual([
    { name: 'Menu', user_id: 1, folder_id: 1 },
    { name: 'Poster', user_id: 2, folder_id: 2 },
  ]);

  await migrateTo(db, THIS);

  // Every existing account is a person working in their own workspace; what they owned is still theirs.
  const users = await sql<{
    id: number;
    username: string;
    kind: string;
    current_workspace_id: number | null;
  }>`
    select id, username, kind, current_workspace_id from users order by id`.execute(db);
  expect(users.rows.map((u) => ({ ...u, id: Number(u.id) }))).toEqual([
    { id: 1, username: 'ada', kind: 'person', current_workspace_id: null },
    { id: 2, username: 'bob', kind: 'person', current_workspace_id: null },
  ]);
  expect(await ownedBy(db)).toEqual(before);
  // A token acts on its maker's own workspace.
  const tokens = await sql<{ user_id: number; workspace_id: number }>`
    select user_id, workspace_id from api_tokens order by id`.execute(db);
  expect(
    tokens.rows.map((r) => ({ user_id: Number(r.user_id), workspace_id: Number(r.workspace_id) })),
  ).toEqual([
    { user_id: 1, workspace_id: 1 },
    { user_id: 2, workspace_id: 2 },
  ]);
  const plan = await sql<{
    subscription_tier: string;
  }>`select subscription_tier from users where id = 1`.execute(db);
  expect(plan.rows[0]?.subscription_tier).toBe('pro');

  // A team: its own row (never signs in), members, a pending invitation, activity, a code and a token.
  await sql`insert into users (username, password, name, kind, created_at)
            values ('team~abc', '!team', 'Marketing', 'team', ${now})`.execute(db);
  await sql`insert into workspace_members (workspace_id, user_id, role, created_at)
            values (3, 1, 'owner', ${now}), (3, 2, 'editor', ${now})`.execute(db);
  await sql`insert into workspace_invitations (workspace_id, email, role, token_hash, invited_by, invited_by_username, created_at, expires_at)
            values (3, 'carol@example.com', 'viewer', 'inv1', 1, 'ada', ${now}, '2026-11-27T08:00:00.000Z')`.execute(
    db,
  );
  await sql`insert into workspace_activity (workspace_id, actor_id, actor_username, action, target_type, target_id, created_at)
            values (3, 1, 'ada', 'workspace.created', 'workspace', '3', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, slug, customization, created, updated)
            values (3, 'Flyer', 'url', 'https://example.com/flyer', ${true}, 'fly1', ${'{}'}, ${now}, ${now})`.execute(
    db,
  );
  await sql`insert into api_tokens (user_id, workspace_id, name, token_hash, prefix, scope, created_at)
            values (1, 3, 'team script', 'h3', 'qrc_c', 'read', ${now})`.execute(db);
  await sql`update users set current_workspace_id = 3 where id = 2`.execute(db);
  const invitation = await sql<{ status: string }>`select status from workspace_invitations`.execute(db);
  expect(invitation.rows).toEqual([{ status: 'pending' }]);
  // One membership per person and team.
  await expect(
    sql`insert into workspace_members (workspace_id, user_id, role, created_at) values (3, 2, 'viewer', ${now})`.execute(
      db,
    ),
  ).rejects.toThrow();
  // One invitation per mailed token.
  await expect(
    sql`insert into workspace_invitations (workspace_id, email, role, token_hash, invited_by_username, created_at, expires_at)
        values (3, 'dan@example.com', 'viewer', 'inv1', 'ada', ${now}, ${now})`.execute(db),
  ).rejects.toThrow();

  await migrateTo(db, previousOf(THIS));

  // The team and what it held are gone; the new tables and columns too; the people's own data is intact.
  const people = await sql<{
    id: number;
    username: string;
  }>`select id, username from users order by id`.execute(db);
  expect(people.rows.map((u) => ({ ...u, id: Number(u.id) }))).toEqual([
    { id: 1, username: 'ada' },
    { id: 2, username: 'bob' },
  ]);
  // A team's token goes with the team: kept, it would act on its maker's own workspace, which it was
  // never made for.
  expect(await ownedBy(db)).toEqual(before);
  for (const table of ['workspace_members', 'workspace_invitations', 'workspace_activity']) {
    await expect(sql`select count(*) from ${sql.id(table)}`.execute(db)).rejects.toThrow(new RegExp(table));
  }
  await expect(sql`select kind from users`.execute(db)).rejects.toThrow(/kind/);
  await expect(sql`select current_workspace_id from users`.execute(db)).rejects.toThrow(
    /current_workspace_id/,
  );
  await expect(sql`select workspace_id from api_tokens`.execute(db)).rejects.toThrow(/workspace_id/);

  // And up again: the schema comes back the same way.
  await migrateTo(db, THIS);
  const again = await sql<{ workspace_id: number }>`select workspace_id from api_tokens order by id`.execute(
    db,
  );
  expect(again.rows.map((r) => Number(r.workspace_id))).toEqual([1, 2]);
}

describeMigration(THIS, upgradeWithData);
