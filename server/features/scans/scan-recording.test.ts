import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { storedScans } from '../../test/stored-scans.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { createScanRecorder } from './scan-recorder.js';
import type { ScanToStore } from './rollup-model.js';

/**
 * The database as the recorder sees it, with every `db.transaction()` counted and, on request, held
 * before it runs. The recorder only ever calls `db.transaction().execute(fn)`; everything else is the
 * real Kysely instance. After each transaction the rows of qr_scans are counted straight from the
 * database: the difference is what that transaction committed (the recorder runs one at a time).
 */
interface ObservedDb {
  db: Db;
  /** `db.transaction()` calls so far. */
  transactions: () => number;
  /** Rows each transaction committed, in order (0 for one that failed and rolled back). */
  committed: number[];
  /** Holds the next transaction until `release()`; `started` resolves when the recorder has begun it. */
  holdNext: () => { started: Promise<void>; release: () => void };
}

function observe(real: Db): ObservedDb {
  let transactions = 0;
  const committed: number[] = [];
  const holds: { started: () => void; released: Promise<void> }[] = [];
  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === 'transaction') {
        return () => {
          transactions += 1;
          const hold = holds.shift();
          const builder = target.transaction();
          return {
            execute: async (fn: Parameters<typeof builder.execute>[0]) => {
              if (hold) {
                hold.started();
                await hold.released;
              }
              const before = await countRows(target, 'qr_scans');
              try {
                return await builder.execute(fn);
              } finally {
                committed.push((await countRows(target, 'qr_scans')) - before);
              }
            },
          };
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    db,
    transactions: () => transactions,
    committed,
    holdNext() {
      let started!: () => void;
      let release!: () => void;
      const startedPromise = new Promise<void>((r) => (started = r));
      const released = new Promise<void>((r) => (release = r));
      holds.push({ started, released });
      return { started: startedPromise, release };
    },
  };
}

const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

/** The owner of the codes the scans below belong to (set by each suite's beforeEach). */
let ownerId = 1;

function scanRow(qrCodeId: number, i = 0): ScanToStore {
  return {
    owner_id: ownerId,
    qr_code_id: qrCodeId,
    timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, 0, i)).toISOString(),
    user_agent: `${UA} #${i}`,
    ip_address: `203.0.113.${i % 256}`,
    referrer: null,
    location: 'Australia',
    device: 'Mobile',
  };
}

/** A code id that does not exist: the insert violates qr_scans.qr_code_id → qr_codes.id. */
const MISSING_CODE_ID = 987_654;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describeEachDb('the scan recorder (group commit)', (getDb) => {
  let codeId: number;
  let otherCodeId: number;

  beforeEach(async () => {
    const { db } = getDb();
    const user = await insertTestUser(db, { username: 'recorder' });
    ownerId = user.id;
    codeId = (await insertQrRow(db, { userId: user.id, isDynamic: true })).id;
    otherCodeId = (await insertQrRow(db, { userId: user.id, isDynamic: true })).id;
  });

  async function scansOf(db: Db, id: number) {
    return (await storedScans(db, id)).map((s) => ({ user_agent: s.user_agent }));
  }

  it('stores 200 concurrent scans, all answered, in far fewer transactions than scans', async () => {
    const observed = observe(getDb().db);
    const recorder = createScanRecorder(observed.db);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => recorder.record(scanRow(i % 2 ? codeId : otherCodeId, i))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(200);
    expect(await countRows(getDb().db, 'qr_scans')).toBe(200);
    expect(await scansOf(getDb().db, codeId)).toHaveLength(100);
    // Observed: all 200 were queued in the same turn of the event loop, so one transaction
    // committed them all (a multi-row INSERT of 200 rows).
    expect(observed.transactions()).toBe(1);
    expect(observed.committed).toEqual([200]);
    await recorder.close();
  });

  it('splits a very large burst into several bounded batches, still losing nothing', async () => {
    const observed = observe(getDb().db);
    const recorder = createScanRecorder(observed.db);
    await Promise.all(Array.from({ length: 1200 }, (_, i) => recorder.record(scanRow(codeId, i))));
    expect(await countRows(getDb().db, 'qr_scans')).toBe(1200);
    // Observed: batches of at most 500 rows (500 + 500 + 200), far below the parameter limits.
    expect(observed.transactions()).toBeGreaterThanOrEqual(2);
    expect(observed.transactions()).toBeLessThanOrEqual(6);
    expect(observed.committed.reduce((a, b) => a + b, 0)).toBe(1200);
    expect(Math.max(...observed.committed)).toBeLessThanOrEqual(500);
  });

  it('resolves a scan only once it is committed: an idle recorder commits each scan at once', async () => {
    const observed = observe(getDb().db);
    const recorder = createScanRecorder(observed.db);
    for (let i = 1; i <= 5; i++) {
      await recorder.record(scanRow(codeId, i));
      // Visible to any other connection the moment record() resolves.
      expect(await countRows(getDb().db, 'qr_scans')).toBe(i);
    }
    expect(observed.transactions()).toBe(5);
    expect(observed.committed).toEqual([1, 1, 1, 1, 1]);
  });

  it('queues the scans that arrive during a flush and commits them together in the next one', async () => {
    const observed = observe(getDb().db);
    const recorder = createScanRecorder(observed.db);
    const first = observed.holdNext();
    const early = recorder.record(scanRow(codeId, 0));
    await first.started;
    let lateAnswered = 0;
    const late = Array.from({ length: 50 }, (_, i) =>
      recorder.record(scanRow(codeId, i + 1)).then(() => {
        lateAnswered += 1;
      }),
    );
    // Nothing of the late scans is answered while the first transaction is still open.
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(lateAnswered).toBe(0);
    expect(await countRows(getDb().db, 'qr_scans')).toBe(0);
    first.release();
    await early;
    await Promise.all(late);
    expect(lateAnswered).toBe(50);
    expect(observed.transactions()).toBe(2);
    expect(observed.committed).toEqual([1, 50]);
  });

  it('close() commits what is queued and in flight; a later record() rejects', async () => {
    const observed = observe(getDb().db);
    const recorder = createScanRecorder(observed.db);
    const hold = observed.holdNext();
    const inFlight = Array.from({ length: 5 }, (_, i) => recorder.record(scanRow(codeId, i)));
    await hold.started;
    const queued = Array.from({ length: 7 }, (_, i) => recorder.record(scanRow(codeId, 10 + i)));
    const closing = recorder.close();
    await expect(recorder.record(scanRow(codeId, 99))).rejects.toThrow(/closed/i);
    hold.release();
    await closing;
    // Everything accepted before close() was committed by the time close() resolved.
    expect(await countRows(getDb().db, 'qr_scans')).toBe(12);
    await expect(Promise.all([...inFlight, ...queued])).resolves.toBeDefined();
    await expect(recorder.record(scanRow(codeId, 100))).rejects.toThrow(/closed/i);
    expect(await countRows(getDb().db, 'qr_scans')).toBe(12);
  });

  it('close() commits scans queued in the same turn, before any flush ran', async () => {
    const recorder = createScanRecorder(getDb().db);
    const pending = Array.from({ length: 30 }, (_, i) => recorder.record(scanRow(codeId, i)));
    await recorder.close();
    expect(await countRows(getDb().db, 'qr_scans')).toBe(30);
    await expect(Promise.all(pending)).resolves.toHaveLength(30);
  });

  it('close() of an idle recorder resolves at once, and twice', async () => {
    const recorder = createScanRecorder(getDb().db);
    await recorder.close();
    await recorder.close();
    await expect(recorder.record(scanRow(codeId))).rejects.toThrow(/closed/i);
    expect(await countRows(getDb().db, 'qr_scans')).toBe(0);
  });

  it('a failing batch is retried row by row: only the bad scan is refused; the batches around it commit', async () => {
    const observed = observe(getDb().db);
    const recorder = createScanRecorder(observed.db);

    // Batch A: 10 good scans, held open while the next two batches queue up behind it.
    const holdA = observed.holdNext();
    const batchA = Array.from({ length: 10 }, (_, i) => recorder.record(scanRow(codeId, i)));
    await holdA.started;
    // Batch B: one scan of a code that does not exist (foreign key violation) among 4 good ones.
    const holdB = observed.holdNext();
    const batchB = [
      recorder.record(scanRow(codeId, 20)),
      recorder.record(scanRow(MISSING_CODE_ID, 21)),
      recorder.record(scanRow(otherCodeId, 22)),
      recorder.record(scanRow(codeId, 23)),
      recorder.record(scanRow(codeId, 24)),
    ];
    holdA.release();
    await holdB.started;
    // Batch C: queued while B is in its transaction.
    const batchC = Array.from({ length: 10 }, (_, i) => recorder.record(scanRow(otherCodeId, 30 + i)));
    holdB.release();

    const [a, b, c] = await Promise.all([
      Promise.allSettled(batchA),
      Promise.allSettled(batchB),
      Promise.allSettled(batchC),
    ]);
    expect(a.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'));
    expect(c.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'));
    // Batch B fails as a whole (one INSERT, one transaction), then is retried row by row: only the
    // scan of the missing code is refused; the other four are committed and answered.
    expect(b.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    const refused = b[1]!;
    expect(refused.status === 'rejected' && String((refused.reason as Error).message)).toMatch(
      /foreign key/i,
    );
    // A, B (rolled back), B's five rows one by one (one fails), then C.
    expect(observed.transactions()).toBe(8);
    expect(observed.committed).toEqual([10, 0, 1, 0, 1, 1, 1, 10]);
    expect(await countRows(getDb().db, 'qr_scans')).toBe(24);
    expect((await scansOf(getDb().db, codeId)).map((s) => s.user_agent)).toEqual(
      [...Array.from({ length: 10 }, (_, i) => i), 20, 23, 24].map((i) => `${UA} #${i}`),
    );

    // The recorder keeps working after the failure.
    await recorder.record(scanRow(codeId, 50));
    expect(await countRows(getDb().db, 'qr_scans')).toBe(25);
    await recorder.close();
  });

  it('a lone failing scan rejects without touching scans recorded before and after it', async () => {
    const recorder = createScanRecorder(getDb().db);
    await recorder.record(scanRow(codeId, 1));
    await expect(recorder.record(scanRow(MISSING_CODE_ID, 2))).rejects.toThrow(/foreign key/i);
    await recorder.record(scanRow(codeId, 3));
    expect((await scansOf(getDb().db, codeId)).map((s) => s.user_agent)).toEqual([`${UA} #1`, `${UA} #3`]);
    await recorder.close();
  });
});

describe('the scan recorder without a database', () => {
  it('rejects the waiting scans of a batch whose transaction cannot even start', async () => {
    const broken = {
      transaction: () => ({
        execute: () => Promise.reject(new Error('database is gone')),
      }),
    } as unknown as Db;
    const recorder = createScanRecorder(broken);
    const results = await Promise.allSettled([recorder.record(scanRow(1)), recorder.record(scanRow(1, 1))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await recorder.close();
  });
});
