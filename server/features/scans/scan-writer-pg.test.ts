import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../db/create-db.js';
import type { Db } from '../../db/database.js';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { createTestDb, testDatabaseUrl, workerDatabaseUrl, type TestDb } from '../../test/test-db.js';
import { DAY_MS, QUARTER_MS, type ScanToStore } from './rollup-model.js';
import { DictionaryCache, resolveDictionaryIds } from './scan-columns.js';
import { writeScansWithRollups } from './scan-rollups.js';
import { createPgScanWriter } from './scan-writer-pg.js';

/**
 * The one-statement PostgreSQL writer against the Kysely writer it replaces in the recorder: the same
 * batches through each, from the same empty database, must leave every scan table identical, ids
 * included. Then two writers on two pools at once, on the same code: everything committed, no
 * deadlock, sums and unique scanners right. PostgreSQL only: without TEST_DATABASE_URL the block is
 * reported as skipped.
 */

const url = testDatabaseUrl();
const suite = url ? describe : describe.skip;
const title = `PostgreSQL one-statement scan writer${url ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`;

/** Every table a batch writes, each ordered by all its columns. */
const TABLES = {
  qr_scans: 'id',
  scan_user_agents: 'id',
  scan_referrers: 'id',
  scan_locations: 'id',
  scan_code_day_visitors: 'qr_code_id, day, visitor',
  scan_user_quarters: 'user_id, bucket',
  scan_code_quarters: 'qr_code_id, bucket',
  scan_code_days: 'qr_code_id, day',
  scan_code_day_locations: 'qr_code_id, day, location',
  scan_user_day_locations: 'user_id, day, location',
  scan_code_places: 'qr_code_id, place',
  throttled_scans: 'qr_code_id, day',
  refused_scans: 'qr_code_id, day',
} as const;

async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(TABLES)) {
    const { rows } = await sql`select * from ${sql.table(table)} order by ${sql.raw(order)}`.execute(db);
    out[table] = rows;
  }
  return out;
}

/** A small deterministic generator (mulberry32), so a failure is the same on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE = Date.UTC(2026, 10, 27, 23, 40); // 20 minutes before a UTC midnight
const DEVICES = [null, 'Mobile', 'Tablet', 'Desktop', 'Bot', 'Unknown', 'Toaster'];

interface Fixture {
  /** Two owners' codes: [code id, owner id]. */
  codes: [number, number][];
}

async function fixture(db: Db): Promise<Fixture> {
  const ann = await insertTestUser(db, { username: 'ann' });
  const bob = await insertTestUser(db, { username: 'bob' });
  const codes: [number, number][] = [];
  for (const owner of [ann, bob, ann, bob, ann]) {
    const code = await insertQrRow(db, { userId: owner.id, isDynamic: true });
    codes.push([code.id, owner.id]);
  }
  return { codes };
}

/**
 * Batches with something of everything: people with visitor hashes (repeated within and across
 * batches, across a quarter hour and a UTC midnight), people without one, bots, throttled scans,
 * every refusal (bots' simulated scans and password forms among them), rules, missing values, and
 * new user agents, referrers and locations appearing batch after batch.
 */
function batchesOf({ codes }: Fixture): ScanToStore[][] {
  const next = random(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const batches: ScanToStore[][] = [];
  let ms = BASE;
  for (let b = 0; b < 12; b++) {
    const batch: ScanToStore[] = [];
    const size = b === 0 ? 1 : 1 + Math.floor(next() * 60);
    for (let i = 0; i < size; i++) {
      ms += Math.floor(next() * 20_000);
      const [code, owner] = pick(codes);
      const device = pick(DEVICES);
      const throttled = next() < 0.1;
      const base = {
        qr_code_id: code,
        owner_id: owner,
        timestamp: next() < 0.5 ? new Date(ms) : new Date(ms).toISOString(),
      };
      if (throttled) {
        batch.push({ ...base, throttled: true });
        continue;
      }
      const person = device !== 'Bot';
      batch.push({
        ...base,
        // New values keep appearing: b selects the batch they first show up in.
        user_agent: next() < 0.1 ? null : `agent ${Math.floor(next() * (3 + b))}`,
        referrer: next() < 0.5 ? null : `https://ref.example/${Math.floor(next() * (2 + b))}`,
        location: pick([null, 'Unknown', 'Berlin, Germany', `City ${Math.floor(next() * (2 + b))}`]),
        ip_address: pick([null, '10.0.0.1', '10.0.0.2', '2001:db8::1']),
        device,
        visitor: person && next() < 0.85 ? pick([1, 2, 3, 4, -(2 ** 47), 2 ** 47 - 1]) : null,
        refused: next() < 0.3 ? pick([1, 2, 3, 4, 5, 6]) : null,
        rule: next() < 0.5 ? pick([0, 1, 2, null]) : null,
      });
    }
    batches.push(batch);
  }
  // Last, a batch of values all seen before, with nothing throttled or refused: the statement's lean
  // variant (no dictionary, throttled or refused part).
  const seen = batches.flat().filter((row) => !row.throttled);
  batches.push(seen.slice(0, 30).map((row, i) => ({ ...row, timestamp: new Date(ms + i), refused: null })));
  return batches;
}

suite(title, () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await createTestDb('postgres');
  });
  beforeEach(async () => {
    await test.reset();
  });
  afterAll(async () => {
    await test?.close();
  });

  /** The recorder's path before this writer: dictionary ids resolved (and cached), then one transaction. */
  function kyselyWriter(db: Db) {
    const cache = new DictionaryCache();
    return async (rows: ScanToStore[]) => {
      const ids = await resolveDictionaryIds(db, rows, cache);
      await db.transaction().execute((trx) => writeScansWithRollups(trx, rows, ids));
    };
  }

  async function run(write: (db: Db) => (rows: ScanToStore[]) => Promise<void>) {
    await test.reset();
    const f = await fixture(test.db);
    const writer = write(test.db);
    for (const batch of batchesOf(f)) await writer(batch);
    return snapshot(test.db);
  }

  it('leaves every table exactly as the Kysely writer does', async () => {
    const expected = await run(kyselyWriter);
    // Something of everything was written.
    for (const table of Object.keys(TABLES)) expect(expected[table], table).not.toHaveLength(0);
    expect(await run((db) => createPgScanWriter(db))).toEqual(expected);
    // Through Kysely (no pool of its own: a plugin-less copy of the instance), the same statement.
    expect(await run((db) => createPgScanWriter(db.withoutPlugins()))).toEqual(expected);
  });

  it('counts a visitor once per code and day, in the quarter hour of their first stored scan', async () => {
    const f = await fixture(test.db);
    const [code, owner] = f.codes[0]!;
    const writer = createPgScanWriter(test.db);
    const scan = (ms: number, visitor: number | null): ScanToStore => ({
      qr_code_id: code,
      owner_id: owner,
      timestamp: new Date(ms),
      user_agent: 'agent',
      device: 'Mobile',
      visitor,
    });
    await writer([scan(BASE, 7), scan(BASE + 1, 7), scan(BASE + QUARTER_MS, 8)]);
    await writer([scan(BASE + QUARTER_MS, 7), scan(BASE + QUARTER_MS + 1, 9)]);
    const quarters = await test.db
      .selectFrom('scan_code_quarters')
      .select(['bucket', 'mobile', 'unique_scanners'])
      .orderBy('bucket')
      .execute();
    const bucket = Math.floor(BASE / QUARTER_MS);
    expect(quarters).toEqual([
      { bucket, mobile: 2, unique_scanners: 1 },
      { bucket: bucket + 1, mobile: 3, unique_scanners: 2 },
    ]);
    // A person's scan without a hash leaves the count unknown from then on.
    await writer([scan(BASE + QUARTER_MS + 2, null)]);
    const day = await test.db
      .selectFrom('scan_code_days')
      .select(['mobile', 'unique_scanners'])
      .where('day', '=', Math.floor(BASE / DAY_MS))
      .executeTakeFirstOrThrow();
    expect(day).toEqual({ mobile: 6, unique_scanners: null });
  });

  it('rejects a batch naming a deleted code as a whole, leaving nothing of it', async () => {
    const f = await fixture(test.db);
    const [code, owner] = f.codes[1]!;
    const writer = createPgScanWriter(test.db);
    await test.db.deleteFrom('qr_codes').where('id', '=', code).execute();
    const [other, otherOwner] = f.codes[0]!;
    await expect(
      writer([
        {
          qr_code_id: other,
          owner_id: otherOwner,
          timestamp: new Date(BASE),
          user_agent: 'fresh agent',
          visitor: 1,
        },
        { qr_code_id: code, owner_id: owner, timestamp: new Date(BASE), visitor: 1 },
      ]),
    ).rejects.toMatchObject({ code: '23503' });
    const left = await snapshot(test.db);
    for (const table of Object.keys(TABLES)) expect(left[table], table).toEqual([]);
    // The value was not remembered: the next batch inserts it again and stores its id.
    await writer([
      { qr_code_id: other, owner_id: otherOwner, timestamp: new Date(BASE), user_agent: 'fresh agent' },
    ]);
    const stored = await test.db
      .selectFrom('qr_scans')
      .innerJoin('scan_user_agents', 'scan_user_agents.id', 'qr_scans.user_agent_id')
      .select('value')
      .execute();
    expect(stored).toEqual([{ value: 'fresh agent' }]);
  });

  describe('two instances at once', () => {
    let handles: DbHandle[] = [];
    beforeAll(async () => {
      const workerUrl = await workerDatabaseUrl();
      handles = [0, 1].map(() => createDb(workerUrl, { poolSize: 2, asyncCommit: true }));
    });
    afterAll(async () => {
      await Promise.all(handles.map((h) => h.close()));
    });

    it('commits every batch of both, with no deadlock and the right sums', async () => {
      const f = await fixture(test.db);
      const [hot, hotOwner] = f.codes[0]!;
      const [cold, coldOwner] = f.codes[1]!;
      const writers = handles.map((h) => createPgScanWriter(h.db));
      const rounds = 30;
      const perBatch = 40;
      // Each instance writes to the same hot code, in its own quarter hour of one day, with the same
      // visitors and new user agents: whoever claims a visitor first has the lower scan ids.
      const batch = (instance: number, round: number): ScanToStore[] =>
        Array.from({ length: perBatch }, (_, i) => {
          const onHot = i % 4 !== 3;
          return {
            qr_code_id: onHot ? hot : cold,
            owner_id: onHot ? hotOwner : coldOwner,
            timestamp: new Date(BASE - 2 * QUARTER_MS + instance * QUARTER_MS + round),
            user_agent: `agent ${(round + i) % 7} of round ${Math.floor(round / 3)}`,
            location: `City ${(i + instance) % 5}`,
            ip_address: '10.0.0.1',
            device: i % 9 === 0 ? 'Bot' : 'Mobile',
            visitor: i % 9 === 0 ? null : (round * 7 + i) % 50,
          };
        });
      for (let round = 0; round < rounds; round++)
        await Promise.all(writers.map((write, instance) => write(batch(instance, round))));

      const total = 2 * rounds * perBatch;
      expect(
        Number((await sql<{ n: number }>`select count(*) as n from qr_scans`.execute(test.db)).rows[0]!.n),
      ).toBe(total);
      const sums = await sql<{ scans: number; bots: number; unique: number }>`
        select sum(mobile + tablet + desktop + bot + unknown)::int as scans, sum(bot)::int as bots,
          sum(unique_scanners)::int as unique from scan_code_days`.execute(test.db);
      const bots = 2 * rounds * Math.ceil(perBatch / 9);
      // Each code's visitors of the day, counted once.
      const distinct = await sql<{ n: number }>`select count(*)::int as n from
        (select distinct qr_code_id, visitor from qr_scans where visitor is not null) v`.execute(test.db);
      expect(sums.rows[0]).toEqual({ scans: total, bots, unique: distinct.rows[0]!.n });
      // Every rollup agrees with the raw scans.
      for (const table of ['scan_user_quarters', 'scan_code_quarters']) {
        const { rows } = await sql<{
          n: number;
        }>`select sum(mobile + bot)::int as n from ${sql.table(table)}`.execute(test.db);
        expect(rows[0]!.n, table).toBe(total);
      }
      const places = await sql<{ n: number }>`select sum(scans)::int as n from scan_code_places`.execute(
        test.db,
      );
      expect(places.rows[0]!.n).toBe(total);
      // Each user agent stored once, and every scan names one.
      const agents = await sql<{ n: number; distinct: number }>`select count(*)::int as n,
        count(distinct value)::int as distinct from scan_user_agents`.execute(test.db);
      expect(agents.rows[0]!.n).toBe(agents.rows[0]!.distinct);
      const unnamed = await sql<{
        n: number;
      }>`select count(*)::int as n from qr_scans where user_agent_id is null`.execute(test.db);
      expect(unnamed.rows[0]!.n).toBe(0);
      // A visitor's first sighting is their first stored scan: the unique scanner is counted in the
      // quarter hour of the scan with the lowest id.
      const { rows: firsts } = await sql<{ qr_code_id: number; bucket: number; n: number }>`
        select qr_code_id, bucket, count(*)::int as n from (
          select distinct on (qr_code_id, visitor) qr_code_id, floor(at / ${QUARTER_MS})::int as bucket
          from qr_scans where visitor is not null order by qr_code_id, visitor, id) f
        group by qr_code_id, bucket order by qr_code_id, bucket`.execute(test.db);
      const { rows: counted } = await sql<{ qr_code_id: number; bucket: number; n: number }>`
        select qr_code_id, bucket, unique_scanners as n from scan_code_quarters
        where unique_scanners > 0 order by qr_code_id, bucket`.execute(test.db);
      expect(counted).toEqual(firsts);
    });
  });
});
