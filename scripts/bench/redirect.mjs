// npm run bench:redirect — throughput of the public short link against the ceiling of this stack.
// (a) a bare Fastify route answering a constant 302; (b) the real server's /r/<slug> on SQLite, which
// records every scan before answering. Both are separate processes loaded by autocannon on loopback
// with a realistic mix of user agents. Prints req/s, p50/p99, the ratio b/a, and scans stored ÷
// redirects answered (which must be exactly 1.000).
// (c), in the same rounds: /r/<slug> of a second code with 5 smart-redirect rules, none of which matches
// any client of the load (each rule's first condition matches, its second does not), so every scan
// evaluates all 5 before taking the default destination — the worst case of rules; it prints c/a,
// (c/a) ÷ (b/a), which issue 17 wants at 0.95 or more, and the median of each round's c/b (b and c run
// back to back, in alternating order). RULES=0 leaves (c) out.
// The load comes from many clients, as a printed code's does: each request names a new client address in
// X-Forwarded-For (the servers trust loopback as their proxy, TRUST_PROXY=127.0.0.1, as behind nginx), so
// the per-client scan limit stays at its default and every scan is a new unique scanner with its own
// location lookup — the most work a scan can cost.
// CLIENTS=one loads from one address instead (the per-client limit then off, SCANS_PER_CLIENT_MINUTE=0), as
// this benchmark did before 2026-11-28: a lighter scan (one visitor per user agent, a private address).
// Besides req/s, each row gives the CPU time the server processes spent per request (/proc): the work a
// request costs, which the rest of the machine disturbs far less than the rate.
// PIN=0 leaves the processes unpinned (every core for the server, its scan writer thread and autocannon).
// DATABASE_URL=postgres://… runs (b) on a new PostgreSQL database on that server (dropped afterwards);
// INSTANCES=2 (PostgreSQL only) starts two servers on it, loads both at once and prints the combined rate.
// DOMAIN=1: (b) and (c) are root-level links of a short domain (issue 35): both codes use go.bench.test, and
// every request names it in Host (`/<slug>`, not `/r/<slug>`), as a reverse proxy passes it on.
// DOMAIN=app: the same server state (the domain added, the codes on it), loaded at `/r/<slug>` on the app's
// own address: what DOMAIN=1 is compared with, run after run, to see what the root-level path costs.
// WEBHOOK=1: the codes' workspace has a webhook taking every scan (issue 36), to a receiver in this process
// (on autocannon's core): the servers turn the stored scans into signed deliveries in the background; it
// prints the scans the receiver got ÷ those stored (1.000 once drained), and how long after each round the
// receiver had them all (the bench waits for that before the next round, so no round pays for another's).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { freePort, startCommand } from './start-command.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const connections = Number(process.env.CONNECTIONS ?? 50);
const manyClients = process.env.CLIENTS !== 'one';
const pgBase = /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : null;
const instances = Number(process.env.INSTANCES ?? 1);
/** DOMAIN=1: the short domain (b) and (c) are loaded on. */
const domainHost = process.env.DOMAIN === '1' || process.env.DOMAIN === 'app' ? 'go.bench.test' : null;
/** DOMAIN=app: the requests go to /r/<slug> on the app's address, not to the domain. */
const onDomain = domainHost !== null && process.env.DOMAIN !== 'app';
const withWebhook = process.env.WEBHOOK === '1';
if (instances > 1 && !pgBase) throw new Error('INSTANCES > 1 needs DATABASE_URL=postgres://…');

const userAgents = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'WhatsApp/2.24.24.76 A',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
];

/** The n-th client's address: public IPv4 addresses (1.0.0.0–223.255.255.255), a new one per request. */
let clients = 0;
function clientAddress() {
  const n = Math.imul(clients++, 2654435761) >>> 0;
  return `${1 + (n % 223)}.${(n >>> 8) & 255}.${(n >>> 16) & 255}.${(n >>> 24) & 255}`;
}

/** HEAD `path` on the server at `port` with the short domain in Host: the status (fetch cannot set Host). */
function headOnDomain(port, path) {
  return new Promise((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, path, method: 'HEAD', headers: { host: domainHost } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
      .on('error', reject)
      .end();
  });
}

async function waitFor(url) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never answered`);
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** A fixed number of requests, so every request sent is answered and counted (none cut off). */
async function load(url, amount, conns = connections) {
  const host = onDomain && !url.startsWith(`http://127.0.0.1:${barePort}/`) ? { host: domainHost } : {};
  let i = 0;
  let started = 0;
  let last = 0;
  const instance = autocannon({
    url,
    connections: conns,
    amount,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const n = i++;
          return {
            ...req,
            headers: {
              ...req.headers,
              ...host,
              'user-agent': userAgents[n % userAgents.length],
              ...(manyClients ? { 'x-forwarded-for': clientAddress() } : {}),
            },
          };
        },
      },
    ],
  });
  instance.on('start', () => (started = performance.now()));
  instance.on('response', () => (last = performance.now()));
  const result = await instance;
  // From the first request sent to the last answer received: autocannon's own duration (and its
  // end of run) moves in ticks of a one-second timer, far too coarse for runs of a few seconds.
  return { ...result, wallSeconds: (last - started) / 1000 };
}

// One core for the server under test, the other for the load generator (when the machine has two
// or more and taskset exists): both servers get the same single core, so b/a compares the work per
// request rather than how the scheduler happened to share the cores with autocannon.
const pin =
  os.availableParallelism() >= 2 && spawnSync('taskset', ['-V']).status === 0 && process.env.PIN !== '0';
if (pin) spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
/** Starts `node args` — on core 0 when pinning. */
function startNode(args, options) {
  return pin
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], options)
    : spawn(process.execPath, args, options);
}

spawnSync(process.execPath, [path.join(root, 'scripts/build/build-if-needed.mjs')], {
  cwd: root,
  stdio: 'inherit',
});

// Both servers run side by side (only one is loaded at a time) and are measured in alternating
// rounds, a b a b …, so a change in the machine's load affects both alike; the figures are medians.
const rounds = Number(process.env.ROUNDS ?? 5);

// (a) the ceiling: bare Fastify, constant 302, nothing else.
const barePort = await freePort();
const bare = startNode(
  [
    '-e',
    `const app = require('fastify')();
     app.get('/r/:slug', (req, reply) => reply.header('Cache-Control', 'no-store').redirect('https://example.com/menu', 302));
     app.get('/healthz', () => ({ ok: true }));
     app.listen({ port: ${barePort}, host: '127.0.0.1' });`,
  ],
  { cwd: root, stdio: 'ignore' },
);

/** The same fixed total spread over the instances at once: one run whose rate is their sum. */
async function loadAll(urls, amount) {
  const runs = await Promise.all(
    urls.map((url) => load(url, Math.ceil(amount / urls.length), Math.ceil(connections / urls.length))),
  );
  if (runs.length === 1) return runs[0];
  const sum = (f) => runs.reduce((total, r) => total + f(r), 0);
  return {
    requests: { total: sum((r) => r.requests.total) },
    wallSeconds: Math.max(...runs.map((r) => r.wallSeconds)),
    latency: {
      p50: Math.max(...runs.map((r) => r.latency.p50)),
      p99: Math.max(...runs.map((r) => r.latency.p99)),
    },
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    '3xx': sum((r) => r['3xx']),
  };
}

// (b) the real server with the demo account's dynamic code: on SQLite (a new data folder), or on a new
// PostgreSQL database.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-redirect-'));
let databaseUrl = null;
let admin = null;
if (pgBase) {
  const name = `qr_bench_${process.pid}`;
  admin = new pg.Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(pgBase);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
}
const ports = [];
for (let i = 0; i < instances; i++) ports.push(await freePort());
// The command `npm start` runs (its settings and Node flags, default log level); only port and folder
// differ, and loopback is trusted as the proxy naming each client (see the top of this file).
const start = startCommand(root);
const servers = ports.map((p) =>
  startNode(start.args, {
    cwd: root,
    env: {
      ...process.env,
      ...start.env,
      PORT: String(p),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(manyClients ? { TRUST_PROXY: '127.0.0.1' } : { SCANS_PER_CLIENT_MINUTE: '0' }),
      // The webhook's receiver is on loopback (WEBHOOK=1); allowed in both modes, so they differ by the webhook only.
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
    },
    stdio: 'ignore',
  }),
);
await waitFor(`http://127.0.0.1:${barePort}/healthz`);
for (const p of ports) await waitFor(`http://127.0.0.1:${p}/healthz`);
const dbFile = path.join(dataDir, 'qr-creator.db');

/** Answers `sql` (one row) from the database under test. */
async function queryOne(text, params = []) {
  if (databaseUrl) {
    let n = 0;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (
        await client.query(
          text.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows[0];
    } finally {
      await client.end();
    }
  }
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare(text).get(...params);
  } finally {
    db.close();
  }
}
const code = await queryOne(
  'select id, slug from qr_codes where is_dynamic = true and slug is not null order by id limit 1',
);

// (c)'s code: a copy of the demo code with 5 rules. Written as the server stores options (the checked
// options' JSON, keys in the schema's order), straight into the database under test.
const withRules = process.env.RULES !== '0';
const everyDay = [0, 1, 2, 3, 4, 5, 6];
const fiveRules = {
  rules: [
    [
      { kind: 'dates', from: '2000-01-01T00:00:00.000Z', until: null },
      { kind: 'country', countries: ['FR'] },
    ],
    [
      { kind: 'time', days: everyDay, from: '00:00', until: '00:00' },
      { kind: 'language', languages: ['fr'] },
    ],
    [
      { kind: 'scans', after: 0 },
      { kind: 'os', os: ['linux'] },
    ],
    [
      { kind: 'os', os: ['ios', 'android', 'windows', 'macos'] },
      { kind: 'country', countries: ['DE', 'AT', 'CH'] },
    ],
    [
      { kind: 'time', days: everyDay, from: '00:00', until: '00:00' },
      { kind: 'dates', from: '2099-01-01T00:00:00.000Z', until: null },
    ],
  ].map((conditions, i) => ({
    label: `Rule ${i + 1}`,
    conditions,
    destination: `https://example.com/rule-${i + 1}`,
  })),
  timeZone: 'Europe/Paris',
  activeFrom: null,
  activeUntil: null,
  maxScans: null,
  paused: false,
  inactiveMessage: null,
  fallbackUrl: null,
  utm: null,
  forwardQuery: false,
};
let ruled = null;
if (withRules) {
  const copy = `insert into qr_codes (name, type, content, is_dynamic, customization, user_id, folder_id, slug, created, updated, redirect_options)
    select 'Five rules', type, content, is_dynamic, customization, user_id, folder_id, 'benchrules', created, updated, ?
    from qr_codes where id = ?`;
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(copy.replace('?', '$1').replace('?', '$2'), [JSON.stringify(fiveRules), code.id]);
    await client.end();
  } else {
    const db = new Database(dbFile);
    db.prepare(copy).run(JSON.stringify(fiveRules), code.id);
    db.close();
  }
  ruled = await queryOne(`select id, slug from qr_codes where slug = 'benchrules'`);
  // Every client of the load takes the default destination after all 5 rules.
  for (const ua of userAgents) {
    const res = await fetch(`http://127.0.0.1:${ports[0]}/r/${ruled.slug}`, {
      headers: { 'user-agent': ua },
      redirect: 'manual',
    });
    if (res.status !== 302 || res.headers.get('location') !== 'https://example.com/menu')
      throw new Error(`(c) answered ${res.status} ${res.headers.get('location')} for ${ua}`);
  }
}
if (domainHost) {
  // Straight into the database under test; the servers read their domains again within 30 s.
  const insert = `insert into short_domains (hostname, all_workspaces, created) values ('${domainHost}', ${databaseUrl ? 'true' : '1'}, '2026-12-06T00:00:00.000Z')`;
  const assign = `update qr_codes set domain_id = (select id from short_domains where hostname = '${domainHost}') where id in (${[code.id, ruled?.id].filter(Boolean).join(', ')})`;
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(insert);
    await client.query(assign);
    await client.end();
  } else {
    const db = new Database(dbFile);
    db.exec(insert);
    db.exec(assign);
    db.close();
  }
  for (const p of ports) {
    for (let i = 0; ; i++) {
      const status = await headOnDomain(p, `/${code.slug}`);
      if (status === 302) break;
      if (i > 40) throw new Error(`${domainHost}/${code.slug} answered ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
/** WEBHOOK=1: scan events received, counted from each delivery's body. */
let hookScans = 0;
let hookDeliveries = 0;
let hookRepeats = 0;
const hookIds = new Set();
let receiver = null;
let hookFromId = 0;
if (withWebhook) {
  hookFromId = Number((await queryOne('select coalesce(max(id), 0) as n from qr_scans')).n);
  receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      hookDeliveries += 1;
      for (const event of JSON.parse(body).events) {
        if (event.type !== 'scan') continue;
        if (hookIds.has(event.id)) hookRepeats += 1;
        else hookIds.add(event.id);
      }
      hookScans = hookIds.size;
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
  const owner = (await queryOne('select user_id from qr_codes where id = ?', [code.id])).user_id;
  const insert = `insert into webhook_endpoints (owner_id, url, events, secret, created_at, updated_at) values (?, ?, '["scan"]', 'whsec_bench', ?, ?)`;
  const now = new Date().toISOString();
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(
      insert.replace(
        /\?/g,
        (() => {
          let n = 0;
          return () => `$${++n}`;
        })(),
      ),
      [owner, hookUrl, now, now],
    );
    await client.end();
  } else {
    const db = new Database(dbFile);
    db.prepare(insert).run(owner, hookUrl, now, now);
    db.close();
  }
}
/** A code's scans as stored: raw rows, and those held back by the per-client limit (counted apart). */
const scansOf = async (id) =>
  Number((await queryOne('select count(*) as n from qr_scans where qr_code_id = ?', [id])).n) +
  Number(
    (await queryOne('select coalesce(sum(scans), 0) as n from throttled_scans where qr_code_id = ?', [id])).n,
  );
const before = await scansOf(code.id);
const beforeC = ruled ? await scansOf(ruled.id) : 0;
const linkPath = onDomain ? '' : '/r';
const urlsB = ports.map((p) => `http://127.0.0.1:${p}${linkPath}/${code.slug}`);
const urlsC = ruled ? ports.map((p) => `http://127.0.0.1:${p}${linkPath}/${ruled.slug}`) : [];

const perRoundA = Math.ceil(Number(process.env.BARE_REQUESTS ?? 300_000) / rounds);
const perRoundB = Math.ceil(Number(process.env.REQUESTS ?? 150_000) / rounds);
const runsA = [];
const runsB = [];
const runsC = [];
// Warm-up, not counted: JIT, caches, the user-agent cache (its scans are stored and counted below).
await load(`http://127.0.0.1:${barePort}/r/abc1234`, 10_000);
const warmUp = await loadAll(urlsB, 10_000);
const warmUpC = ruled ? await loadAll(urlsC, 10_000) : null;
/**
 * The CPU time the server processes (every thread: the scan writer's too) spent on a run, per request
 * answered, from /proc: what a request costs, however busy the rest of the machine was.
 */
function cpuSecondsOf(pids) {
  let ticks = 0;
  for (const pid of pids) {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return ticks / 100; // USER_HZ
}
const hasProc = fs.existsSync(`/proc/${process.pid}/stat`);
async function measured(pids, run) {
  const before = hasProc ? cpuSecondsOf(pids) : 0;
  const result = await run();
  const cpu = hasProc ? cpuSecondsOf(pids) - before : NaN;
  return { ...result, cpuMicros: (cpu * 1e6) / result.requests.total };
}
const serverPids = servers.map((s) => s.pid);
/**
 * WEBHOOK=1: waits until the receiver has every scan stored so far (at most a minute) and answers how long
 * that took: the deliveries of a round's scans wait while the scans rush in (background/scan-pace.ts), so
 * they are sent after it; they must not run in the next round, on (a)'s core or in (b)'s figures.
 */
const drainLags = [];
async function drainWebhook() {
  const started = performance.now();
  const stored = Number((await queryOne('select count(*) as n from qr_scans where id > ?', [hookFromId])).n);
  for (let i = 0; i < 600 && hookScans < stored; i++) await new Promise((r) => setTimeout(r, 100));
  return (performance.now() - started) / 1000;
}
for (let i = 0; i < rounds; i++) {
  if (withWebhook) drainLags.push(await drainWebhook());
  runsA.push(await measured([bare.pid], () => load(`http://127.0.0.1:${barePort}/r/abc1234`, perRoundA)));
  // b then c in even rounds, c then b in odd ones: neither always runs on the warmer or quieter side.
  if (ruled && i % 2 === 1) runsC.push(await measured(serverPids, () => loadAll(urlsC, perRoundB)));
  runsB.push(await measured(serverPids, () => loadAll(urlsB, perRoundB)));
  if (ruled && i % 2 === 0) runsC.push(await measured(serverPids, () => loadAll(urlsC, perRoundB)));
}
await stop(bare);
// WEBHOOK=1: the deliveries of the last scans still on their way (at most a minute).
let storedForHook = 0;
if (withWebhook) {
  storedForHook = Number((await queryOne('select count(*) as n from qr_scans where id > ?', [hookFromId])).n);
  for (let i = 0; i < 600 && hookScans < storedForHook; i++) await new Promise((r) => setTimeout(r, 100));
}
const exits = await Promise.all(servers.map(stop));
receiver?.close();
const stored = (await scansOf(code.id)) - before + (ruled ? (await scansOf(ruled.id)) - beforeC : 0);
let integrity = 'not checked (PostgreSQL)';
if (!databaseUrl) {
  const after = new Database(dbFile, { readonly: true });
  integrity = `PRAGMA integrity_check = ${after.pragma('integrity_check', { simple: true })}`;
  after.close();
} else {
  await admin.query(`drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
  await admin.end();
}
fs.rmSync(dataDir, { recursive: true, force: true });

const answered =
  warmUp['3xx'] + (warmUpC?.['3xx'] ?? 0) + [...runsB, ...runsC].reduce((sum, r) => sum + r['3xx'], 0);
// Requests answered ÷ wall time (autocannon's own average is per whole second, too coarse here).
const rate = (r) => r.requests.total / r.wallSeconds;
const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const row = (name, runs) => {
  const errors = runs.reduce((sum, r) => sum + r.errors + r.non2xx - r['3xx'], 0);
  return `${name.padEnd(34)} ${median(runs.map(rate)).toFixed(0).padStart(8)} req/s   p50 ${String(median(runs.map((r) => r.latency.p50))).padStart(3)} ms   p99 ${String(median(runs.map((r) => r.latency.p99))).padStart(3)} ms   CPU ${median(
    runs.map((r) => r.cpuMicros),
  )
    .toFixed(1)
    .padStart(5)} µs/request   errors ${errors}`;
};
console.log(
  `${pin ? 'servers on core 0, autocannon on core 1; ' : 'not pinned; '}${manyClients ? 'a new client address per request' : 'one client address'}; autocannon: ${connections} connections, ${rounds} alternating rounds of ${perRoundA} (a) and ${perRoundB} (b) requests, ${userAgents.length} user agents, loopback; medians`,
);
console.log(row('(a) bare Fastify constant 302', runsA));
const where = databaseUrl
  ? `PostgreSQL${instances > 1 ? `, ${instances} instances, combined` : ''}`
  : 'SQLite';
const shown = onDomain
  ? `${domainHost}/<slug>`
  : domainHost
    ? '/r/<slug> of a code on a domain'
    : '/r/<slug>';
console.log(row(`(b) ${shown} (${where})`, runsB));
console.log(
  `ratio b/a per round:               ${runsA.map((r, i) => (rate(runsB[i]) / rate(r)).toFixed(2)).join(' ')}`,
);
console.log(
  `ratio b/a (medians):               ${(median(runsB.map(rate)) / median(runsA.map(rate))).toFixed(2)}`,
);
const cpuA = median(runsA.map((r) => r.cpuMicros));
console.log(
  `CPU per request a/b (medians):     ${(cpuA / median(runsB.map((r) => r.cpuMicros))).toFixed(2)} (the work ratio, least disturbed by the machine)`,
);
if (ruled) {
  console.log(row(`(c) ${shown}, 5 rules (${where})`, runsC));
  console.log(
    `ratio c/a per round:               ${runsA.map((r, i) => (rate(runsC[i]) / rate(r)).toFixed(2)).join(' ')}`,
  );
  const ratioB = median(runsB.map(rate)) / median(runsA.map(rate));
  const ratioC = median(runsC.map(rate)) / median(runsA.map(rate));
  console.log(`ratio c/a (medians):               ${ratioC.toFixed(2)}`);
  const perRound = runsB.map((r, i) => rate(runsC[i]) / rate(r));
  console.log(`(c/a) ÷ (b/a), 5 rules vs none:    ${(ratioC / ratioB).toFixed(3)} (issue 17: at least 0.95)`);
  // b and c of one round ran back to back, so their quotient is the least disturbed by the machine.
  console.log(
    `c/b per round:                     ${perRound.map((q) => q.toFixed(3)).join(' ')}; median ${median(perRound).toFixed(3)}`,
  );
}
console.log(`scans stored ÷ redirects answered: ${stored} ÷ ${answered} = ${(stored / answered).toFixed(3)}`);
if (withWebhook)
  console.log(
    `webhook: scan events received ÷ raw scans stored since it was added: ${hookScans} ÷ ${storedForHook} = ${(hookScans / storedForHook).toFixed(3)} in ${hookDeliveries} deliveries (${hookRepeats} repeated events); the receiver had every scan ${drainLags
      .slice(1)
      .map((s) => s.toFixed(1))
      .join(', ')} s after each round's last (deliveries wait while scans rush in)`,
  );
console.log(`server exit codes ${exits.join(', ')}, ${integrity}`);
