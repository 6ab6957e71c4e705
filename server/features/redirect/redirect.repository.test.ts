import { afterEach, describe, expect, it } from 'vitest';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { createTestDb, type TestDb } from '../../test/test-db.js';
import { findDynamicCodeBySlug, prepareShortLinks } from './redirect.repository.js';

/** The SQLite short-link cache (the PostgreSQL lookup is never cached and covered by the route tests). */
describe('the SQLite short-link lookup cache', () => {
  let testDb: TestDb | undefined;
  afterEach(async () => {
    await testDb?.close();
    testDb = undefined;
  });

  async function freshCode() {
    testDb = await createTestDb('sqlite');
    const { db } = testDb;
    const user = await insertTestUser(db, { username: 'cache-owner' });
    const row = await insertQrRow(db, { userId: user.id, isDynamic: true, content: 'https://old.example/' });
    return { db, row: row as typeof row & { slug: string } };
  }

  it('is not set up inside a transaction that rolls back: later edits still apply', async () => {
    const { db, row } = await freshCode();
    // The very first lookup of this database happens inside a transaction that is rolled back.
    await expect(
      db.transaction().execute(async () => {
        expect((await findDynamicCodeBySlug(db, row.slug))?.content).toBe('https://old.example/');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await findDynamicCodeBySlug(db, row.slug))?.content).toBe('https://old.example/');
    await db
      .updateTable('qr_codes')
      .set({ content: 'https://new.example/' })
      .where('id', '=', row.id)
      .execute();
    expect((await findDynamicCodeBySlug(db, row.slug))?.content).toBe('https://new.example/');
  });

  it('prepared at start-up, it serves cached answers until any change of qr_codes', async () => {
    const { db, row } = await freshCode();
    prepareShortLinks(db);
    expect((await findDynamicCodeBySlug(db, row.slug))?.content).toBe('https://old.example/');
    await db.updateTable('qr_codes').set({ name: 'Renamed' }).where('id', '=', row.id).execute();
    expect((await findDynamicCodeBySlug(db, row.slug))?.name).toBe('Renamed');
    await db.deleteFrom('qr_codes').where('id', '=', row.id).execute();
    expect(await findDynamicCodeBySlug(db, row.slug)).toBeUndefined();
  });
});
