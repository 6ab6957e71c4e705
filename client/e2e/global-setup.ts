import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Browser tests run the real built app (client and server bundle): build once if missing or stale. */
export default function setup() {
  const root = path.resolve(import.meta.dirname, '../..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-needed.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('Building the app failed');
}
