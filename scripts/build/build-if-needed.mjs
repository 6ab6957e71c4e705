// `npm start` and the browser tests run this first. It builds what is missing or older than its
// sources: the client (Vite → dist/client) and the server bundle (esbuild → dist/server.mjs, which
// starts in about half the time of running the TypeScript through tsx) with the bundles of its three
// worker threads beside it (dist/bulk-parse-worker.mjs: the spreadsheet reader; dist/scan-writer-worker.mjs:
// the scans' writer; dist/background-worker.mjs: webhooks and forwarding; the server finds them next to its own file) and the chunks they import (dist/<name>-<hash>.mjs). With --server only the
// server's bundles: the command line (npm run backup, …) needs no client.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const mtime = (file) => fs.statSync(path.join(root, file), { throwIfNoEntry: false })?.mtimeMs ?? 0;

function newest(dir) {
  let latest = 0;
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return 0;
  for (const entry of fs.readdirSync(full, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || /\.test\.tsx?$|\.e2e\.ts$/.test(entry.name)) continue;
    latest = Math.max(latest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

function run(args) {
  // Always the production build, even when a test runner (NODE_ENV=test) asks for it: otherwise Vite
  // would bundle React's development build, and `npm start` would then serve it.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const installed = Math.max(mtime('package-lock.json'), mtime('package.json'));

const clientInputs = Math.max(
  newest('client'),
  newest('src'),
  installed,
  mtime('vite.config.ts'),
  // The build plugins vite.config.ts uses (precompress, chunk groups, page preload…).
  ...['precompress', 'chunk-groups', 'deep-imports', 'mantine-styles', 'page-preload'].map((name) =>
    mtime(`scripts/build/${name}.ts`),
  ),
);
const serverOnly = process.argv.includes('--server');
if (!serverOnly && mtime('dist/client/index.html') < clientInputs) {
  console.log('Building the client…');
  run([path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);
}

/** The server's bundles: each name in dist/ (.mjs) and its entry point. */
const serverBundles = {
  server: 'server/main.ts',
  'bulk-parse-worker': 'server/features/qr/bulk-parse.worker.ts',
  'scan-writer-worker': 'server/features/scans/scan-writer.worker.ts',
  'background-worker': 'server/background/background.worker.ts',
};
const serverInputs = Math.max(newest('server'), newest('src'), newest('migrations'), installed);
// The oldest bundle decides: a dist/ built before a bundle was added lacks it.
const serverBuilt = Math.min(...Object.keys(serverBundles).map((name) => mtime(`dist/${name}.mjs`)));
if (serverBuilt < serverInputs) {
  console.log('Building the server…');
  const { build } = await import('esbuild');
  const dist = path.join(root, 'dist');
  const result = await build({
    entryPoints: Object.fromEntries(
      Object.entries(serverBundles).map(([name, entry]) => [name, path.join(root, entry)]),
    ),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    // What the server imports when it needs it (the web server, each command of the command line)
    // goes to chunks of its own beside the bundle (dist/<name>-<hash>.mjs), loaded only then: a
    // command such as `node dist/server.mjs version` does not load Fastify and its packages.
    splitting: true,
    metafile: true,
    absWorkingDir: root,
    outdir: dist,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
  // The chunks of earlier builds (dist/ holds only this build's .mjs files; the client is in a folder).
  const written = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(root, file)));
  for (const name of fs.readdirSync(dist)) {
    const file = path.join(dist, name);
    if (/\.mjs(\.map)?$/.test(name) && !written.has(file)) fs.rmSync(file, { force: true });
  }
}
