import fs from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, type TestContext } from 'vitest';
import type { ShortDomain } from '../../src/qr/short-domain.schema';
import { root, startBuiltServer, type BuiltServer } from '../../scripts/built-app.mjs';

export const screenshotDir = path.join(root, 'test-results', 'screenshots');

export type RunningServer = BuiltServer;

/** The real built server (dist/server.mjs, what `npm start` runs) on a free port with a temporary DATA_DIR. */
export function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return startBuiltServer({ env: { LOG_LEVEL: 'info', ...env } });
}

/**
 * Console errors, uncaught page errors and Content-Security-Policy violations seen since the last test
 * ended. Every browser test fails on any of them (afterBrowserTest below), unless the test said it expects
 * one on that page with `allowConsoleErrors` — a test of an error path, for instance.
 */
const pageProblems: string[] = [];
const allowed = new WeakMap<Page, RegExp[]>();

/** The page is expected to log console errors matching `pattern` (e.g. a mocked failing request). */
export function allowConsoleErrors(page: Page, pattern: RegExp) {
  allowed.set(page, [...(allowed.get(page) ?? []), pattern]);
}

/** Pages open now (opened in a watched context, not yet closed): pictured when a test fails. */
const openPages = new Set<Page>();

function watchPage(page: Page) {
  openPages.add(page);
  page.on('close', () => openPages.delete(page));
  const note = (kind: string, text: string) => {
    if ((allowed.get(page) ?? []).some((pattern) => pattern.test(text))) return;
    pageProblems.push(`${kind} on ${page.url()}: ${text}`);
  };
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const where = message.location().url;
      note('console error', message.text() + (where ? ` (${where})` : ''));
    }
  });
  page.on('pageerror', (error) => note('uncaught error', error.stack ?? error.message));
}

async function watchContext(context: BrowserContext) {
  // A CSP violation is reported by the page itself, before Chromium's console line, with its details.
  await context.exposeBinding('__reportCspViolation', ({ page }, text: string) => {
    if ((allowed.get(page) ?? []).some((pattern) => pattern.test(text))) return;
    pageProblems.push(`CSP violation on ${page.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation?: (text: string) => void })
        .__reportCspViolation;
      report?.(`${event.violatedDirective} blocked ${event.blockedURI.slice(0, 120)}`);
    });
  });
  context.on('page', watchPage);
  for (const page of context.pages()) watchPage(page);
}

/**
 * After every browser test (client/e2e/setup.ts registers it in each file): a failed test leaves a picture
 * of every page still open, and a page's console errors, uncaught errors or CSP violations fail the test.
 */
export async function afterBrowserTest({ task }: TestContext) {
  // A failed test leaves a picture of every page still open (the window, not the whole page: quick),
  // screenshots or not: test-results/screenshots/failed-<file>-<test>-<n>.png.
  if (task.result?.state === 'fail') {
    await fs.mkdir(screenshotDir, { recursive: true });
    const name = `failed-${path.basename(task.file.name, '.e2e.ts')}-${task.name}`
      .replace(/[^\w.-]+/g, '-')
      .slice(0, 120);
    let n = 0;
    for (const page of openPages) {
      n += 1;
      await page
        .screenshot({ path: path.join(screenshotDir, `${name}-${n}.png`), timeout: 5_000 })
        .catch(() => undefined);
    }
  }
  const problems = pageProblems.splice(0);
  if (problems.length > 0) {
    throw new Error(`The page reported ${problems.length} problem(s):\n${problems.join('\n')}`);
  }
}

/**
 * The run's Chromium (client/e2e/global-setup.ts), connected to for this file; every context it opens is
 * watched for console errors, page errors and CSP violations. Closing it closes this file's contexts.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.connect(inject('chromiumWs'));
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchContext(context);
    return context;
  };
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    // Closing the page closes the context it owns, as Browser.newPage's own contexts do. When the page
    // closes because the browser does, the context is gone already: that refusal is no test's failure
    // (left unhandled, it failed a whole CI run as an "unhandled rejection" of whichever file ran next).
    page.on('close', () => void context.close().catch(() => undefined));
    return page;
  };
  return browser;
}

export const desktop = { width: 1280, height: 800 };
export const phone = { width: 375, height: 740 };

export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = desktop,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport, colorScheme: 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

let signUps = 0;

/**
 * A new account registered through the API, in a fresh context of its own (light scheme, downloads
 * accepted) that holds its session: a user as a new user meets the app. `prefix` names it in the logs.
 */
export async function signUpNewUser(
  server: { browser: Browser; server: RunningServer },
  prefix: string,
  viewport = desktop,
): Promise<{ context: BrowserContext; page: Page; username: string }> {
  const context = await server.browser.newContext({
    baseURL: server.server.url,
    viewport,
    colorScheme: 'light',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  signUps += 1;
  const username = `${prefix}${signUps}${Date.now() % 100000}`;
  const res = await page.request.post('/api/register', {
    data: { username, password: 'secret123', name: 'New User', email: `${username}@example.com` },
  });
  if (res.status() !== 201) throw new Error(`registering ${username}: ${res.status()} ${await res.text()}`);
  return { context, page, username };
}

/**
 * A short domain the server's admin adds for every workspace, through the API (signed in with
 * `adminPassword`, the server's ADMIN_PASSWORD, in a context of its own): from then on every workspace of
 * the server is offered it.
 */
export async function addShortDomainAsAdmin(
  server: { browser: Browser; server: RunningServer },
  adminPassword: string,
  hostname: string,
): Promise<ShortDomain> {
  const admin = await newPage(server.browser, server.server.url);
  try {
    const login = await admin.page.request.post('/api/login', {
      data: { username: 'admin', password: adminPassword },
    });
    expect(login.status(), await login.text()).toBe(200);
    const added = await admin.page.request.post('/api/admin/domains', {
      data: { hostname, allWorkspaces: true },
    });
    expect(added.status(), await added.text()).toBe(201);
    return (await added.json()) as ShortDomain;
  } finally {
    await admin.context.close();
  }
}

/** A picture of the page; `fullPage: false` keeps to the window (a page many screens long). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  // Pictures to look at, not assertions: taken with SCREENSHOTS=1 (each costs a settle and a full-page
  // capture, about a minute and a half over the suite).
  if (!process.env.SCREENSHOTS) return;
  await fs.mkdir(screenshotDir, { recursive: true });
  // Let toasts and transitions settle so the picture shows the page, not an animation frame.
  await page.waitForTimeout(300);
  // Toasts are asserted by the tests; hidden here so they do not cover the page in the picture.
  await page.screenshot({
    path: path.join(screenshotDir, `${name}.png`),
    fullPage,
    style: '.mantine-Notifications-root { display: none !important; }',
  });
}

/** Signs in through the real form. */
export async function signIn(page: Page, username: string, password: string) {
  await page.goto('/auth');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((u) => u.pathname === '/');
}

/** Every link matching `pattern` in the mails written to <dataDir>/outbox so far, as paths with query and fragment. */
export async function mailLinks(dataDir: string, pattern: RegExp): Promise<string[]> {
  const outbox = path.join(dataDir, 'outbox');
  const all = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  const links: string[] = [];
  const files = await fs.readdir(outbox).catch(() => [] as string[]);
  // A mail is written as <name>.eml.part, then renamed: only whole .eml files are read.
  for (const file of files.filter((name) => name.endsWith('.eml'))) {
    // Mails are quoted-printable: undo soft line breaks and =3D before matching.
    const text = (await fs.readFile(path.join(outbox, file), 'utf8'))
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    for (const match of text.matchAll(all)) {
      const url = new URL(match[0], 'http://x');
      links.push(url.pathname + url.search + url.hash);
    }
  }
  return links;
}

/**
 * A link matching `pattern` in a mail written to <dataDir>/outbox (waits for it), as a path with its query
 * and fragment; links in `except` (those of mails sent before, see mailLinks) are passed over.
 */
export async function waitForMailLink(
  dataDir: string,
  pattern: RegExp,
  except: readonly string[] = [],
): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const found = (await mailLinks(dataDir, pattern)).find((link) => !except.includes(link));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no new mail matching ${String(pattern)} in ${path.join(dataDir, 'outbox')}`);
}

/** One real server and one Chromium for a test file: started before its tests, stopped after. */
export function withAppServer(env: Record<string, string> = {}) {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server(): RunningServer {
      if (!server) throw new Error('the server is not started yet');
      return server;
    },
    get browser(): Browser {
      if (!browser) throw new Error('the browser is not started yet');
      return browser;
    },
  };
}

/** A download's bytes (read through Playwright: the run's Chromium is a connected one, whose files have no local path). */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
