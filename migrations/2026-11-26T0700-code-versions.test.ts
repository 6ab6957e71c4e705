import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { ownTableNames } from '../server/test/test-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-26T0700-code-versions';

const previous = previousOf(THIS);

const design = {
  foregroundColor: '#1A237E',
  backgroundColor: '#FFFFFF',
  errorCorrectionLevel: 'Q',
  style: 'dots',
};

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previous);
  const now = '2026-11-20T08:00:00.000Z';
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${now})`.execute(db);
  await sql`insert into users (username, password, created_at) values ('bob', 'hash', ${now})`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, slug, customization, created, updated)
            values (1, 'Menu', 'url', 'https://example.com/menu', ${true}, 'menu1', ${JSON.stringify(design)},
                    '2026-11-01T10:00:00.000Z', '2026-11-15T12:30:00.000Z')`.execute(db);
  await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, customization, created, updated)
            values (2, 'Wi-Fi', 'wifi', 'WIFI:T:WPA;S:Cafe;P:pw;;', ${false}, ${'{}'},
                    '2026-11-02T10:00:00.000Z', '2026-11-02T10:00:00.000Z')`.execute(db);

  await migrateTo(db, THIS);

  // One 'created' version per existing code: by its owner, at its last update, holding its current state.
  const versions = await db
    .selectFrom('qr_code_versions')
    .select(['qr_code_id', 'user_id', 'created', 'kind', 'restored_from', 'snapshot'])
    .orderBy('qr_code_id')
    .execute();
  expect(
    versions.map((v) => ({
      ...v,
      created: new Date(v.created).toISOString(),
      snapshot: JSON.parse(v.snapshot) as unknown,
    })),
  ).toEqual([
    {
      qr_code_id: 1,
      user_id: 1,
      created: '2026-11-15T12:30:00.000Z',
      kind: 'created',
      restored_from: null,
      snapshot: { name: 'Menu', content: 'https://example.com/menu', customization: design },
    },
    {
      qr_code_id: 2,
      user_id: 2,
      created: '2026-11-02T10:00:00.000Z',
      kind: 'created',
      restored_from: null,
      snapshot: { name: 'Wi-Fi', content: 'WIFI:T:WPA;S:Cafe;P:pw;;', customization: {} },
    },
  ]);
  // The codes themselves are untouched.
  expect(await db.selectFrom('qr_codes').select(['id', 'name', 'content']).orderBy('id').execute()).toEqual([
    { id: 1, name: 'Menu', content: 'https://example.com/menu' },
    { id: 2, name: 'Wi-Fi', content: 'WIFI:T:WPA;S:Cafe;P:pw;;' },
  ]);

  // A version goes with its code; its author's deletion leaves it, nameless.
  await db
    .insertInto('qr_code_versions')
    .values({ qr_code_id: 1, user_id: 2, created: now, kind: 'edited', restored_from: null, snapshot: '{}' })
    .execute();
  await db.deleteFrom('users').where('id', '=', 2).execute();
  expect(
    await db.selectFrom('qr_code_versions').select(['qr_code_id', 'user_id', 'kind']).orderBy('id').execute(),
  ).toEqual([
    { qr_code_id: 1, user_id: 1, kind: 'created' },
    { qr_code_id: 1, user_id: null, kind: 'edited' },
  ]);
  await db.deleteFrom('qr_codes').where('id', '=', 1).execute();
  expect(await db.selectFrom('qr_code_versions').selectAll().execute()).toEqual([]);

  await migrateTo(db, previous);
  expect(await ownTableNames(db)).not.toContain('qr_code_versions');
}

describeMigration(THIS, upgradeWithData);
