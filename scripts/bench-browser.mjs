// What the browser benchmarks (bench:client, bench:scan-check) share: the production build, the built
// server (`node dist/server.mjs`, as npm start runs it) on a free port with a temporary DATA_DIR, and
// Debian's Chromium with the flags this machine needs.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { freePort } from './start-command.mjs';

export const root = path.resolve(import.meta.dirname, '..');

/** Builds the client and the server bundle when their sources changed; exits on a failed build. */
export function buildIfNeeded() {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-needed.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** The built server of checkout `dir`, ready (GET /readyz answers 200); `stop()` ends it and its data. */
export async function startBuiltServer(dir = root) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(dir, 'dist/server.mjs')], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null || i > 600) throw new Error(`server in ${dir} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headless Chromium; without the background-networking flags it floods the closed network. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
