// npm run bench:admin — the admin users list at 10,000 users.
// Builds two SQLite databases as `npm start` runs them (a file under a temporary DATA_DIR, the real
// migrations): a baseline of 100 users and one of USERS users (default 10,000; about 25,000 codes), then
// times the users and subscriptions list calls an admin's browser makes, called in-process with
// app.inject, on both in turn. Prints p50/p95 per call and database, and the ratio to the baseline.
//
//   USERS=50000 npm run bench:admin      more users
//   RUNS=100 WARMUP=10                    measured and warm-up calls per path
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../server/app.js';
import type { AppDeps } from '../../server/app-deps.js';
import { testConfig } from '../../server/config.js';
import { createDb } from '../../server/db/create-db.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { sessionCookieName, startSession } from '../../server/features/auth/sessions.js';
import { createMailer } from '../../server/features/mail/mailer.js';
import { insertManyUsers } from '../../server/test/many-users.js';

const USERS = Number(process.env.USERS ?? 10_000);
const BASELINE_USERS = 100;
const RUNS = Number(process.env.RUNS ?? 60);
const WARMUP = Number(process.env.WARMUP ?? 5);

const paths = [
  '/api/admin/users?pageSize=25',
  '/api/admin/users?pageSize=25&sort=qrCodeCount&order=desc',
  '/api/admin/users?pageSize=25&sort=username&order=asc&page=200',
  '/api/admin/users?pageSize=25&search=user0042',
  '/api/admin/subscriptions?pageSize=25&filter=paid',
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

async function openInstance(users: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-admin-'));
  const config = testConfig({ dataDir, databaseUrl: `sqlite:${path.join(dataDir, 'qr-creator.db')}` });
  const handle = createDb(config.databaseUrl);
  await migrateToLatest(handle.db);
  const admin = await handle.db
    .insertInto('users')
    .values({ username: 'admin', password: 'x', is_admin: true, created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const started = performance.now();
  // About 2.5 codes per user on average: most have a few, some many.
  await insertManyUsers(handle.db, users, (i) => (i * 7919) % 6);
  const seconds = (performance.now() - started) / 1000;
  const logger = pino({ level: 'silent' });
  const deps: AppDeps = {
    db: handle.db,
    config,
    mailer: createMailer(config, logger),
    clock: { now: () => new Date() },
  };
  const app = await buildApp({ ...deps, logger, clientDir: path.join(dataDir, 'no-client') });
  let token = '';
  await startSession(
    deps,
    { read: () => undefined, set: (_n, value) => (token = value), clear: () => undefined },
    admin.id,
    { ip: '127.0.0.1', userAgent: 'bench-admin' },
  );
  return {
    app,
    seconds,
    cookie: { [sessionCookieName(config.publicUrl)]: token },
    close: async () => {
      await app.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Instance = Awaited<ReturnType<typeof openInstance>>;

async function time(instance: Instance, url: string): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now();
    const res = await instance.app.inject({ method: 'GET', url, cookies: instance.cookie });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200)
      throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
    if (i >= WARMUP) samples.push(ms);
  }
  return samples.sort((a, b) => a - b);
}

console.log(
  `Building databases: ${BASELINE_USERS} users (baseline) and ${USERS.toLocaleString('en-US')} users…`,
);
const baseline = await openInstance(BASELINE_USERS);
const large = await openInstance(USERS);
console.log(`  ${USERS.toLocaleString('en-US')} users written in ${large.seconds.toFixed(1)} s\n`);
console.log(
  `${'call'.padEnd(64)} ${'100 users p50/p95'.padStart(18)} ${`${USERS} users p50/p95`.padStart(20)}  ratio p95`,
);
for (const url of paths) {
  // In turn, so that the machine's noise falls on both alike.
  const small = await time(baseline, url);
  const big = await time(large, url);
  const p95Small = percentile(small, 0.95);
  const p95Big = percentile(big, 0.95);
  console.log(
    `${url.padEnd(64)} ${`${percentile(small, 0.5).toFixed(1)} / ${p95Small.toFixed(1)} ms`.padStart(18)} ${`${percentile(big, 0.5).toFixed(1)} / ${p95Big.toFixed(1)} ms`.padStart(20)}  ${(p95Big / p95Small).toFixed(1)}×`,
  );
}
await baseline.close();
await large.close();
