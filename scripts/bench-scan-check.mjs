// npm run bench:scan-check — how long the designer's live scan check takes per preview, in Debian's
// Chromium on the production build (`node dist/server.mjs`, as npm start runs it): a new user types RUNS
// (default 40) different URLs into /create, switching template every few, and the page's own performance
// measures are read: 'qr-scan-check' (render, rasterise at 512/118/236/354 px, decode, judge) and
// 'qr-scan-check:decode' (the worker's part, off the main thread). Also the main thread's long tasks
// (> 50 ms) seen while typing, and, in the same run as a baseline, the same typing with the check's worker
// answering at once (the page's Worker replaced by a stub), so the figures show what the check adds.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.RUNS ?? 40);

const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-needed.mjs')], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-scan-'));
const port = await freePort();
const child = spawn(process.execPath, [path.join(root, 'dist/server.mjs')], {
  cwd: root,
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
  if (child.exitCode !== null || i > 600) throw new Error('the server did not start');
  await new Promise((r) => setTimeout(r, 50));
}

const browser = await chromium.launch({
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

const pct = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const templates = ['Classic', 'Blue Modern', 'Framed Business', 'Green Eco', 'Minimalist'];

/** One session of typing; `stubWorker`: the decoder worker answers at once (nothing decoded). */
async function session(n, stubWorker) {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const username = `bench${n}${Date.now() % 100000}`;
  const res = await page.request.post('/api/register', {
    data: { username, password: 'secret123', name: 'Bench User', email: `${username}@example.com` },
  });
  if (res.status() !== 201) throw new Error(`register: ${res.status()}`);
  await page.addInitScript((stub) => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    if (stub) {
      window.Worker = class {
        postMessage(message) {
          setTimeout(() => this.onmessage?.({ data: { id: message.id, attempts: [] } }), 0);
        }
        terminate() {}
      };
    }
  }, stubWorker);
  await page.goto('/create');
  await page.getByLabel(/^URL/).waitFor();
  await page.getByLabel('Dynamic QR code').uncheck({ force: true });
  // Typing starts once the page has settled: its own start-up tasks are not the check's.
  await page.waitForTimeout(500);
  await page.evaluate(() => (window.__longTasks.length = 0));
  for (let i = 0; i < runs; i++) {
    if (i % 8 === 0) {
      await page
        .getByRole('group', { name: 'Templates' })
        .getByRole('button', { name: new RegExp(templates[(i / 8) % templates.length]) })
        .click();
    }
    const before = await page.evaluate(() => performance.getEntriesByName('qr-scan-check').length);
    await page.getByLabel(/^URL/).fill(`https://example.com/${'p'.repeat(i * 3)}/${i}`);
    // Settled: a new check has finished and nothing newer is running.
    await page.waitForFunction(
      (count) =>
        performance.getEntriesByName('qr-scan-check').length > count &&
        document.querySelector('[data-scan-check]')?.getAttribute('data-scan-check') === 'done',
      before,
      { timeout: 60_000 },
    );
  }
  const figures = await page.evaluate(() => ({
    total: performance.getEntriesByName('qr-scan-check').map((e) => e.duration),
    decode: performance.getEntriesByName('qr-scan-check:decode').map((e) => e.duration),
    longTasks: window.__longTasks,
  }));
  await context.close();
  return figures;
}

try {
  // Alternate, so the machine's noise falls on both.
  const real = { total: [], decode: [], longTasks: [] };
  const stub = { total: [], decode: [], longTasks: [] };
  for (let round = 0; round < 2; round++) {
    for (const [into, stubbed] of [
      [real, false],
      [stub, true],
    ]) {
      const f = await session(round * 2 + (stubbed ? 1 : 0), stubbed);
      into.total.push(...f.total);
      into.decode.push(...f.decode);
      into.longTasks.push(...f.longTasks);
    }
  }
  const line = (label, values) =>
    `${label.padEnd(44)} n=${String(values.length).padStart(3)}  p50 ${pct(values, 50).toFixed(0).padStart(5)} ms  p95 ${pct(values, 95).toFixed(0).padStart(5)} ms`;
  console.log(`scan check per preview (${runs} previews × 2 sessions, Chromium, production build)`);
  console.log(line('check, whole (render + rasterise + decode)', real.total));
  console.log(line('  of which the worker (decode, off-thread)', real.decode));
  console.log(line('baseline: same, decoder answering at once', stub.total));
  const longest = (v) => (v.length ? Math.max(...v).toFixed(0) : '0');
  console.log(
    `main-thread long tasks while typing: ${real.longTasks.length} (longest ${longest(real.longTasks)} ms) with the check, ` +
      `${stub.longTasks.length} (longest ${longest(stub.longTasks)} ms) without decoding`,
  );
} finally {
  await browser.close();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
