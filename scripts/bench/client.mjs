// npm run bench:client — what a browser downloads to show /auth, / (dashboard) and /create (until the URL
// field is there): requests, bytes on the wire (compressed, headers included), bytes decoded, and the time
// from navigation to the page's first usable element. Real `node dist/server.mjs` on loopback, Debian's
// Chromium, a cold cache for every load, medians of RUNS (default 5).
//
// Compared in the same run, loads alternating:
//   - `identity`: the same build with the browser sending `Accept-Encoding: identity` (nothing compressed);
//   - BASELINE_DIR=<another checkout with a built dist/>: that build, e.g. the commit before a change
//     (`git worktree add /tmp/before <commit> && ln -s $PWD/node_modules /tmp/before/ && (cd /tmp/before &&
//     node scripts/build/build-if-needed.mjs)`).
import path from 'node:path';
import { buildIfNeeded, launchChromium, root, startBuiltServer } from './browser.mjs';

const runs = Number(process.env.RUNS ?? 5);
const baselineDir = process.env.BASELINE_DIR ? path.resolve(process.env.BASELINE_DIR) : null;

buildIfNeeded();

const pages = [
  { path: '/auth', signedIn: false, ready: (page) => page.getByLabel('Username').waitFor() },
  {
    path: '/',
    signedIn: true,
    ready: (page) => page.getByRole('heading', { name: 'Dashboard', exact: true }).first().waitFor(),
  },
  { path: '/create', signedIn: true, ready: (page) => page.getByLabel(/^URL/).waitFor() },
];

/** One cold load: a new context (empty cache), CDP counting every response's encoded and decoded bytes. */
async function load(browser, server, spec, cookie, identity) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    extraHTTPHeaders: identity ? { 'Accept-Encoding': 'identity' } : {},
  });
  if (spec.signedIn) await context.addCookies([{ ...cookie, url: server.url }]);
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let requests = 0;
  let wire = 0;
  let decoded = 0;
  cdp.on('Network.loadingFinished', (e) => {
    requests += 1;
    wire += e.encodedDataLength;
  });
  cdp.on('Network.dataReceived', (e) => {
    decoded += e.dataLength;
  });
  const started = performance.now();
  await page.goto(`${server.url}${spec.path}`, { waitUntil: 'commit', timeout: 60_000 });
  await spec.ready(page);
  const ms = performance.now() - started;
  // What the page asked for at start-up keeps arriving for a moment (lazy chunks): count it too.
  await page.waitForLoadState('networkidle');
  await context.close();
  return { requests, wire, decoded, ms };
}

async function signInCookie(server) {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo123' }),
  });
  if (res.status !== 200) throw new Error(`demo sign-in answered ${res.status}`);
  // The session cookie, not the known-device cookie that comes first.
  const pair = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => /^(__Host-)?qr_session=/.test(c));
  if (!pair) throw new Error('demo sign-in set no session cookie');
  const [name, ...value] = pair.split('=');
  return { name, value: value.join('=') };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const variants = [
  { name: 'this build', dir: root, identity: false },
  { name: 'this build, identity', dir: root, identity: true },
  ...(baselineDir
    ? [{ name: `baseline ${path.basename(baselineDir)}`, dir: baselineDir, identity: false }]
    : []),
];

const browser = await launchChromium();
const servers = new Map();
try {
  for (const v of variants) {
    if (!servers.has(v.dir)) {
      const server = await startBuiltServer(v.dir);
      servers.set(v.dir, { server, cookie: await signInCookie(server) });
    }
  }
  const results = new Map(); // `${variant}|${path}` → loads
  // A warm-up load of each, then the runs with the variants alternating.
  for (let round = -1; round < runs; round++) {
    for (const spec of pages) {
      for (const v of variants) {
        const { server, cookie } = servers.get(v.dir);
        const r = await load(browser, server, spec, cookie, v.identity);
        if (round < 0) continue;
        const key = `${v.name}|${spec.path}`;
        results.set(key, [...(results.get(key) ?? []), r]);
      }
    }
  }
  console.log(
    `Chromium, cold cache, loopback; medians of ${runs} loads per row, variants alternating; ` +
      'bytes on the wire include headers; "ready" = the Username field (/auth), the Dashboard heading (/), the URL field (/create)',
  );
  console.log(
    `${'page'.padEnd(9)}${'variant'.padEnd(30)}${'requests'.padStart(9)}${'on the wire'.padStart(14)}${'decoded'.padStart(12)}${'ready'.padStart(10)}`,
  );
  for (const spec of pages) {
    for (const v of variants) {
      const loads = results.get(`${v.name}|${spec.path}`);
      console.log(
        `${spec.path.padEnd(9)}${v.name.padEnd(30)}${String(median(loads.map((l) => l.requests))).padStart(9)}` +
          `${kb(median(loads.map((l) => l.wire))).padStart(14)}${kb(median(loads.map((l) => l.decoded))).padStart(12)}` +
          `${`${median(loads.map((l) => l.ms)).toFixed(0)} ms`.padStart(10)}`,
      );
    }
  }
} finally {
  await browser.close();
  for (const { server } of servers.values()) await server.stop();
}
