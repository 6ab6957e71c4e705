// `npm start` runs this first: builds the client when dist/client is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist/client/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'e2e' || entry.name.endsWith('.test.tsx') || entry.name.endsWith('.test.ts')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = ['client', 'src'].map((d) => newestMtime(path.join(root, d)));
const inputs = Math.max(
  ...sources,
  fs.statSync(path.join(root, 'package-lock.json'), { throwIfNoEntry: false })?.mtimeMs ?? 0,
);
if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= inputs) process.exit(0);

console.log('Building the client (first start or sources changed)…');
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
