import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-01T0900-sso';

const now = '2026-11-30T08:00:00.000Z';
const later = '2026-12-30T08:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));

  // A person with a session and a pending two-factor sign-in, a team they are a member of.
  await sql`insert into users (username, password, email, created_at) values ('ada', 'hash', 'ada@example.com', ${now})`.execute(
    db,
  );
  await sql`insert into users (username, password, name, kind, created_at) values ('team~abc', '!team', 'Marketing', 'team', ${now})`.execute(
    db,
  );
  await sql`insert into workspace_members (workspace_id, user_id, role, created_at) values (2, 1, 'owner', ${now})`.execute(
    db,
  );
  await sql`insert into sessions (id, user_id, created_at, last_seen_at, expires_at, ip_address, user_agent)
            values ('s1', 1, ${now}, ${now}, ${later}, '127.0.0.1', 'test')`.execute(db);
  await sql`insert into pending_logins (id, user_id, expires_at) values ('p1', 1, ${later})`.execute(db);

  await migrateTo(db, THIS);

  // What existed is as it was: a password session, a membership given by hand, a password sign-in pending.
  const session = await sql<{ id: string; sso_provider: string | null; sso_checked_at: string | null }>`
    select id, sso_provider, sso_checked_at from sessions`.execute(db);
  expect(session.rows).toEqual([{ id: 's1', sso_provider: null, sso_checked_at: null }]);
  const member = await sql<{
    role: string;
    source: string;
  }>`select role, source from workspace_members`.execute(db);
  expect(member.rows).toEqual([{ role: 'owner', source: 'manual' }]);
  const pending = await sql<{ sso_session: string | null }>`select sso_session from pending_logins`.execute(
    db,
  );
  expect(pending.rows).toEqual([{ sso_session: null }]);

  // A company account linked to ada, an SSO session, a link request, a membership granted by a group.
  await sql`insert into user_identities (provider, subject, user_id, email, created_at)
            values ('oidc:keycloak', 'sub-1', 1, 'ada@example.com', ${now})`.execute(db);
  await expect(
    sql`insert into user_identities (provider, subject, user_id, created_at) values ('oidc:keycloak', 'sub-1', 1, ${now})`.execute(
      db,
    ),
  ).rejects.toThrow();
  await sql`insert into sessions (id, user_id, created_at, last_seen_at, expires_at, sso_provider, sso_subject, sso_checked_at)
            values ('s2', 1, ${now}, ${now}, ${later}, 'oidc:keycloak', 'sub-1', ${now})`.execute(db);
  await sql`insert into sso_link_requests (id, user_id, provider, subject, profile, expires_at)
            values ('l1', 1, 'ldap', 'uid=ada,dc=example,dc=org', '{}', ${later})`.execute(db);
  await sql`insert into users (username, password, kind, created_at) values ('team~def', '!team', 'team', ${now})`.execute(
    db,
  );
  await sql`insert into workspace_members (workspace_id, user_id, role, created_at, source) values (3, 1, 'editor', ${now}, 'sso')`.execute(
    db,
  );
  // Deleting the person takes their identities and link requests with them.
  await sql`insert into users (username, password, created_at) values ('bob', '!sso', ${now})`.execute(db);
  await sql`insert into user_identities (provider, subject, user_id, created_at) values ('ldap', 'uid=bob', 4, ${now})`.execute(
    db,
  );
  await sql`delete from users where id = 4`.execute(db);
  const left = await sql<{ subject: string }>`select subject from user_identities`.execute(db);
  expect(left.rows).toEqual([{ subject: 'sub-1' }]);

  await migrateTo(db, previousOf(THIS));

  // Down: the SSO session ends (nothing could check it again), the password session stays; the tables
  // and columns are gone; people and memberships stay.
  const sessions = await sql<{ id: string }>`select id from sessions order by id`.execute(db);
  expect(sessions.rows).toEqual([{ id: 's1' }]);
  const members = await sql<{
    workspace_id: number;
  }>`select workspace_id from workspace_members order by workspace_id`.execute(db);
  expect(members.rows.map((m) => Number(m.workspace_id))).toEqual([2, 3]);
  for (const table of ['user_identities', 'sso_link_requests']) {
    await expect(sql`select count(*) from ${sql.id(table)}`.execute(db)).rejects.toThrow(new RegExp(table));
  }
  await expect(sql`select sso_provider from sessions`.execute(db)).rejects.toThrow(/sso_provider/);
  await expect(sql`select source from workspace_members`.execute(db)).rejects.toThrow(/source/);
  await expect(sql`select sso_session from pending_logins`.execute(db)).rejects.toThrow(/sso_session/);

  // And up again.
  await migrateTo(db, THIS);
  const again = await sql<{
    source: string;
  }>`select source from workspace_members order by workspace_id`.execute(db);
  expect(again.rows).toEqual([{ source: 'manual' }, { source: 'manual' }]);
}

describeMigration(THIS, upgradeWithData);
