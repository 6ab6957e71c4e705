// npm run package — one executable file, qr-creator-linux-x64, built as a Node single executable
// application: this Node binary with a launcher and one compressed asset holding the server bundle (the
// migrations are inside it) and its worker thread's, the built client, and the packages the server loads
// at run time with their data files (the country database, the PDF fonts, the Redoc bundle) and native
// addons (better-sqlite3, argon2, resvg), and the launcher's own small addon (execve.c, built here with the
// system's C compiler). On its first start the launcher writes them once to a private cache folder named
// after their hash (~/.cache/qr-creator/<hash>, or QR_CREATOR_CACHE), then starts the server from there
// exactly like `npm start` — its memory settings, read from package.json, included; data under ./data of
// the working directory. See sea-launcher.cjs.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '../..');
const out = path.join(root, 'dist/sea');
const target = path.resolve(root, process.env.PACKAGE_OUTPUT ?? 'qr-creator-linux-x64');
const started = Date.now();

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(
    `npm run package builds qr-creator-linux-x64 on linux-x64 (this is ${process.platform}-${process.arch}).`,
  );
  process.exit(1);
}
run(process.execPath, [path.join(root, 'scripts/build/build-if-needed.mjs')]);

// ---- What the server loads at run time: every package its bundles name, and their dependencies. The
// server's worker threads (the spreadsheet reader, the scans' writer) are bundles of their own beside it, as build-if-needed
// makes it, and the only one to name some packages (papaparse).
// With the chunks both import (dist/<name>-<hash>.mjs, loaded when needed): every .mjs of dist/.
const bundles = fs
  .readdirSync(path.join(root, 'dist'))
  .filter((name) => name.endsWith('.mjs'))
  .map((name) => `dist/${name}`);
const bundle = bundles.map((file) => fs.readFileSync(path.join(root, file), 'utf8')).join('\n');
const builtins = new Set(builtinModules);
const named = new Set();
for (const match of bundle.matchAll(
  /(?:from |import\(|require\w*\(|\.resolve\(|lazyRequire\()\s*["']([^"'./][^"']*)["']/g,
)) {
  const spec = match[1];
  if (spec.startsWith('node:') || builtins.has(spec)) continue;
  const parts = spec.split('/');
  named.add(spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
}
// Packages of which one file is used as is (a browser bundle): only that file, none of its dependencies.
const fileOnly = { redoc: ['package.json', 'bundles/redoc.standalone.js'] };

function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}
const packages = new Map();
function visit(name, fromDir) {
  const dir = packageDir(name, fromDir);
  if (!dir || packages.has(dir)) return;
  packages.set(dir, name);
  if (fileOnly[name]) return;
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, dir);
}
for (const name of named) visit(name, root);

// Type declarations, docs, tests and build inputs are not needed to run (licences are kept).
const skipFile =
  /(\.(md|markdown|map|d\.ts|d\.mts|d\.cts|ts|tsx|mts|cts|c|cc|cpp|h|hpp|gyp|gypi|o|a|pdb)|CHANGELOG\w*|\.npmignore|tsconfig\w*\.json)$/i;
const skipDir = /^(test|tests|__tests__|examples?|benchmarks?|\.github)$/i;
/** The C sources of native packages (their built addon is kept). */
const nativeSources = { 'better-sqlite3': /^(deps|src)$/ };

const files = [];
function addFile(abs, rel) {
  const stat = fs.statSync(abs);
  files.push({ abs, rel, mode: stat.mode & 0o777, size: stat.size });
}
function addTree(absDir, relDir, { filter = true, skipTop } = {}) {
  for (const entry of fs.readdirSync(absDir, { withFileTypes: true })) {
    const abs = path.join(absDir, entry.name);
    const rel = path.posix.join(relDir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules') continue; // nested packages are visited as packages
      if (filter && skipDir.test(entry.name)) continue;
      if (skipTop?.test(entry.name)) continue;
      addTree(abs, rel, { filter });
    } else if (entry.isFile() && !(filter && skipFile.test(entry.name))) addFile(abs, rel);
  }
}

for (const [dir, name] of packages) {
  const rel = path.relative(root, dir).split(path.sep).join('/');
  if (fileOnly[name]) {
    for (const file of fileOnly[name]) addFile(path.join(dir, file), `${rel}/${file}`);
    continue;
  }
  addTree(dir, rel, { filter: true, skipTop: nativeSources[name] });
}
// argon2 ships prebuilt addons for many platforms: only this one's.
for (let i = files.length - 1; i >= 0; i--) {
  const m = /\/prebuilds\/([^/]+)\//.exec(files[i].rel);
  if (m && m[1] !== 'linux-x64') files.splice(i, 1);
}
for (const file of bundles) {
  addFile(path.join(root, file), file);
  addFile(path.join(root, `${file}.map`), `${file}.map`);
}
addTree(path.join(root, 'dist/client'), 'dist/client', { filter: false });
fs.mkdirSync(out, { recursive: true });
const boot = path.join(out, 'boot.cjs');
fs.writeFileSync(
  boot,
  `'use strict';
// Loaded from the cache folder by the launcher: starts the server bundle as \`node dist/server.mjs ...args\`
// does, so the bundle sees process.argv = [node, <this folder>/dist/server.mjs, ...args].
const bundle = require('node:path').join(__dirname, 'dist', 'server.mjs');
process.argv.splice(1, 1, bundle);
module.exports = import(require('node:url').pathToFileURL(bundle).href);
`,
);
addFile(boot, 'boot.cjs');

// The launcher's execve (see execve.c). Without a C compiler the executable still works, but runs the
// server in a child process while the first one waits (more memory).
const addon = path.join(out, 'execve.node');
fs.rmSync(addon, { force: true });
const cc = spawnSync(process.env.CC ?? 'cc', [
  '-shared',
  '-fPIC',
  '-O2',
  '-s',
  '-o',
  addon,
  path.join(root, 'scripts/build/execve.c'),
]);
if (cc.status === 0) addFile(addon, 'execve.node');
else
  console.warn(
    `npm run package: the C compiler (${process.env.CC ?? 'cc'}) failed, so the executable will run the ` +
      `server in a child process, not in its own: ${cc.error?.message ?? cc.stderr}`,
  );

// npm start's memory settings, which the launcher applies: `VAR=value … node <flags> dist/server.mjs`.
const start = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
const startEnv = {};
while (/^[A-Z_][A-Z0-9_]*=/.test(start[0])) {
  const [name, ...value] = start.shift().split('=');
  startEnv[name] = value.join('=');
}
if (start.shift() !== 'node' || start.pop() !== 'dist/server.mjs' || start.some((w) => !w.startsWith('--')))
  throw new Error(`npm start is not "VAR=value … node --flag … dist/server.mjs": cannot read its settings`);

// ---- One archive: [u32 header length][header JSON: path, mode, size][file bytes…], gzipped.
const header = Buffer.from(JSON.stringify(files.map(({ rel, mode, size }) => [rel, mode, size])));
const length = Buffer.alloc(4);
length.writeUInt32LE(header.length);
const raw = Buffer.concat([length, header, ...files.map((f) => fs.readFileSync(f.abs))]);
const archive = gzipSync(raw, { level: 6 });
const hash = createHash('sha256').update(archive).digest('hex').slice(0, 16);
const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
fs.writeFileSync(path.join(out, 'app.gz'), archive);
fs.writeFileSync(
  path.join(out, 'info.json'),
  JSON.stringify({ version, hash, node: process.version, env: startEnv, nodeOptions: start }),
);
fs.copyFileSync(path.join(root, 'scripts/build/sea-launcher.cjs'), path.join(out, 'launcher.cjs'));
fs.writeFileSync(
  path.join(out, 'sea-config.json'),
  JSON.stringify({
    main: path.join(out, 'launcher.cjs'),
    output: path.join(out, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    useCodeCache: false,
    assets: { 'app.gz': path.join(out, 'app.gz'), 'info.json': path.join(out, 'info.json') },
  }),
);

// ---- The executable: a copy of this Node with the blob injected (postject).
run(process.execPath, ['--experimental-sea-config', path.join(out, 'sea-config.json')]);
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(process.execPath, target);
fs.chmodSync(target, 0o755);
run(process.execPath, [
  path.join(root, 'node_modules/postject/dist/cli.js'),
  target,
  'NODE_SEA_BLOB',
  path.join(out, 'sea-prep.blob'),
  '--sentinel-fuse',
  'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
]);

const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
console.log(
  `${path.relative(root, target)}: ${mib(fs.statSync(target).size)} (Node ${process.version} ${mib(fs.statSync(process.execPath).size)}; ` +
    `app ${files.length} files, ${mib(raw.length)} → ${mib(archive.length)} gzip; ${packages.size} packages) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
