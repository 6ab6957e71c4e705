import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Browser tests run against the real built client: build it once if it is missing or stale. */
export default function setup() {
  const root = path.resolve(import.meta.dirname, '../..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-client-if-needed.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('Building the client failed');
}
