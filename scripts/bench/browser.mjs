// What the browser benchmarks (bench:client, bench:scan-check) share: the production build, the built
// server (`node dist/server.mjs`, as npm start runs it) on a free port with a temporary DATA_DIR, and
// Debian's Chromium with the flags this machine needs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { launchChromium, startBuiltServer as startServer } from '../built-app.mjs';

export const root = path.resolve(import.meta.dirname, '../..');

/** Builds the client and the server bundle when their sources changed; exits on a failed build. */
export function buildIfNeeded() {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build/build-if-needed.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/**
 * The built server of checkout `dir`, ready (GET /readyz answers 200), with `env` on top of LOG_LEVEL=warn;
 * `stop()` ends it and its data.
 */
export function startBuiltServer(dir = root, env = {}) {
  return startServer({
    cwd: dir,
    args: [path.join(dir, 'dist/server.mjs')],
    env: { LOG_LEVEL: 'warn', ...env },
  });
}

export { launchChromium };
