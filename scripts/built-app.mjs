// The built app as the tests and the benchmarks run it: the server bundle (`node dist/server.mjs`, what
// `npm start` runs) or the single executable on a free port, and Debian's Chromium with the flags this
// machine needs. The one place either is started.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { chromium } from 'playwright-core';

export const root = path.resolve(import.meta.dirname, '..');

/** Builds what is missing or older than its sources (build-if-needed.mjs, as `npm start` does); throws if the build fails. */
export function buildIfNeeded() {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build/build-if-needed.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('Building the app failed');
}

/** A loopback port the OS says is free now, for a server about to be started (its PORT). */
export async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts the built server on a free port and waits until GET /readyz answers 200. Without `dataDir` it
 * gets a temporary DATA_DIR of its own, removed by stop(); a given one is left in place; with `null`,
 * DATA_DIR is not set (the server's default, ./data of `cwd`).
 */
export async function startBuiltServer({
  env = {},
  dataDir,
  inheritEnv = true,
  command = process.execPath,
  args = ['--enable-source-maps', path.join(root, 'dist/server.mjs')],
  cwd = root,
  timeoutMs = 60_000,
} = {}) {
  const ownDataDir = dataDir === undefined;
  const dir = ownDataDir ? fs.mkdtempSync(path.join(os.tmpdir(), 'qr-built-')) : dataDir;
  const port = await freePort();
  const child = spawn(command, args, {
    cwd,
    env: {
      ...(inheritEnv ? process.env : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(dir === null ? {} : { DATA_DIR: dir }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = [];
  // SERVER_LOG_DIR (npm test sets test-results/server-logs): each server's lines also go to a file of
  // its own, so a failure seen in CI can be read afterwards with what the server said.
  const logFile = process.env.SERVER_LOG_DIR
    ? path.join(
        process.env.SERVER_LOG_DIR,
        `server-${new Date().toISOString().replace(/[:.]/g, '')}-${port}.log`,
      )
    : undefined;
  if (logFile) fs.mkdirSync(process.env.SERVER_LOG_DIR, { recursive: true });
  const logOut = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : undefined;
  if (logOut) child.once('exit', () => logOut.end());
  for (const stream of [child.stdout, child.stderr])
    readline.createInterface({ input: stream }).on('line', (line) => {
      logs.push(line);
      logOut?.write(`${line}\n`);
    });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await exited;
      throw new Error(`the server exited with ${child.exitCode ?? child.signalCode}:\n${logs.join('\n')}`);
    }
    try {
      const res = await fetch(`${url}/readyz`);
      await res.body?.cancel();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become ready in ${timeoutMs} ms:\n${logs.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url,
    port,
    dataDir: dir ?? path.join(cwd, 'data'),
    logs,
    child,
    exited,
    /** Sends `signal` (SIGTERM: a graceful shutdown), waits for the exit; answers the exit code. */
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const { code } = await exited;
      if (ownDataDir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      return code;
    },
  };
}

/** Debian's Chromium, headless; without the background-networking flags it floods the closed network. */
export const chromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
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
};

/** Chromium for this process alone. */
export function launchChromium() {
  return chromium.launch(chromiumOptions);
}

/** Chromium that other processes connect to (`chromium.connect(wsEndpoint)`): one for a whole test run. */
export function launchChromiumServer() {
  return chromium.launchServer(chromiumOptions);
}
