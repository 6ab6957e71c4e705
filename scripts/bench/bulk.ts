// npm run bench:bulk — bulk creation and the ZIP archive at 1,000 codes.
// Builds a SQLite file database as `npm start` runs it (a file under a temporary DATA_DIR, the real
// migrations) with one admin (no plan limit), then:
//   1. times POST /api/qr-codes/bulk of ROWS codes (default 1,000: three in four dynamic, in three
//      folders), RUNS times (default 7), each in a fresh process: every created code queues its
//      scan-safety check in the background (about 75 ms of rendering each), which would otherwise run
//      under the next measured call. Two refused calls of the same size (the last row invalid, so
//      nothing is written) warm the process first.
//   2. times POST /api/qr-codes/archive of the first call's codes as PNG and as SVG (512 px): time to
//      the first byte, total time, size and peak RSS, while a short link is requested every 50 ms
//      (its latency shows that redirects keep flowing during the archive).
// All calls are made in-process with app.inject (server time, no network), in processes started with
// `npm start`'s memory settings.
//
//   ROWS=5000 npm run bench:bulk      more codes per call
//   RUNS=3                             measured create calls
import { spawnSync } from 'node:child_process';
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

const ROWS = Number(process.env.ROWS ?? 1000);
const RUNS = Number(process.env.RUNS ?? 7);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

function configOf(dataDir: string) {
  return testConfig({ dataDir, databaseUrl: `sqlite:${path.join(dataDir, 'qr-creator.db')}` });
}

/** The app over the bench's database, signed in as its admin. */
async function openApp(dataDir: string) {
  const config = configOf(dataDir);
  const handle = createDb(config.databaseUrl);
  const logger = pino({ level: 'silent' });
  const deps: AppDeps = {
    db: handle.db,
    config,
    mailer: createMailer(config, logger),
    clock: { now: () => new Date() },
  };
  const app = await buildApp({ ...deps, logger, clientDir: path.join(dataDir, 'no-client') });
  const admin = await handle.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
  let token = '';
  await startSession(
    deps,
    { read: () => undefined, set: (_n, value) => (token = value), clear: () => undefined },
    admin.id,
    { ip: '127.0.0.1', userAgent: 'bench-bulk' },
  );
  return { app, db: handle.db, cookies: { [sessionCookieName(config.publicUrl)]: token } };
}

function codes(run: number, valid = true) {
  return Array.from({ length: ROWS }, (_, i) => ({
    name: `Run ${run} code ${i}`,
    type: 'url',
    content: valid || i < ROWS - 1 ? `https://example.com/run-${run}/${i}` : 'not a url',
    isDynamic: i % 4 !== 0,
    folder: `Batch ${i % 3}`,
  }));
}

/** One fresh process: warm up with refused calls, then one measured create. */
async function createChild(dataDir: string, run: number) {
  const { app, cookies } = await openApp(dataDir);
  for (let i = 0; i < 2; i++) {
    const warm = await app.inject({
      method: 'POST',
      url: '/api/qr-codes/bulk',
      cookies,
      payload: { codes: codes(run, false) },
    });
    if (warm.statusCode !== 400)
      throw new Error(`warm-up answered ${warm.statusCode}: ${warm.body.slice(0, 300)}`);
  }
  const t0 = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/qr-codes/bulk',
    cookies,
    payload: { codes: codes(run) },
  });
  const ms = performance.now() - t0;
  if (res.statusCode !== 201) throw new Error(`bulk answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  console.log(JSON.stringify({ ms, bytes: res.body.length }));
  // Exits with the background scan checks unfinished: they are not what is measured.
  process.exit(0);
}

/** One fresh process: the archive of run 1's codes as PNG and SVG. */
async function archiveChild(dataDir: string) {
  const { app, db, cookies } = await openApp(dataDir);
  const rows = await db
    .selectFrom('qr_codes')
    .select(['id', 'slug'])
    .where('name', 'like', 'Run 1 %')
    .orderBy('id')
    .execute();
  const slug = rows.find((r) => r.slug)!.slug!;
  const rssBefore = process.memoryUsage().rss;
  const results: Record<string, unknown>[] = [];
  for (const format of ['png', 'svg'] as const) {
    const redirects: number[] = [];
    let peakRss = process.memoryUsage().rss;
    let busy = true;
    const probe = (async () => {
      while (busy) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url: `/r/${slug}` });
        if (res.statusCode !== 302) throw new Error(`short link answered ${res.statusCode}`);
        redirects.push(performance.now() - t0);
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }
    })();
    const t0 = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/qr-codes/archive',
      cookies,
      payload: { ids: rows.map((r) => r.id), format },
      payloadAsStream: true,
    });
    if (res.statusCode !== 200) throw new Error(`archive answered ${res.statusCode}`);
    let firstByte = 0;
    let bytes = 0;
    for await (const chunk of res.stream()) {
      if (bytes === 0) firstByte = performance.now() - t0;
      bytes += (chunk as Buffer).length;
    }
    const total = performance.now() - t0;
    busy = false;
    await probe;
    redirects.sort((a, b) => a - b);
    results.push({
      format,
      firstByte,
      total,
      bytes,
      rssBeforeMiB: rssBefore / 1024 / 1024,
      peakRssMiB: peakRss / 1024 / 1024,
      redirectP50: percentile(redirects, 0.5),
      redirectMax: redirects.at(-1) ?? 0,
      redirects: redirects.length,
    });
  }
  console.log(JSON.stringify(results));
  process.exit(0);
}

/** Runs this script again as a child for one phase, as `npm start` runs the server; answers the JSON line it printed last. */
function child(phase: string, dataDir: string, run = 0): unknown {
  const args = ['--max-semi-space-size=4', '--max-old-space-size=512', ...process.execArgv];
  const out = spawnSync(process.execPath, [...args, process.argv[1]!, phase, dataDir, String(run)], {
    encoding: 'utf8',
    env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`${phase} child failed (${out.status})`);
  const last = out.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last);
}

async function main() {
  const [phase, dataDir, run] = process.argv.slice(2);
  if (phase === 'create') return createChild(dataDir!, Number(run));
  if (phase === 'archive') return archiveChild(dataDir!);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bulk-'));
  try {
    const handle = createDb(configOf(dir).databaseUrl);
    await migrateToLatest(handle.db);
    await handle.db
      .insertInto('users')
      .values({ username: 'admin', password: 'x', is_admin: true, created_at: new Date().toISOString() })
      .execute();
    await handle.close();

    console.log(
      `POST /api/qr-codes/bulk with ${ROWS.toLocaleString('en-US')} codes, ${RUNS} runs (a fresh process each):`,
    );
    const times: number[] = [];
    for (let i = 1; i <= RUNS; i++) {
      const { ms } = child('create', dir, i) as { ms: number };
      times.push(ms);
      console.log(`  run ${i}: ${ms.toFixed(0)} ms`);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  median ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms ` +
        `(${((percentile(times, 0.5) / ROWS) * 1000).toFixed(0)} µs a code)\n`,
    );

    console.log(`POST /api/qr-codes/archive of ${ROWS.toLocaleString('en-US')} codes at 512 px:`);
    const archives = child('archive', dir) as Record<string, number | string>[];
    for (const a of archives) {
      console.log(
        `  ${String(a.format).toUpperCase()}: first byte ${Number(a.firstByte).toFixed(0)} ms, ` +
          `total ${(Number(a.total) / 1000).toFixed(1)} s (${(Number(a.total) / ROWS).toFixed(1)} ms a code), ` +
          `${(Number(a.bytes) / 1024 / 1024).toFixed(1)} MiB, peak RSS ${Number(a.peakRssMiB).toFixed(0)} MiB (${Number(a.rssBeforeMiB).toFixed(0)} before); ` +
          `short link meanwhile p50 ${Number(a.redirectP50).toFixed(1)} ms, max ${Number(a.redirectMax).toFixed(0)} ms ` +
          `(${a.redirects} requests)`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
