import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-27T1000-account-safety';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  const now = '2026-11-20T08:00:00.000Z';
  await sql`insert into users (username, password, email, email_verified, created_at)
            values ('ada', 'hash', 'ada@example.com', ${true}, ${now})`.execute(db);
  await sql`insert into users (username, password, email, created_at)
            values ('bob', 'hash', 'bob@example.com', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, slug, customization, created, updated)
            values (1, 'Menu', 'url', 'https://example.com/menu', ${true}, 'menu1', ${'{}'}, ${now}, ${now})`.execute(
    db,
  );
  await sql`insert into refused_scans (qr_code_id, day, scans, bots) values (1, 20400, 7, 2)`.execute(db);

  await migrateTo(db, THIS);

  // Nobody's address is a pending change; every user keeps the rest of their row.
  expect(
    (
      await db
        .selectFrom('users')
        .select(['username', 'email', 'email_verified', 'email_change_pending'])
        .orderBy('id')
        .execute()
    ).map((u) => ({
      ...u,
      email_verified: Boolean(u.email_verified),
      email_change_pending: Boolean(u.email_change_pending),
    })),
  ).toEqual([
    { username: 'ada', email: 'ada@example.com', email_verified: true, email_change_pending: false },
    { username: 'bob', email: 'bob@example.com', email_verified: false, email_change_pending: false },
  ]);
  // Refused scans counted before were all turned away: none simulated.
  expect(await db.selectFrom('refused_scans').selectAll().execute()).toEqual([
    { qr_code_id: 1, day: 20400, scans: 7, bots: 2, simulated: 0 },
  ]);

  // A change of address is kept with its user and goes with them; its undo token is unique.
  const change = {
    user_id: 2,
    old_email: 'bob@example.com',
    old_verified: false,
    old_pending: false,
    fallback_email: 'bob@example.com',
    new_email: 'bob@elsewhere.example',
    undo_token_hash: 'h1',
    created_at: now,
    expires_at: '2026-11-27T08:00:00.000Z',
  };
  await db.insertInto('email_changes').values(change).execute();
  await expect(db.insertInto('email_changes').values(change).execute()).rejects.toThrow();
  await db.deleteFrom('users').where('id', '=', 2).execute();
  expect(await db.selectFrom('email_changes').selectAll().execute()).toEqual([]);

  await migrateTo(db, previousOf(THIS));
  expect(await db.selectFrom('refused_scans').select(['scans', 'bots']).execute()).toEqual([
    { scans: 7, bots: 2 },
  ]);
}

describeMigration(THIS, upgradeWithData);
