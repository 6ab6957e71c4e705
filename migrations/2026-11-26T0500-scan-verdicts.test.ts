import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-26T0500-scan-verdicts';

const previous = previousOf(THIS);

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previous);
  const now = new Date().toISOString();
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, slug)
            values (1, 'Menu', 'url', 'https://example.com', ${true}, 'menu1')`.execute(db);

  await migrateTo(db, THIS);

  // Codes saved before are not checked yet: the background check finds them by their null verdict.
  expect(
    await db.selectFrom('qr_codes').select(['name', 'content', 'scan_verdict', 'scan_reason']).execute(),
  ).toEqual([{ name: 'Menu', content: 'https://example.com', scan_verdict: null, scan_reason: null }]);
  await db
    .updateTable('qr_codes')
    .set({ scan_verdict: 'risky', scan_reason: 'Low contrast.' })
    .where('id', '=', 1)
    .execute();
  expect(await db.selectFrom('qr_codes').select(['scan_verdict', 'scan_reason']).execute()).toEqual([
    { scan_verdict: 'risky', scan_reason: 'Low contrast.' },
  ]);

  await migrateTo(db, previous);
  expect(await db.selectFrom('qr_codes').select('name').execute()).toEqual([{ name: 'Menu' }]);
}

describeMigration(THIS, upgradeWithData);
