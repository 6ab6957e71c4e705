import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-12-09T1100-analytics-forwarding';
const now = '2026-12-09T11:00:00.000Z';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  // A workspace with a dynamic code, two scans, a webhook endpoint and a feed cursor, as the previous
  // schema held them.
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, customization, slug, is_dynamic, created, updated)
            values (1, 'Menu', 'url', 'https://example.com/menu', '{}', 'menu', ${true}, ${now}, ${now})`.execute(
    db,
  );
  await sql`insert into qr_scans (qr_code_id, at, device) values (1, 1, 1), (1, 2, 3)`.execute(db);
  await sql`insert into webhook_endpoints (owner_id, url, events, secret, created_at, updated_at)
            values (1, 'https://hooks.example.com/qr', '["scan"]', 'whsec_x', ${now}, ${now})`.execute(db);
  await sql`insert into scan_feed_cursors (name, last_id) values ('webhooks', 2)`.execute(db);

  await migrateTo(db, THIS);

  // What was there is untouched; a workspace's forwarding can be stored with its defaults.
  const scans = await sql<{ n: number }>`select count(*) as n from qr_scans`.execute(db);
  expect(Number(scans.rows[0]!.n)).toBe(2);
  const endpoints = await sql<{ n: number }>`select count(*) as n from webhook_endpoints`.execute(db);
  expect(Number(endpoints.rows[0]!.n)).toBe(1);
  await sql`insert into analytics_forwarding (owner_id, provider, settings, hash_salt, created_at, updated_at)
            values (1, 'plausible', '{"url":"https://plausible.io","domain":"example.com"}', 'salt', ${now}, ${now})`.execute(
    db,
  );
  const row = await sql<{
    enabled: unknown;
    address: string;
    sent_count: number | string;
    failed_count: number | string;
    secret: string | null;
  }>`select enabled, address, sent_count, failed_count, secret from analytics_forwarding`.execute(db);
  const stored = row.rows[0]!;
  expect([
    Boolean(stored.enabled),
    stored.address,
    Number(stored.sent_count),
    Number(stored.failed_count),
  ]).toEqual([true, 'masked', 0, 0]);
  expect(stored.secret).toBeNull();
  // One row per workspace.
  await expect(
    sql`insert into analytics_forwarding (owner_id, provider, settings, hash_salt, created_at, updated_at)
        values (1, 'ga4', '{}', 'salt', ${now}, ${now})`.execute(db),
  ).rejects.toThrow();
  // Deleting the workspace's account deletes its forwarding.
  await sql`delete from webhook_endpoints`.execute(db);
  await sql`delete from qr_scans`.execute(db);
  await sql`delete from qr_codes`.execute(db);
  await sql`delete from users where id = 1`.execute(db);
  const left = await sql<{ n: number }>`select count(*) as n from analytics_forwarding`.execute(db);
  expect(Number(left.rows[0]!.n)).toBe(0);

  await migrateTo(db, previousOf(THIS));
  await expect(sql`select * from analytics_forwarding`.execute(db)).rejects.toThrow();
  const cursors = await sql<{ n: number }>`select count(*) as n from scan_feed_cursors`.execute(db);
  expect(Number(cursors.rows[0]!.n)).toBe(1);
}

describeMigration(THIS, upgradeWithData);
