import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, sqliteConnectionOf, type DbHandle } from '../../db/create-db.js';
import type { Db } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/db-errors.js';
import { migrateToLatest } from '../../db/migrate.js';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { ownTableNames } from '../../test/test-db.js';
import type { ScanToStore } from './rollup-model.js';
import { createScanRecorder, type ScanRecorder } from './scan-recorder.js';

/**
 * The scan writer's thread (scan-writer-thread.ts), which `npm start` uses for its database file: what
 * it commits is exactly what the request thread's writer commits, a deleted code's scan is refused as
 * before, and closing commits what was queued.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-scan-writer-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A migrated database in a file, with two owners and three dynamic codes (ids 1–3). */
async function fileDb(name: string): Promise<DbHandle> {
  const handle = createDb(`sqlite:${path.join(dir, `${name}.db`)}`);
  await migrateToLatest(handle.db);
  const ana = await insertTestUser(handle.db, { username: `ana_${name}` });
  const ben = await insertTestUser(handle.db, { username: `ben_${name}` });
  for (const userId of [ana.id, ana.id, ben.id]) await insertQrRow(handle.db, { userId, isDynamic: true });
  return handle;
}

const phone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile/15E148 Safari/604.1';
const desktop = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36';
const t0 = Date.UTC(2026, 10, 27, 23, 50);

/** Scans of every kind: people (some seen twice), bots, throttled, refused, ruled, two owners, two days. */
function scansToStore(): ScanToStore[] {
  const rows: ScanToStore[] = [];
  for (let i = 0; i < 120; i++) {
    const code = (i % 3) + 1;
    const owner = code === 3 ? 2 : 1;
    const base = { qr_code_id: code, owner_id: owner, timestamp: t0 + i * 11_000 };
    if (i % 17 === 0) {
      rows.push({ ...base, throttled: true });
      continue;
    }
    const bot = i % 13 === 0;
    rows.push({
      ...base,
      user_agent: bot ? 'Googlebot/2.1' : i % 2 ? phone : `${desktop} #${i % 5}`,
      ip_address: `203.0.113.${i % 9}`,
      referrer: i % 4 === 0 ? `https://ref${i % 3}.example/` : null,
      location: i % 6 === 0 ? null : ['Berlin, DE', 'Paris, FR', 'Tokyo, JP'][i % 3]!,
      device: bot ? 'Bot' : i % 2 ? 'Mobile' : 'Desktop',
      visitor: bot ? null : (i % 9) * 1000 + code,
      refused: i % 10 === 0 ? 1 : null,
      rule: i % 10 === 0 ? null : i % 4,
    });
  }
  return rows;
}

/** Every scan table's rows, in a stable order. */
async function scanTables(db: Db): Promise<Record<string, unknown[]>> {
  const connection = sqliteConnectionOf(db)!;
  const tables = (await ownTableNames(db)).filter((t) => /scan|throttled|refused/.test(t)).sort();
  return Object.fromEntries(
    tables.map((t) => [
      t,
      connection
        .prepare(`select * from ${t}`)
        .all()
        .map((row) => JSON.stringify(row))
        .sort(),
    ]),
  );
}

/** Records `rows` in bursts of `burst` at once, as concurrent requests would. */
async function recordAll(recorder: ScanRecorder, rows: ScanToStore[], burst = 25) {
  for (let i = 0; i < rows.length; i += burst)
    await Promise.all(rows.slice(i, i + burst).map((row) => recorder.record(row)));
}

describe('the scan writer thread', () => {
  let threaded: DbHandle;
  let inline: DbHandle;
  beforeAll(async () => {
    threaded = await fileDb('threaded');
    inline = await fileDb('inline');
  });
  afterAll(async () => {
    await threaded.close();
    await inline.close();
  });

  it('commits on its own connection exactly the rows the request thread writes', async () => {
    const own = sqliteConnectionOf(threaded.db)!;
    const version = () => own.pragma('data_version', { simple: true }) as number;
    const before = version();
    const onThread = createScanRecorder(threaded.db);
    const onRequestThread = createScanRecorder(inline.db, { writerThread: false });
    await recordAll(onThread, scansToStore());
    // Committed by another connection: SQLite's data_version moves only for other connections' commits.
    expect(version()).not.toBe(before);
    await recordAll(onRequestThread, scansToStore());
    await onThread.close();
    await onRequestThread.close();

    const got = await scanTables(threaded.db);
    expect(got).toEqual(await scanTables(inline.db));
    expect(got.qr_scans).toHaveLength(scansToStore().filter((r) => !r.throttled).length);
    expect(got.throttled_scans!.length).toBeGreaterThan(0);
    expect(got.refused_scans!.length).toBeGreaterThan(0);
  });

  it("refuses a deleted code's scan with the database's foreign-key error and stores the others", async () => {
    const recorder = createScanRecorder(threaded.db);
    const code = await insertQrRow(threaded.db, { userId: 1, isDynamic: true });
    await threaded.db.deleteFrom('qr_codes').where('id', '=', code.id).execute();
    const before = (await scanTables(threaded.db)).qr_scans!.length;
    const scan = (qr_code_id: number): ScanToStore => ({
      qr_code_id,
      owner_id: 1,
      timestamp: Date.now(),
      user_agent: phone,
      device: 'Mobile',
      visitor: 7,
    });
    const outcomes = await Promise.allSettled(
      [scan(1), scan(code.id), scan(2)].map((s) => recorder.record(s)),
    );
    await recorder.close();
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(isForeignKeyViolation((outcomes[1] as PromiseRejectedResult).reason)).toBe(true);
    expect((await scanTables(threaded.db)).qr_scans!.length).toBe(before + 2);
  });

  it('commits what was queued when it closes, then takes no more', async () => {
    const recorder = createScanRecorder(threaded.db);
    const before = (await scanTables(threaded.db)).qr_scans!.length;
    const pending = scansToStore()
      .slice(1, 40)
      .map((row) => recorder.record(row));
    await recorder.close();
    await Promise.all(pending);
    expect((await scanTables(threaded.db)).qr_scans!.length).toBe(
      before +
        scansToStore()
          .slice(1, 40)
          .filter((r) => !r.throttled).length,
    );
    await expect(recorder.record(scansToStore()[1]!)).rejects.toThrow('The scan recorder is closed');
  });
});
