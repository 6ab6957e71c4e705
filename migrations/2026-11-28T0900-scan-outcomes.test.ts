import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-28T0900-scan-outcomes';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  const now = '2026-11-20T08:00:00.000Z';
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, slug, customization, created, updated)
            values (1, 'Menu', 'url', 'https://example.com/menu', ${true}, 'menu1', ${'{}'}, ${now}, ${now})`.execute(
    db,
  );
  // A served scan and one refused (paused) before the migration.
  await sql`insert into qr_scans (qr_code_id, at, device, refused) values (1, 1000, 1, null), (1, 2000, 3, 1)`.execute(
    db,
  );
  await sql`insert into refused_scans (qr_code_id, day, scans, bots, simulated) values (1, 20400, 7, 2, 1)`.execute(
    db,
  );

  await migrateTo(db, THIS);

  // Old scans keep their rows; nobody recorded their rule, so it is unknown (null), never "default".
  const scans = await sql<{ at: number; refused: number | null; rule: number | null }>`
    select at, refused, rule from qr_scans order by id`.execute(db);
  expect(scans.rows.map((r) => ({ at: Number(r.at), refused: r.refused, rule: r.rule }))).toEqual([
    { at: 1000, refused: null, rule: null },
    { at: 2000, refused: 1, rule: null },
  ]);
  // Refused counts kept; none of them was a password form.
  const refused = await sql<Record<string, number>>`
    select scans, bots, simulated, password_forms from refused_scans`.execute(db);
  expect(
    refused.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]))),
  ).toEqual([{ scans: 7, bots: 2, simulated: 1, password_forms: 0 }]);

  // New scans carry their rule (rule 2) or the password form's code (6).
  await sql`insert into qr_scans (qr_code_id, at, device, refused, rule) values (1, 3000, 1, null, 2), (1, 4000, 1, 6, null)`.execute(
    db,
  );
  await sql`update refused_scans set password_forms = password_forms + 1, scans = scans + 1`.execute(db);
  const after = await sql<{ rule: number | null }>`select rule from qr_scans where at = 3000`.execute(db);
  expect(after.rows[0]?.rule).toBe(2);

  await migrateTo(db, previousOf(THIS));
  const back = await sql<{ n: number }>`select count(*) as n from qr_scans`.execute(db);
  expect(Number(back.rows[0]?.n)).toBe(4);
  const counts = await sql<{ scans: number }>`select scans from refused_scans`.execute(db);
  expect(Number(counts.rows[0]?.scans)).toBe(8);
}

describeMigration(THIS, upgradeWithData);
