// npm run bench:scan-check — how long the designer's live scan check takes per preview, in Debian's
// Chromium on the production build (`node dist/server.mjs`, as npm start runs it): a new user types RUNS
// (default 40) different URLs into /create, switching template every few, and the page's own performance
// measures are read: 'qr-scan-check' (render, rasterise at 512/118/236/354 px, decode, judge) and
// 'qr-scan-check:decode' (the worker's part, off the main thread). Also the main thread's long tasks
// (> 50 ms) seen while typing, and, in the same run as a baseline, the same typing with the check's worker
// answering at once (the page's Worker replaced by a stub), so the figures show what the check adds.
import { buildIfNeeded, launchChromium, startBuiltServer } from './browser.mjs';

const runs = Number(process.env.RUNS ?? 40);

buildIfNeeded();
const server = await startBuiltServer();
const url = server.url;
const browser = await launchChromium();

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
  await server.stop();
}
