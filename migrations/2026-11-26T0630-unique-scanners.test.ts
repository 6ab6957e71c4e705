import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { ownTableNames } from '../server/test/test-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-26T0630-unique-scanners';

const previous = previousOf(THIS);

/** 2026-11-20 as a UTC day since the epoch, and a quarter hour of it. */
const DAY = 20_777;
const BUCKET = DAY * 96 + 40;

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previous);
  const now = '2026-11-20T08:00:00.000Z';
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, slug)
            values (1, 'Menu', 'url', 'https://example.com', ${true}, 'menu1')`.execute(db);
  // Two scans stored before unique scanners were counted, and their rollups.
  const at = BUCKET * 900_000;
  await sql`insert into qr_scans (qr_code_id, at, ip_address, device) values
            (1, ${at}, '203.0.113.5', 1), (1, ${at + 1000}, '203.0.113.6', 4)`.execute(db);
  await sql`insert into scan_user_quarters (user_id, bucket, mobile, bot) values (1, ${BUCKET}, 1, 1)`.execute(
    db,
  );
  await sql`insert into scan_code_quarters (qr_code_id, bucket, mobile, bot) values (1, ${BUCKET}, 1, 1)`.execute(
    db,
  );
  await sql`insert into scan_code_days (qr_code_id, day, user_id, mobile, bot) values (1, ${DAY}, 1, 1, 1)`.execute(
    db,
  );

  await migrateTo(db, THIS);

  // Old scans have no visitor hash, and their rollups' unique count is unknown (null), never 0.
  expect(
    (
      await sql<{ at: unknown; visitor: unknown }>`select at, visitor from qr_scans order by id`.execute(db)
    ).rows.map((r) => [Number(r.at), r.visitor]),
  ).toEqual([
    [at, null],
    [at + 1000, null],
  ]);
  for (const table of ['scan_user_quarters', 'scan_code_quarters', 'scan_code_days']) {
    const rows = (
      await sql<{ mobile: unknown; unique_scanners: unknown }>`
      select mobile, unique_scanners from ${sql.table(table)}`.execute(db)
    ).rows;
    expect(
      rows.map((r) => [Number(r.mobile), r.unique_scanners]),
      table,
    ).toEqual([[1, null]]);
  }
  // Unknown stays unknown when a later scan of the same day adds its first sightings.
  await sql`update scan_code_days set unique_scanners = unique_scanners + 1 where qr_code_id = 1`.execute(db);
  expect(
    (await sql<{ u: unknown }>`select unique_scanners as u from scan_code_days`.execute(db)).rows,
  ).toEqual([{ u: null }]);

  // The day's salt: one per day.
  const salt = Buffer.alloc(32, 7);
  await sql`insert into scan_salts (day, salt) values (${DAY + 1}, ${salt})`.execute(db);
  await expect(
    sql`insert into scan_salts (day, salt) values (${DAY + 1}, ${salt})`.execute(db),
  ).rejects.toThrow();
  const stored = (await sql<{ salt: Buffer }>`select salt from scan_salts`.execute(db)).rows;
  expect(stored.map((r) => Buffer.from(r.salt).equals(salt))).toEqual([true]);

  // A visitor per code and day once; 48-bit hashes are kept exactly.
  const extremes = [-(2 ** 47), 2 ** 47 - 1];
  for (const visitor of [...extremes, extremes[0]!])
    await sql`insert into scan_code_day_visitors (qr_code_id, day, visitor) values (1, ${DAY + 1}, ${visitor})
              on conflict do nothing`.execute(db);
  expect(
    (
      await sql<{ visitor: unknown }>`select visitor from scan_code_day_visitors order by visitor`.execute(db)
    ).rows.map((r) => Number(r.visitor)),
  ).toEqual(extremes);
  await sql`insert into qr_scans (qr_code_id, at, device, visitor) values (1, ${at + 86_400_000}, 1, ${extremes[1]})`.execute(
    db,
  );
  // Deleting a code deletes its visitors.
  await sql`delete from qr_codes where id = 1`.execute(db);
  expect((await sql`select * from scan_code_day_visitors`.execute(db)).rows).toEqual([]);

  await migrateTo(db, previous);
  const tables = await ownTableNames(db);
  expect(tables).not.toContain('scan_salts');
  expect(tables).not.toContain('scan_code_day_visitors');
  expect((await sql`select * from scan_user_quarters`.execute(db)).rows).toEqual([
    { user_id: 1, bucket: BUCKET, mobile: 1, tablet: 0, desktop: 0, bot: 1, unknown: 0 },
  ]);
}

describeMigration(THIS, upgradeWithData);
