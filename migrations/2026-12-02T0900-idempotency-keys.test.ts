import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-02T0900-idempotency-keys';
const now = '2026-12-02T08:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  // A person with an API token and a code, as the previous schema holds them.
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, customization, created, updated)
            values (1, 'Menu', 'url', 'https://example.com', '{}', ${now}, ${now})`.execute(db);

  await migrateTo(db, THIS);

  // What existed is untouched; a key is claimed once per caller, then answered.
  const codes = await sql<{ name: string }>`select name from qr_codes`.execute(db);
  expect(codes.rows).toEqual([{ name: 'Menu' }]);
  await sql`insert into idempotency_keys (owner, key, fingerprint, status, body, created_at)
            values ('user:1', 'k', 'f', null, null, ${now})`.execute(db);
  await expect(
    sql`insert into idempotency_keys (owner, key, fingerprint, created_at) values ('user:1', 'k', 'g', ${now})`.execute(
      db,
    ),
  ).rejects.toThrow();
  await sql`insert into idempotency_keys (owner, key, fingerprint, created_at) values ('token:1', 'k', 'g', ${now})`.execute(
    db,
  );
  await sql`update idempotency_keys set status = 201, body = '{"id":1}' where owner = 'user:1'`.execute(db);
  const rows = await sql<{ owner: string; status: number | null }>`
    select owner, status from idempotency_keys order by owner`.execute(db);
  expect(rows.rows).toEqual([
    { owner: 'token:1', status: null },
    { owner: 'user:1', status: 201 },
  ]);

  await migrateTo(db, previousOf(THIS));
  // Down: the keys go (a retry after a downgrade acts again), the rest stays.
  const tables = await sql<{ n: number }>`select count(*) as n from qr_codes`.execute(db);
  expect(Number(tables.rows[0]!.n)).toBe(1);
  await expect(sql`select * from idempotency_keys`.execute(db)).rejects.toThrow();
}

describeMigration(THIS, upgradeWithData);
