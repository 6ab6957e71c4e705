import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { createTestDb, testDatabaseUrl, type TestDb } from '../../test/test-db.js';
import { findDynamicCodeBySlug, prepareShortLinks } from './redirect.repository.js';

/** The SQLite short-link cache (the PostgreSQL lookup is never cached: below, and the route tests). */
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

/** The PostgreSQL lookup: never cached, the scans arriving together read by one query. */
const pgUrl = testDatabaseUrl();
(pgUrl ? describe : describe.skip)(
  `the PostgreSQL short-link lookup${pgUrl ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`,
  () => {
    let testDb: TestDb;
    beforeAll(async () => {
      testDb = await createTestDb('postgres');
    });
    afterAll(async () => {
      await testDb?.close();
    });

    async function codes(count: number) {
      await testDb.reset();
      const { db } = testDb;
      const user = await insertTestUser(db, { username: 'pg-lookup-owner' });
      const rows = [];
      for (let i = 0; i < count; i++)
        rows.push(
          await insertQrRow(db, { userId: user.id, isDynamic: true, content: `https://example.com/${i}` }),
        );
      return rows.map((row) => row as typeof row & { slug: string });
    }

    it('answers each of many scans arriving together with its own code, or none', async () => {
      const rows = await codes(5);
      const { db } = testDb;
      const slugs = [...rows.map((r) => r.slug), 'missing1', rows[2]!.slug, 'missing2', rows[0]!.slug];
      const found = await Promise.all(slugs.map((slug) => findDynamicCodeBySlug(db, slug)));
      expect(found.map((target) => target?.content)).toEqual([
        ...rows.map((r) => r.content),
        undefined,
        rows[2]!.content,
        undefined,
        rows[0]!.content,
      ]);
      expect(found[0]).toMatchObject({ id: rows[0]!.id, slug: rows[0]!.slug, options: null });
    });

    it('sees an edit committed before the scan, even while another scan is being read', async () => {
      const [row] = await codes(1);
      const { db } = testDb;
      // A lookup under way when the code changes...
      const before = findDynamicCodeBySlug(db, row!.slug);
      await new Promise((resolve) => setImmediate(resolve));
      await db
        .updateTable('qr_codes')
        .set({ content: 'https://new.example/' })
        .where('id', '=', row!.id)
        .execute();
      // ...does not carry the next scan: that one is read after the edit.
      const after = findDynamicCodeBySlug(db, row!.slug);
      expect((await after)?.content).toBe('https://new.example/');
      expect(['https://example.com/0', 'https://new.example/']).toContain((await before)?.content);
      // A code that stops being dynamic (or is deleted) is gone for the very next scan.
      await db.updateTable('qr_codes').set({ is_dynamic: false }).where('id', '=', row!.id).execute();
      expect(await findDynamicCodeBySlug(db, row!.slug)).toBeUndefined();
    });
  },
);
