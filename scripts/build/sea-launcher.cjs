'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a single executable's entry point is CommonJS. */
// The entry point of the single executable (see scripts/build/package.mjs). `--version` it answers itself;
// every other argument goes unchanged to the server bundle, which serves with none and otherwise runs the
// command it names (`node dist/server.mjs <command>` under npm). The embedded application is written once
// per version to a private cache folder named after its hash, and the bundle is started from there with
// npm start's memory settings: glibc reads MALLOC_* and Node reads NODE_OPTIONS only when a process
// starts, so when they are missing the launcher executes itself again with them (execve: same process id,
// nothing left waiting). It does so too after unpacking, so the unpacked archive does not stay in memory.
// After the start it removes the copies of other versions that no running process uses.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { createRequire } = require('node:module');
const sea = require('node:sea');
const { gunzipSync } = require('node:zlib');

/** { version, hash, node, env: npm start's variables, nodeOptions: its Node flags } (package.mjs). */
const info = JSON.parse(sea.getAsset('info.json', 'utf8'));
const args = process.argv.slice(2);
/** Set on the re-executed process only (`exec`, or `child` under a waiting launcher): not once more. */
const MARKER = 'QR_CREATOR_REEXECUTED';
const reexecuted = process.env[MARKER] === 'exec' || process.env[MARKER] === 'child';
// A child whose launcher was killed outright (SIGKILL: nothing passed on) stops as at SIGTERM.
if (process.env[MARKER] === 'child') {
  const launcher = process.ppid;
  setInterval(() => process.ppid !== launcher && process.kill(process.pid, 'SIGTERM'), 1000).unref();
}
delete process.env[MARKER];
/** Other versions' unpacked folders, and half-written ones (`<hash>.tmp-…`). */
const COPY = /^[0-9a-f]{16}$/;
const TEMP = /^[0-9a-f]{16}\.tmp-/;
/** A half-written folder younger than this may still be being written by another start. */
const TEMP_GRACE_MS = 5 * 60_000;

// Not process.stdout: its stream would switch the descriptor to non-blocking before an execve.
const print = (text) => fs.writeSync(1, text);
const warn = (text) => fs.writeSync(2, text);

function cacheRoot() {
  if (process.env.QR_CREATOR_CACHE) return process.env.QR_CREATOR_CACHE;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'qr-creator');
}

if (args[0] === '--version' || args[0] === '-v') {
  print(`qr-creator ${info.version} (Node ${process.version})\n`);
  process.exit(0);
}
if ((args[0] === '--help' || args[0] === '-h') && !reexecuted) {
  const variables = Object.entries(info.env).map(([name, value]) => `${name}=${value}`);
  print(
    `qr-creator-linux-x64: QR Creator ${info.version} and Node ${process.version} in one file. It unpacks itself
once per version to ${path.join(cacheRoot(), info.hash)} (QR_CREATOR_CACHE sets the folder)
and removes the copies of other versions there that no running process uses. It runs with npm start's
memory settings, each unless already set:
  ${variables.join(' ')}
  NODE_OPTIONS="${info.nodeOptions.join(' ')}"

`,
  );
}

const flagName = (option) =>
  option
    .split('=')[0]
    .replace(/^--(no-)?/, '')
    .replaceAll('_', '-');

/**
 * The environment with npm start's settings added where the operator has not set them (a variable of
 * theirs, a flag of theirs in NODE_OPTIONS, even with another value, wins); null when nothing is missing.
 */
function withStartSettings(env) {
  const added = {};
  for (const [name, value] of Object.entries(info.env)) if (env[name] === undefined) added[name] = value;
  const theirs = (env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  const named = new Set(theirs.map(flagName));
  const missing = info.nodeOptions.filter((option) => !named.has(flagName(option)));
  if (missing.length > 0) added.NODE_OPTIONS = [...missing, ...theirs].join(' ');
  return Object.keys(added).length > 0 ? { ...env, ...added } : null;
}

const complete = (dir) => fs.existsSync(path.join(dir, '.complete'));

/** Writes the application's files; a half-written folder (a crash, a race) is never used. */
function unpack(dir) {
  const temp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(temp, { recursive: true, force: true });
  const raw = gunzipSync(Buffer.from(sea.getAsset('app.gz')));
  const headerLength = raw.readUInt32LE(0);
  const entries = JSON.parse(raw.subarray(4, 4 + headerLength).toString('utf8'));
  let offset = 4 + headerLength;
  for (const [rel, mode, size] of entries) {
    const file = path.join(temp, ...rel.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, raw.subarray(offset, offset + size), { mode });
    offset += size;
  }
  fs.writeFileSync(path.join(temp, '.complete'), '');
  try {
    fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    fs.renameSync(temp, dir);
  } catch (error) {
    // Another start unpacked it first: use theirs.
    fs.rmSync(temp, { recursive: true, force: true });
    if (!complete(dir)) throw error;
  }
}

function fail(what, error) {
  warn(`QR Creator ${what}: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
}

/** Field 22 of /proc/<pid>/stat: when the process started; with the pid, it names one process. */
function startTime(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return null;
  }
}

/** `<dir>/.in-use/<pid>` holds the start time of a process running from the folder. */
function markInUse(dir) {
  const folder = path.join(dir, '.in-use');
  const file = path.join(folder, String(process.pid));
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, startTime('self') ?? '', { mode: 0o600 });
  process.on('exit', () => fs.rmSync(file, { force: true }));
}

function inUse(dir) {
  let pids;
  try {
    pids = fs.readdirSync(path.join(dir, '.in-use'));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) return false;
    const started = startTime(pid);
    if (started === null) return false; // no such process
    let recorded = '';
    try {
      recorded = fs.readFileSync(path.join(dir, '.in-use', pid), 'utf8').trim();
    } catch {
      // unreadable: count the live process
    }
    return recorded === '' || recorded === started; // else the pid was reused by another process
  });
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * A start and a prune of the same folder at the same moment: the start marks the folder in use, then
 * looks for `.pruning`; the prune creates `.pruning`, then looks for marks. One of them sees the other.
 * The start waits for the prune to decide, and unpacks again if it took the folder away.
 */
function claim(dir) {
  markInUse(dir);
  for (let waited = 0; fs.existsSync(path.join(dir, '.pruning')) && waited < 5000; waited += 50) sleep(50);
  if (!complete(dir)) {
    unpack(dir);
    markInUse(dir);
  }
}

/**
 * Removes the unpacked copies of other versions that no running process uses, and half-written folders
 * left long ago. Each is first renamed (cheap, at once), then deleted in the background; answers their
 * names once they are gone.
 */
async function prune(root) {
  // Without /proc every other process would look gone.
  if (startTime('self') === null) return [];
  const doomed = [];
  let entries;
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  for (const entry of entries) {
    // Only folders this launcher makes; never a symbolic link (rm does not follow one either).
    if (!entry.isDirectory() || entry.name === info.hash) continue;
    const dir = path.join(root, entry.name);
    try {
      if (TEMP.test(entry.name)) {
        if (Date.now() - fs.lstatSync(dir).mtimeMs >= TEMP_GRACE_MS) doomed.push({ name: entry.name, dir });
        continue;
      }
      if (!COPY.test(entry.name) || inUse(dir)) continue;
      const pruning = path.join(dir, '.pruning');
      try {
        fs.mkdirSync(pruning);
      } catch {
        // Another prune is at it, or left it behind long ago.
        if (Date.now() - fs.lstatSync(pruning).mtimeMs < TEMP_GRACE_MS) continue;
      }
      if (inUse(dir)) {
        fs.rmdirSync(pruning);
        continue;
      }
      const renamed = path.join(root, `${entry.name}.tmp-prune-${process.pid}`);
      fs.renameSync(dir, renamed);
      doomed.push({ name: entry.name, dir: renamed });
    } catch {
      // Gone meanwhile, or not ours to remove: left as it is.
    }
  }
  const done = await Promise.all(
    doomed.map(({ name, dir }) =>
      fs.promises.rm(dir, { recursive: true, force: true }).then(
        () => name,
        () => null,
      ),
    ),
  );
  return done.filter((name) => name !== null);
}

/**
 * Runs this executable again with `env`. Through execve the new image keeps the process id, so nothing
 * stays behind; without it (the addon could not load), a child process does the work and this one waits
 * for it, passing on SIGTERM, SIGINT and SIGHUP and exiting as it did.
 */
function reexecute(dir, env) {
  try {
    const addon = { exports: {} };
    process.dlopen(addon, path.join(dir, 'execve.node'));
    addon.exports.execve(
      '/proc/self/exe',
      [process.argv0, ...args],
      Object.entries({ ...env, [MARKER]: 'exec' }).map(([name, value]) => `${name}=${value}`),
    );
  } catch (error) {
    warn(`QR Creator could not execute itself again (${error.message}); it runs in a child process.\n`);
  }
  const child = spawn(process.execPath, args, {
    env: { ...env, [MARKER]: 'child' },
    stdio: 'inherit',
    argv0: process.argv0,
  });
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  for (const signal of signals) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => fail('could not start', error));
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    for (const name of signals) process.removeAllListeners(name);
    process.kill(process.pid, signal);
  });
}

const root = cacheRoot();
const dir = path.join(root, info.hash);
let unpacked = false;
try {
  if (!complete(dir)) {
    unpack(dir);
    unpacked = true;
  }
} catch (error) {
  fail(`could not unpack itself to ${root}`, error.message);
}
const settings = withStartSettings(process.env);
if (!reexecuted && (unpacked || settings)) {
  reexecute(dir, settings ?? process.env);
} else {
  try {
    claim(dir);
  } catch (error) {
    fail(`could not unpack itself to ${root}`, error.message);
  }
  // A regular module from the cache folder, so the server and its packages load as under npm start.
  createRequire(path.join(dir, 'boot.cjs'))('./boot.cjs').then(
    // A second later, out of the start's way; a command that ends sooner leaves the pruning to the server.
    () =>
      setTimeout(async () => {
        const removed = await prune(root);
        if (removed.length > 0)
          warn(
            `QR Creator removed ${removed.length} unpacked ${removed.length === 1 ? 'copy' : 'copies'} ` +
              `of other versions from ${root}: ${removed.join(', ')}\n`,
          );
      }, 1000).unref(),
    (error) => fail('failed to start', error),
  );
}
