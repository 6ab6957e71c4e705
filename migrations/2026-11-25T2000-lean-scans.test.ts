import { sql, type Kysely } from 'kysely';
import { afterEach, expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import type { Database } from '../server/db/database.js';
import { writeScansWithRollups } from '../server/features/scans/scan-rollups.js';
import { storedScans } from '../server/test/stored-scans.js';
import { batching } from './2026-11-25T2000-lean-scans.js';
import { ownTableNames } from '../server/test/test-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';
import { migrations } from './index.js';

const THIS = '2026-11-25T2000-lean-scans';
const FIRST = '2026-11-22T0500-initial';

const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36',
  'WhatsApp/2.24.24.76 A',
  null,
];
const DEVICES = ['Mobile', 'Desktop', 'Bot', null, 'Tablet', 'Unknown', 'Smart fridge'];
const LOCATIONS = ['Berlin, Germany', 'Unknown', '', null, 'São Paulo, Brazil'];
const REFERRERS = [null, 'https://www.google.com/', 'android-app://com.google.android.gm/'];
const IPS = ['203.0.113.7', '2001:db8::1', null, '198.51.100.0'];

interface WideScan {
  id: number;
  qr_code_id: number;
  timestamp: string;
  user_agent: string | null;
  ip_address: string | null;
  referrer: string | null;
  location: string | null;
  device: string | null;
}

/** 40 scans of two codes with every kind of value, one of them with the column's default time. */
async function fillFirstSchema(db: Kysely<Database>): Promise<void> {
  const created = '2026-09-01T08:00:00.000Z';
  await sql`insert into users (username, password, created_at) values ('ada', 'hash', ${created})`.execute(
    db,
  );
  for (const slug of ['menu1', 'flyer2'])
    await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, slug)
              values (1, ${slug}, 'url', 'https://example.com', ${true}, ${slug})`.execute(db);
  for (let i = 0; i < 40; i++) {
    const at = new Date(Date.UTC(2026, 9, 1, 0, 0, 0, 0) + i * 3_600_123 + (i % 7)).toISOString();
    await sql`insert into qr_scans (qr_code_id, timestamp, user_agent, ip_address, referrer, location, device)
      values (${1 + (i % 2)}, ${at}, ${AGENTS[i % AGENTS.length]!}, ${IPS[i % IPS.length]!},
        ${REFERRERS[i % REFERRERS.length]!}, ${LOCATIONS[i % LOCATIONS.length]!}, ${DEVICES[i % DEVICES.length]!})`.execute(
      db,
    );
  }
  await sql`insert into qr_scans (qr_code_id, user_agent, device) values (2, ${AGENTS[0]!}, 'Mobile')`.execute(
    db,
  );
}

const category = (device: string | null) =>
  device && ['Mobile', 'Tablet', 'Desktop', 'Bot'].includes(device) ? device : 'Unknown';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, FIRST);
  await fillFirstSchema(db);
  // Every migration in between runs on that data (the rollups' backfill among them).
  await migrateTo(db, previousOf(THIS));
  const wide = (
    await sql<WideScan>`select id, qr_code_id, timestamp, user_agent, ip_address, referrer, location, device
      from qr_scans order by id`.execute(db)
  ).rows.map((r) => ({ ...r, timestamp: new Date(r.timestamp).toISOString() }));
  expect(wide).toHaveLength(41);
  // A gap in the ids (a deleted scan) must survive too, and the newest id deleted is never reused.
  await sql`delete from qr_scans where id in (5, 41)`.execute(db);
  const kept = wide.filter((r) => r.id !== 5 && r.id !== 41);

  // Batches of 7: 39 ids cross five batch edges. The first attempt dies after its third batch, as a
  // killed process would; the next start carries on (SQLite) or starts over (PostgreSQL's rollback).
  batching.size = 7;
  batching.afterBatch = (n) => {
    if (n === 3) throw new Error('killed');
  };
  await expect(migrateTo(db, THIS)).rejects.toThrow('killed');
  batching.afterBatch = undefined;
  await migrateTo(db, THIS);

  // Every scan reads back as it was: same id, code, time to the millisecond, values and category.
  expect(await storedScans(db)).toEqual(
    kept.map((r) => ({
      id: r.id,
      qr_code_id: r.qr_code_id,
      timestamp: r.timestamp,
      ms: Date.parse(r.timestamp),
      user_agent: r.user_agent,
      ip_address: r.ip_address,
      referrer: r.referrer,
      location: r.location,
      device: category(r.device),
    })),
  );
  // Each distinct value once.
  const count = async (table: 'scan_user_agents' | 'scan_referrers' | 'scan_locations') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  expect(await count('scan_user_agents')).toBe(3);
  expect(await count('scan_referrers')).toBe(2);
  expect(await count('scan_locations')).toBe(4);
  // The lean columns, and one index besides the key: (code, time), which every query uses.
  const columns =
    handle.dialect === 'postgres'
      ? sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = 'qr_scans' order by ordinal_position`
      : sql<{ name: string }>`select name from pragma_table_info('qr_scans')`;
  const indexes =
    handle.dialect === 'postgres'
      ? sql<{ name: string }>`select indexname as name from pg_indexes
          where tablename = 'qr_scans' and schemaname = current_schema() and indexname <> 'qr_scans_lean_pkey'`
      : sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'qr_scans'`;
  expect((await indexes.execute(db)).rows.map((r) => r.name)).toEqual(['qr_scans_code_at_idx']);
  expect((await columns.execute(db)).rows.map((c) => c.name)).toEqual([
    'id',
    'qr_code_id',
    'at',
    'user_agent_id',
    'referrer_id',
    'location_id',
    'ip_address',
    'device',
  ]);

  // New scans continue the ids and reuse the dictionaries (written by today's writer, so on today's
  // schema: later migrations add scan columns it writes).
  await migrateTo(db, Object.keys(migrations).at(-1)!);
  await db.transaction().execute((trx) =>
    writeScansWithRollups(trx, [
      {
        owner_id: 1,
        qr_code_id: 1,
        timestamp: '2026-11-01T10:00:00.001Z',
        user_agent: AGENTS[0],
        ip_address: '192.0.2.1',
        referrer: 'https://t.co/',
        location: 'Berlin, Germany',
        device: 'Mobile',
      },
    ]),
  );
  const newest = (await storedScans(db)).at(-1)!;
  expect(newest).toMatchObject({ id: 42, timestamp: '2026-11-01T10:00:00.001Z', user_agent: AGENTS[0] });
  expect(await count('scan_user_agents')).toBe(3);
  expect(await count('scan_referrers')).toBe(3);

  // Deleting a code takes its scans.
  await db.deleteFrom('qr_codes').where('id', '=', 2).execute();
  expect((await storedScans(db)).every((s) => s.qr_code_id === 1)).toBe(true);

  // And back down: the wide table again, with the same values.
  const before = await storedScans(db);
  await migrateTo(db, previousOf(THIS));
  const back = (
    await sql<WideScan>`select id, qr_code_id, timestamp, user_agent, ip_address, referrer, location, device
      from qr_scans order by id`.execute(db)
  ).rows;
  expect(back.map((r) => ({ ...r, timestamp: new Date(r.timestamp).toISOString() }))).toEqual(
    before.map(({ ms: _ms, ...r }) => r),
  );
  expect(await ownTableNames(db)).not.toContain('scan_user_agents');
}

afterEach(() => {
  batching.size = 5_000;
  batching.afterBatch = undefined;
});

describeMigration(THIS, upgradeWithData);
