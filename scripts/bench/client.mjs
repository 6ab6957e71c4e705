// npm run bench:client — what a browser downloads to show /auth, / (dashboard) and /create (until the URL
// field is there): requests, bytes on the wire (compressed, headers included), bytes decoded, and the time
// from navigation to the page's first usable element. Then, the app loaded at /, a move inside it: a click
// on My QR Codes until its 50 codes are on screen (the list's own view, cards, and the list view), timed
// in the page from the click to the frame that shows them, with the main thread's CPU time in that
// window (from a trace: steadier than the wall time on a shared machine). Real
// `node dist/server.mjs` (FREE_PLAN_LIMIT=1000, for the 50 codes made through POST /api/qr-codes after the
// page loads), Debian's Chromium, a cold cache for every load, medians of RUNS (default 5).
//
// The network:
//   - loopback (the default);
//   - THROTTLED=1: through a slow link in this script (throttle.mjs: 150 ms round trip, 1.6 Mbit/s each
//     way, shared by the page's connections; RTT_MS= and KBIT= change them), as a phone on a mobile
//     network; THROTTLED=both: loopback, then throttled.
//
// Compared in the same run, loads alternating:
//   - `identity`: the same build with the browser sending `Accept-Encoding: identity` (nothing compressed);
//     on loopback only unless IDENTITY=1 (IDENTITY=0: not at all);
//   - BASELINE_DIR=<another checkout with a built dist/>: that build, e.g. the commit before a change
//     (`git worktree add /tmp/before <commit> && ln -s $PWD/node_modules /tmp/before/ && (cd /tmp/before &&
//     node scripts/build/build-if-needed.mjs)`, or `git archive <commit> | tar -x -C /tmp/before` for a
//     copy outside git).
//
// The move is timed twice: a click at once (the network just quiet), and a click after DWELL_MS (default
// 3000) on the page, as a person reads it first: by then the app has fetched ahead the pages people open
// next (features/shell/use-idle-preload.ts). DWELL_MS=0 times the first only.
//
// MOVE=0 skips the move to My QR Codes (the page loads only); LOADS=0 skips the cold loads (the move only).
import path from 'node:path';
import { buildIfNeeded, launchChromium, root, startBuiltServer } from './browser.mjs';
import { startThrottle } from './throttle.mjs';

const runs = Number(process.env.RUNS ?? 5);
const coldLoads = process.env.LOADS !== '0';
const baselineDir = process.env.BASELINE_DIR ? path.resolve(process.env.BASELINE_DIR) : null;
const throttled = process.env.THROTTLED ?? '';
const networks =
  throttled === 'both'
    ? ['loopback', 'throttled']
    : throttled && throttled !== '0'
      ? ['throttled']
      : ['loopback'];
const throttle = {
  rttMs: Number(process.env.RTT_MS ?? 150),
  kbitPerSecond: Number(process.env.KBIT ?? 1600),
};
/** The codes My QR Codes shows in the move inside the app. */
const CODES = 50;
const dwellMs = Number(process.env.DWELL_MS ?? 3000);
const dwells = dwellMs > 0 ? [0, dwellMs] : [0];
const codeName = (i) => `Bench code ${String(i).padStart(2, '0')}`;

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

/** A context with an empty cache, the session cookie when `signedIn`, and CDP counting every response. */
async function open(browser, base, cookie, { signedIn, identity = false, init }) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    extraHTTPHeaders: identity ? { 'Accept-Encoding': 'identity' } : {},
  });
  if (signedIn) await context.addCookies([{ ...cookie, url: base }]);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const counts = { requests: 0, wire: 0, decoded: 0 };
  cdp.on('Network.loadingFinished', (e) => {
    counts.requests += 1;
    counts.wire += e.encodedDataLength;
  });
  cdp.on('Network.dataReceived', (e) => {
    counts.decoded += e.dataLength;
  });
  return { context, page, counts };
}

/** One cold load of `spec`. */
async function load(browser, base, spec, cookie, identity) {
  const { context, page, counts } = await open(browser, base, cookie, { signedIn: spec.signedIn, identity });
  const started = performance.now();
  await page.goto(`${base}${spec.path}`, { waitUntil: 'commit', timeout: 120_000 });
  await spec.ready(page);
  const ms = performance.now() - started;
  // What the page asked for at start-up keeps arriving for a moment (lazy chunks): count it too.
  await page.waitForLoadState('networkidle');
  await context.close();
  return { ...counts, ms };
}

/**
 * In the page: the time from the next click to the frame that first shows every one of `names` (the
 * page's own clock, so not the harness's moving of the mouse before the click).
 */
function watchForNames(names) {
  const found = new Promise((resolve) => {
    let clicked = 0;
    document.addEventListener(
      'click',
      () => {
        if (!clicked) console.timeStamp('bench:click');
        clicked ||= performance.now();
      },
      { capture: true },
    );
    const check = () => {
      if (clicked && names.every((n) => document.body.textContent.includes(n)))
        requestAnimationFrame(() => {
          console.timeStamp('bench:shown');
          resolve(performance.now() - clicked);
        });
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  window.__shown = found;
}

/**
 * The app loaded at / (ready, and the network quiet), then a click on My QR Codes in the navigation until
 * the first and the last of the codes are on screen, in the `view` My QR Codes keeps in local storage.
 */
async function move(browser, base, cookie, view, dwell) {
  const init = `localStorage.setItem('qr-creator:my-qr-codes-view', ${JSON.stringify(JSON.stringify(view))})`;
  const { context, page, counts } = await open(browser, base, cookie, { signedIn: true, init });
  await page.goto(`${base}/`, { waitUntil: 'commit', timeout: 120_000 });
  await pages[1].ready(page);
  await page.waitForLoadState('networkidle');
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My QR Codes' });
  await link.waitFor();
  if (dwell > 0) {
    await page.waitForTimeout(dwell);
    await page.waitForLoadState('networkidle');
  }
  await page.evaluate(watchForNames, [codeName(1), codeName(CODES)]);
  const before = { ...counts };
  await browser.startTracing(page, {
    categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  await link.click();
  await page.getByText(codeName(CODES), { exact: true }).first().waitFor();
  await page.getByText(codeName(1), { exact: true }).first().waitFor();
  const ms = await page.evaluate(() => window.__shown);
  const cpu = mainThreadCpu(JSON.parse((await browser.stopTracing()).toString()).traceEvents);
  await page.waitForLoadState('networkidle');
  await context.close();
  return { requests: counts.requests - before.requests, wire: counts.wire - before.wire, ms, cpu };
}

/**
 * The CPU time (ms) the page's main thread spent in tasks between the click and the frame that showed the
 * codes, from a Chromium trace (`tdur`: thread time). On a machine shared with other work the wall time of
 * a move swings by 2×; its CPU time much less.
 */
function mainThreadCpu(events) {
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const at = (message) =>
    events.find((e) => e.name === 'TimeStamp' && (e.args?.data?.message ?? e.args?.data?.name) === message)
      ?.ts;
  const from = at('bench:click');
  const to = at('bench:shown');
  if (from === undefined || to === undefined) return NaN;
  let us = 0;
  for (const e of events)
    if (
      e.name === 'RunTask' &&
      e.ph === 'X' &&
      main.has(`${e.pid}:${e.tid}`) &&
      e.ts + e.dur > from &&
      e.ts < to
    )
      us += e.tdur ?? 0;
  return us / 1000;
}

async function signInCookie(url) {
  const res = await fetch(`${url}/api/login`, {
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

/** The demo's codes for the move to My QR Codes, made as a script would (docs/api.md). */
async function seedCodes(url, cookie) {
  for (let i = 1; i <= CODES; i++) {
    const res = await fetch(`${url}/api/qr-codes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${cookie.name}=${cookie.value}`, origin: url },
      body: JSON.stringify({
        name: codeName(i),
        type: 'url',
        content: `https://example.com/bench/${i}`,
        isDynamic: i % 2 === 0,
        customization: {},
      }),
    });
    if (res.status !== 201) throw new Error(`POST /api/qr-codes answered ${res.status}: ${await res.text()}`);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const builds = [
  { name: 'this build', dir: root },
  ...(baselineDir ? [{ name: `baseline ${path.basename(baselineDir)}`, dir: baselineDir }] : []),
];
const variantsOf = (network) => {
  const identity = process.env.IDENTITY === undefined ? network === 'loopback' : process.env.IDENTITY === '1';
  return [
    { ...builds[0], identity: false },
    ...(identity ? [{ name: 'this build, identity', dir: root, identity: true }] : []),
    ...builds.slice(1).map((b) => ({ ...b, identity: false })),
  ];
};

const browser = await launchChromium();
/** Per build directory: its server, the demo's cookie, and its throttling proxy. */
const servers = new Map();
try {
  for (const { dir } of builds) {
    const server = await startBuiltServer(dir, { FREE_PLAN_LIMIT: '1000' });
    const cookie = await signInCookie(server.url);
    const proxy = networks.includes('throttled') ? await startThrottle(server.port, throttle) : null;
    servers.set(dir, { server, cookie, proxy });
  }
  const base = (dir, network) => {
    const { server, proxy } = servers.get(dir);
    return network === 'throttled' ? proxy.url : server.url;
  };
  const label = (network) =>
    network === 'throttled'
      ? `throttled (${throttle.rttMs} ms round trip, ${throttle.kbitPerSecond / 1000} Mbit/s each way)`
      : 'loopback';

  for (const network of coldLoads ? networks : []) {
    const variants = variantsOf(network);
    const results = new Map(); // `${variant}|${path}` → loads
    // A warm-up load of each, then the runs with the variants alternating.
    for (let round = -1; round < runs; round++) {
      for (const spec of pages) {
        for (const v of variants) {
          const r = await load(browser, base(v.dir, network), spec, servers.get(v.dir).cookie, v.identity);
          if (round < 0) continue;
          const key = `${v.name}|${spec.path}`;
          results.set(key, [...(results.get(key) ?? []), r]);
        }
      }
    }
    console.log(
      `\nChromium, cold cache, ${label(network)}; medians of ${runs} loads per row, variants alternating; ` +
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
  }

  // The move inside the app, with the codes made now (after the page loads, which they would change).
  // MOVE=0: the page loads only.
  const moves = process.env.MOVE === '0' ? [] : networks;
  if (moves.length)
    for (const { dir } of builds) await seedCodes(servers.get(dir).server.url, servers.get(dir).cookie);
  for (const network of moves) {
    const views = dwells.flatMap((dwell) =>
      ['cards', 'list'].map((view) => ({
        view,
        dwell,
        name: dwell ? `${view}, ${dwell / 1000} s on /` : view,
      })),
    );
    const results = new Map();
    for (let round = -1; round < runs; round++) {
      for (const { view, dwell, name } of views) {
        for (const b of builds) {
          const r = await move(browser, base(b.dir, network), servers.get(b.dir).cookie, view, dwell);
          if (round < 0) continue;
          const key = `${b.name}|${name}`;
          results.set(key, [...(results.get(key) ?? []), r]);
        }
      }
    }
    console.log(
      `\nThe app loaded at / (${label(network)}), a click on My QR Codes until its ${CODES} codes are on screen; ` +
        `medians of ${runs}; requests and bytes from the click on`,
    );
    console.log(
      `${'view'.padEnd(18)}${'variant'.padEnd(30)}${'requests'.padStart(9)}${'on the wire'.padStart(14)}${'shown'.padStart(10)}${'main-thread CPU'.padStart(17)}`,
    );
    for (const { name: view } of views) {
      for (const b of builds) {
        const moves = results.get(`${b.name}|${view}`);
        console.log(
          `${view.padEnd(18)}${b.name.padEnd(30)}${String(median(moves.map((m) => m.requests))).padStart(9)}` +
            `${kb(median(moves.map((m) => m.wire))).padStart(14)}` +
            `${`${median(moves.map((m) => m.ms)).toFixed(0)} ms`.padStart(10)}` +
            `${`${median(moves.map((m) => m.cpu)).toFixed(0)} ms`.padStart(17)}`,
        );
      }
    }
  }
} finally {
  await browser.close();
  for (const { server, proxy } of servers.values()) {
    await proxy?.close();
    await server.stop();
  }
}
