// npm run bench:startup — start-up time to the first 200 on /healthz, memory (RSS) idle after start and
// at its peak while short links are loaded and reports exported together, and the JavaScript and CSS the
// browser loads before the first route renders (gzip). The server runs as `npm start` runs it (default
// settings, only port and data folder differ). Prints figures only.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { startCommand } from './start-command.mjs';

const root = path.resolve(import.meta.dirname, '../..');
spawnSync(process.execPath, [path.join(root, 'scripts/build/build-if-needed.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
const runs = Number(process.env.RUNS ?? 5);
const start = startCommand(root);

function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

async function startOnce(dataDir, port) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, start.args, {
    cwd: root,
    env: { ...process.env, ...start.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: 'ignore',
  });
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null) throw new Error('server exited');
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await new Promise((r) => setTimeout(r, 1000));
  const rss = rssMiB(child.pid);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const code = await exited;
  return { ms, rss, code };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const port = 39_000 + Math.floor(Math.random() * 1000);
const fresh = [];
const warm = [];
for (let i = 0; i < runs; i++) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-'));
  fresh.push(await startOnce(dataDir, port)); // creates the database, admin, demo account and scans
  warm.push(await startOnce(dataDir, port)); // an existing database
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(
  `start-up to first 200 on /healthz (median of ${runs}, started as npm start does: ${start.args.join(' ')})`,
);
console.log(`  fresh database (migrate + seed): ${median(fresh.map((r) => r.ms)).toFixed(0)} ms`);
console.log(`  existing database:               ${median(warm.map((r) => r.ms)).toFixed(0)} ms`);
console.log(`RSS 1 s after start:               ${median(warm.map((r) => r.rss)).toFixed(1)} MiB`);
console.log(
  `exit codes after SIGTERM:          ${[...new Set([...fresh, ...warm].map((r) => r.code))].join(', ')}`,
);

// Loaded: the demo code's short link under load while the demo user exports reports, RSS sampled.
{
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-'));
  const child = spawn(process.execPath, start.args, {
    cwd: root,
    // The load comes from one address: with the per-client limit off, every scan is stored, as from phones.
    env: {
      ...process.env,
      ...start.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SCANS_PER_CLIENT_MINUTE: '0',
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const idle = rssMiB(child.pid);
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo123' }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const codes = await (await fetch(`${base}/api/qr-codes`, { headers: { cookie } })).json();
  const slug = codes.find((c) => c.slug).slug;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(child.pid));
  }, 50);
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const exports = (async () => {
    let done = 0;
    for (const format of ['pdf', 'xlsx', 'csv', 'pdf', 'xlsx']) {
      for (const type of ['full', 'activity']) {
        const res = await fetch(
          `${base}/api/analytics/export?from=${yearAgo}&to=${today}&type=${type}&format=${format}`,
          { headers: { cookie } },
        );
        await res.arrayBuffer();
        if (res.ok) done += 1;
      }
    }
    return done;
  })();
  const load = await autocannon({ url: `${base}/r/${slug}`, connections: 50, duration: 8 });
  const exported = await exports;
  clearInterval(sampler);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`RSS idle 1 s after start (this run): ${idle.toFixed(1)} MiB`);
  console.log(
    `RSS peak under load:               ${peak.toFixed(1)} MiB (${load.requests.total} short-link redirects in 8 s with 50 connections, ${exported} reports exported meanwhile)`,
  );
}

const dist = path.join(root, 'dist/client');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(js|css))"/g)].map((m) => m[1]);
let js = 0;
let css = 0;
for (const asset of assets) {
  const size = gzipSync(fs.readFileSync(path.join(dist, asset))).length;
  if (asset.endsWith('.js')) js += size;
  else css += size;
}
console.log(
  `initial client load (index.html entry and preloads, gzip): ${(js / 1024).toFixed(1)} kB JS, ${(css / 1024).toFixed(1)} kB CSS`,
);
