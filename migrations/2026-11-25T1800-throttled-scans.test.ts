import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { ownTableNames } from '../server/test/test-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-25T1800-throttled-scans';

const previous = previousOf(THIS);

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previous);
  const now = new Date().toISOString();
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, slug)
            values (1, 'Menu', 'url', 'https://example.com', ${true}, 'menu1')`.execute(db);
  await sql`insert into qr_scans (qr_code_id, timestamp, device) values (1, ${now}, 'Mobile')`.execute(db);

  await migrateTo(db, THIS);

  expect(await db.selectFrom('qr_scans').select('device').execute()).toEqual([{ device: 'Mobile' }]);
  await db.insertInto('throttled_scans').values({ qr_code_id: 1, day: 20_000, scans: 3 }).execute();
  // One row per code and day.
  await expect(
    db.insertInto('throttled_scans').values({ qr_code_id: 1, day: 20_000, scans: 1 }).execute(),
  ).rejects.toThrow();
  // The counts go with their code.
  await db.deleteFrom('qr_scans').execute();
  await db.deleteFrom('qr_codes').execute();
  expect(await db.selectFrom('throttled_scans').selectAll().execute()).toEqual([]);

  await migrateTo(db, previous);
  expect(await ownTableNames(db)).not.toContain('throttled_scans');
}

describeMigration(THIS, upgradeWithData);
