'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a single executable's entry point is CommonJS. */
// The entry point of the single executable (see scripts/build/package.mjs). It answers --version and --help;
// otherwise it writes the embedded application once to a private cache folder named after its hash and
// starts the server from there, exactly like `npm start` (data under ./data of the working directory).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');
const sea = require('node:sea');
const { gunzipSync } = require('node:zlib');

const info = JSON.parse(sea.getAsset('info.json', 'utf8'));
const args = process.argv.slice(2);

const help = `QR Creator ${info.version} — self-hosted QR codes with analytics.

Usage: qr-creator-linux-x64 [--version] [--help]

With no argument it serves the app on http://localhost:3000 (PORT), with its SQLite database and files
under ./data (DATA_DIR). Every setting is an environment variable: PORT, HOST, DATA_DIR, DATABASE_URL,
PUBLIC_URL, TRUST_PROXY, ADMIN_PASSWORD, SMTP_URL, LOG_LEVEL, ACCESS_LOG, METRICS_TOKEN… (see README).
On its first start it unpacks itself once to ${cacheRoot()}.
`;

function cacheRoot() {
  if (process.env.QR_CREATOR_CACHE) return process.env.QR_CREATOR_CACHE;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'qr-creator');
}

if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`qr-creator ${info.version} (Node ${info.node})\n`);
  process.exit(0);
}
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(help);
  process.exit(0);
}
if (args.length > 0) {
  process.stderr.write(`Unknown argument: ${args[0]}\n\n${help}`);
  process.exit(2);
}

/** The application's files, written once; a half-written folder (a crash, a race) is never used. */
function unpack() {
  const dir = path.join(cacheRoot(), info.hash);
  if (fs.existsSync(path.join(dir, '.complete'))) return dir;
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
    if (!fs.existsSync(path.join(dir, '.complete'))) throw error;
  }
  return dir;
}

let dir;
try {
  dir = unpack();
} catch (error) {
  process.stderr.write(`QR Creator could not unpack itself to ${cacheRoot()}: ${error.message}\n`);
  process.exit(1);
}
process.setSourceMapsEnabled(true);
// A regular module from the cache folder, so the server and its packages load as they do under npm start.
createRequire(path.join(dir, 'boot.cjs'))('./boot.cjs').catch((error) => {
  process.stderr.write(`QR Creator failed to start: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
