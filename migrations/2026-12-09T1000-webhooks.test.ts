import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-09T1000-webhooks';
const now = '2026-12-09T10:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  // A workspace with a dynamic code and two scans, as the previous schema held them.
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, customization, slug, is_dynamic, created, updated)
            values (1, 'Menu', 'url', 'https://example.com/menu', '{}', 'menu', ${true}, ${now}, ${now})`.execute(
    db,
  );
  await sql`insert into qr_scans (qr_code_id, at, device) values (1, 1, 1), (1, 2, 3)`.execute(db);

  await migrateTo(db, THIS);

  // Scans untouched; an endpoint, a delivery and a feed cursor can be stored.
  const scans = await sql<{ n: number }>`select count(*) as n from qr_scans`.execute(db);
  expect(Number(scans.rows[0]!.n)).toBe(2);
  await sql`insert into webhook_endpoints (owner_id, url, events, secret, created_at, updated_at)
            values (1, 'https://hooks.example.com/qr', '["scan"]', 'whsec_x', ${now}, ${now})`.execute(db);
  await sql`insert into webhook_deliveries (endpoint_id, event_types, events, payload, created_at, next_attempt_at)
            values (1, 'scan', 2, '{}', ${now}, ${now})`.execute(db);
  await sql`insert into scan_feed_cursors (name, last_id) values ('webhooks', 2)`.execute(db);
  const delivery = await sql<{
    state: string;
    attempts: number;
  }>`select state, attempts from webhook_deliveries`.execute(db);
  expect(delivery.rows.map((r) => [r.state, Number(r.attempts)])).toEqual([['pending', 0]]);
  const endpoint = await sql<{ enabled: unknown }>`select enabled from webhook_endpoints`.execute(db);
  expect(Boolean(endpoint.rows[0]!.enabled)).toBe(true);
  // Deleting the workspace's account deletes its endpoints and their deliveries.
  await sql`delete from users where id = 1`.execute(db);
  const left = await sql<{ n: number }>`select count(*) as n from webhook_deliveries`.execute(db);
  expect(Number(left.rows[0]!.n)).toBe(0);

  await migrateTo(db, previousOf(THIS));
  await expect(sql`select * from webhook_endpoints`.execute(db)).rejects.toThrow();
  await expect(sql`select * from scan_feed_cursors`.execute(db)).rejects.toThrow();
}

describeMigration(THIS, upgradeWithData);
