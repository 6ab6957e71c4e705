import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { smartRedirectSchema } from '../../../src/qr/smart-redirect.js';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { describeEachDb } from '../../test/test-db.js';
import { refusalCodes } from '../scans/refused-scans.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import { findDynamicCodeBySlug, prepareShortLinks } from './redirect.repository.js';

// The short link's lookup carries what deciding a scan needs: the options, parsed and prepared, and —
// only for options with a scan limit or an "after N scans" rule — the code's served scans (stored
// scans by people, less refused ones).

describeEachDb('the short-link lookup with smart-redirect options', (getDb, kind) => {
  async function codeWith(options: object | null) {
    const { db } = getDb();
    prepareShortLinks(db);
    const user = await insertTestUser(db, { username: `o${Math.random().toString(36).slice(2, 8)}` });
    const row = await insertQrRow(db, { userId: user.id, isDynamic: true, content: 'https://example.com/' });
    if (options)
      await db
        .updateTable('qr_codes')
        .set({ redirect_options: JSON.stringify(smartRedirectSchema.parse(options)) })
        .where('id', '=', row.id)
        .execute();
    return { db, row: row as typeof row & { slug: string }, userId: user.id };
  }

  async function addScans(codeId: number, userId: number, devices: string[], refused?: number) {
    const { db } = getDb();
    await db.transaction().execute((trx) =>
      writeScansWithRollups(
        trx,
        devices.map((device) => ({
          qr_code_id: codeId,
          owner_id: userId,
          timestamp: new Date(),
          device,
          ...(refused ? { refused } : {}),
        })),
      ),
    );
  }

  it('answers the options parsed and a decider, and no count when the options need none', async () => {
    const { db, row, userId } = await codeWith({
      rules: [{ conditions: [{ kind: 'os', os: ['ios'] }], destination: 'https://apps.apple.com/app' }],
    });
    await addScans(row.id, userId, ['Mobile', 'Mobile']);
    const target = (await findDynamicCodeBySlug(db, row.slug))!;
    expect(target.options?.rules).toHaveLength(1);
    expect(target.servedScans()).toBe(0);
    expect(
      target.decide!('https://example.com/', {
        device: 'mobile',
        os: 'ios',
        country: null,
        languages: [],
        at: new Date(),
        scansBefore: 0,
      }),
    ).toEqual({ kind: 'go', url: 'https://apps.apple.com/app', rule: 0 });
  });

  it('counts served scans by people: bots and refused scans left out', async () => {
    const { db, row, userId } = await codeWith({ maxScans: 10 });
    await addScans(row.id, userId, ['Mobile', 'Desktop', 'Unknown', 'Bot', 'Bot']);
    await addScans(row.id, userId, ['Mobile', 'Bot'], refusalCodes.paused);
    const target = (await findDynamicCodeBySlug(db, row.slug))!;
    expect(target.servedScans()).toBe(3);
  });

  it('reads nothing but the lookup: on SQLite the count is kept in memory once read', async () => {
    const { db, row, userId } = await codeWith({
      rules: [{ conditions: [{ kind: 'scans', after: 2 }], destination: 'https://b.example/' }],
    });
    await addScans(row.id, userId, ['Mobile', 'Mobile']);
    expect((await findDynamicCodeBySlug(db, row.slug))!.servedScans()).toBe(2);
    // Rollups changed behind the app's back: the count in memory does not read them again (SQLite),
    // while PostgreSQL reads the count with every lookup.
    await sql`update scan_code_days set mobile = mobile + 5`.execute(db);
    expect((await findDynamicCodeBySlug(db, row.slug))!.servedScans()).toBe(kind === 'sqlite' ? 2 : 7);
  });

  it('reads options it cannot understand as none', async () => {
    const { db, row } = await codeWith(null);
    await db
      .updateTable('qr_codes')
      .set({ redirect_options: '{"rules":"nope"}' })
      .where('id', '=', row.id)
      .execute();
    const target = (await findDynamicCodeBySlug(db, row.slug))!;
    expect(target.options).toBeNull();
    expect(target.decide).toBeNull();
  });
});
