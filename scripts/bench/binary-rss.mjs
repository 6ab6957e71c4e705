// npm run bench:binary-rss — resident memory (VmRSS) of the single executable's server, 10 s after it
// answers /readyz, on its first start (unpacking into an empty cache) and on a later start, against the
// node process of `npm start` (the same flags and environment, read from package.json). Three rounds, the
// three starts alternated, each with a new DATA_DIR (so each creates its database, admin and demo account).
// The figure of a start is the sum over the started process and any process under it: a launcher left
// waiting would count. BINARY=<file> measures that executable; otherwise one is built (npm run package)
// into a temporary folder. Prints figures only.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startCommand } from './start-command.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const rounds = Number(process.env.RUNS ?? 3);
const settleMs = Number(process.env.SETTLE_MS ?? 10_000);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-binary-rss-'));

let binary = process.env.BINARY && path.resolve(process.env.BINARY);
if (!binary) {
  binary = path.join(work, 'qr-creator-linux-x64');
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build/package.mjs')], {
    cwd: root,
    env: { ...process.env, PACKAGE_OUTPUT: binary },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// A file just written sits in the page cache in large pieces that are mapped whole when touched: its
// processes then count about 12 MiB more of it as resident than the same file read from disk. The
// executable is dropped from the cache first, so that it counts as after a copy and a reboot.
const dropped = spawnSync('dd', [`of=${binary}`, 'oflag=nocache', 'conv=notrunc,fdatasync', 'count=0'], {
  stdio: 'ignore',
});

const start = startCommand(root);

function status(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, anon: kib('RssAnon') / 1024, file: kib('RssFile') / 1024 };
}

/** The process and every process under it. */
function tree(pid) {
  let children = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
  } catch {
    // gone
  }
  return [pid, ...children.flatMap((child) => tree(Number(child)))];
}

async function measure(kind, cache) {
  const dataDir = fs.mkdtempSync(path.join(work, 'data-'));
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  const child =
    kind === 'npm start'
      ? spawn(process.execPath, start.args, { cwd: root, env: { ...env, ...start.env }, stdio: 'ignore' })
      : spawn(binary, [], { cwd: dataDir, env: { ...env, QR_CREATOR_CACHE: cache }, stdio: 'ignore' });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${kind} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const readyMs = Date.now() - started;
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const pids = tree(child.pid);
  const figures = pids.map(status);
  const sum = (key) => figures.reduce((total, f) => total + f[key], 0);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { kind, readyMs, processes: pids.length, rss: sum('rss'), anon: sum('anon'), file: sum('file') };
}

const results = [];
for (let round = 1; round <= rounds; round++) {
  const cache = fs.mkdtempSync(path.join(work, 'cache-'));
  for (const [kind, label] of [
    ['npm start', 'npm start'],
    ['binary', 'executable, first start'],
    ['binary', 'executable, later start'],
  ]) {
    const result = { ...(await measure(kind, cache)), label, round };
    results.push(result);
    console.log(
      `round ${round}  ${label.padEnd(24)} ${result.rss.toFixed(1).padStart(6)} MiB ` +
        `(anonymous ${result.anon.toFixed(1)}, file ${result.file.toFixed(1)}; ${result.processes} process` +
        `${result.processes === 1 ? '' : 'es'}; ready after ${result.readyMs} ms)`,
    );
  }
  fs.rmSync(cache, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(results.filter((r) => r.label === 'npm start').map((r) => r.rss));
console.log(
  `\nVmRSS ${settleMs / 1000} s after /readyz, median of ${rounds} (${binary}` +
    `${dropped.status === 0 ? ', dropped from the page cache first' : ''}):`,
);
for (const label of ['npm start', 'executable, first start', 'executable, later start']) {
  const rss = median(results.filter((r) => r.label === label).map((r) => r.rss));
  console.log(
    `  ${label.padEnd(24)} ${rss.toFixed(1).padStart(6)} MiB  ${((rss / base - 1) * 100).toFixed(1)} %`,
  );
}
fs.rmSync(work, { recursive: true, force: true });
