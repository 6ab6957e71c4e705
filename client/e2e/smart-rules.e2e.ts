// The designer's smart-redirect editor, as a new user meets it: rules for iPhones and Android phones,
// the scan tester, reordering and removing a rule, saving; then the printed code's short link opened
// by an iPhone, an Android phone and a computer lands where the rules say (the external stores are
// answered by stub pages: the network is closed), and pausing the code on /edit-qr shows the paused page.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { audit } from './a11y';
import { phone, screenshot, withAppServer } from './harness';

// Many scans of one code from one address in a minute: the per-client scan limit is off.
const app = withAppServer({ SCANS_PER_CLIENT_MINUTE: '0', FREE_PLAN_LIMIT: '50' });

const userAgents = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
    'Version/17.5 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) ' +
    'Chrome/125.0.0.0 Mobile Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
    'Chrome/125.0.0.0 Safari/537.36',
};

const APP_STORE = 'https://apps.apple.com/app/id1';
const PLAY_STORE = 'https://play.google.com/store/apps/details?id=x';
const CONTENT = 'https://example.com/app';

let users = 0;

async function newUser(viewport = { width: 1280, height: 800 }) {
  const context = await app.browser.newContext({ baseURL: app.server.url, viewport, colorScheme: 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  users += 1;
  const username = `smart${users}${Date.now() % 100000}`;
  const res = await page.request.post('/api/register', {
    data: { username, password: 'secret123', name: 'Smart User', email: `${username}@example.com` },
  });
  expect(res.status()).toBe(201);
  return { context, page };
}

async function codeNamed(page: Page, name: string): Promise<QrCode> {
  const res = await page.request.get('/api/qr-codes');
  expect(res.status()).toBe(200);
  const code = ((await res.json()) as QrCode[]).find((c) => c.name === name);
  expect(code).toBeDefined();
  return code!;
}

/** Opens a part of the Smart redirect section (a no-op when it is open). */
async function openPart(section: Locator, name: RegExp) {
  const control = section.getByRole('button', { name });
  // A click that lands while a loaded machine is still drawing the page can be lost: click again
  // until it is open.
  await expect
    .poll(
      async () => {
        if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
        return control.getAttribute('aria-expanded');
      },
      { timeout: 15_000, interval: 1000 },
    )
    .toBe('true');
}

/**
 * Checks a checkbox until it stays checked: a rule just added is drawn again once the form takes it in,
 * and on a loaded machine the first click may land on the outgoing copy.
 */
async function tick(box: Locator) {
  await expect
    .poll(
      async () => {
        if (!(await box.isChecked())) await box.click();
        return box.isChecked();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

interface Scan {
  /** The short link's own answer. */
  status: number;
  location: string | undefined;
  /** Where the browser landed, and what that page says. */
  url: string;
  text: string;
}

/** The short link opened by a phone or computer (its user agent): the server's answer and where it leads. */
async function scanWith(userAgent: string, shortUrl: string): Promise<Scan> {
  const context = await app.browser.newContext({ userAgent, viewport: phone });
  // The destinations are on the closed internet: each is answered by a small page naming its address.
  await context.route(/^https:\/\/(apps\.apple\.com|play\.google\.com|example\.com)\//, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><title>stub</title><link rel="icon" href="data:,"><p>Stub of ${attr(route.request().url())}</p>`,
    }),
  );
  // Playwright cannot route the request a redirect leads to, so the short link's 302 (fetched with
  // this browser's headers) is recorded and followed by a page that moves on at once.
  let answer: { status: number; location: string | undefined } | undefined;
  await context.route(`${shortUrl}*`, async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const location = response.headers()['location'];
    answer = { status: response.status(), location };
    if (response.status() >= 300 && response.status() < 400 && location) {
      return route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><meta http-equiv="refresh" content="0;url=${attr(location)}">`,
      });
    }
    return route.fulfill({ response });
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(shortUrl);
  if (answer?.location) await page.waitForURL(answer.location);
  const result = { ...answer!, url: page.url(), text: await page.locator('body').innerText() };
  await context.close();
  return result;
}

describe('smart redirect rules in the designer', () => {
  // Designs a code with two rules, scans it as four phones, then pauses it: about 25 s quiet, over 60 s on a
  // CI run with every lane busy.
  it('sends iPhones to the App Store and Android phones to Google Play from one code, then pauses it', async () => {
    const { context, page } = await newUser();
    await page.goto('/create');
    await page.getByLabel(/^Name/).fill('App download');
    await page.getByLabel(/^URL/).fill(CONTENT);
    expect(await page.getByLabel('Dynamic QR code').isChecked()).toBe(true);

    const section = page.getByRole('region', { name: 'Smart redirect' });
    await openPart(section, /^Rules/);
    await section.getByText('No rules yet: every scan goes to https://example.com/app.').waitFor();

    // Rule 1: iOS → App Store.
    await section.getByRole('button', { name: 'Add rule' }).click();
    const rule1 = section.getByRole('group', { name: /^Rule 1/ });
    await tick(rule1.getByRole('checkbox', { name: 'iOS' }));
    await rule1.getByLabel(/^Label/).fill('App Store');
    await rule1.getByLabel(/^Send to/).fill(APP_STORE);

    // Rule 2: Android → Google Play.
    await section.getByRole('button', { name: 'Add rule' }).click();
    const rule2 = section.getByRole('group', { name: /^Rule 2/ });
    await tick(rule2.getByRole('checkbox', { name: 'Android' }));
    await rule2.getByLabel(/^Send to/).fill(PLAY_STORE);

    // Rule 3: visitors from France → a French page; moved to the top, it wins over the OS rules.
    await section.getByRole('button', { name: 'Add rule' }).click();
    const rule3 = section.getByRole('group', { name: /^Rule 3/ });
    await rule3.getByRole('combobox', { name: 'Condition 1' }).click();
    await page.getByRole('option', { name: 'Country' }).click();
    await rule3.getByLabel('Countries').fill('Fran');
    await page.getByRole('option', { name: 'France (FR)' }).click();
    await page.keyboard.press('Escape');
    await rule3.getByLabel(/^Send to/).fill('example.com/fr');
    await rule3.getByLabel(/^Send to/).blur();
    expect(await rule3.getByLabel(/^Send to/).inputValue()).toBe('https://example.com/fr');
    await expect
      .poll(() => section.getByRole('button', { name: /^Rules/ }).textContent())
      .toContain('3 rules');

    // Keyboard: focus "Move rule 3 up", press Enter twice; focus follows the rule.
    await rule3.getByRole('button', { name: 'Move rule 3 up' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Move rule 2 up');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Move rule 1 down'); // "up" is disabled at the top
    const first = section.getByRole('group', { name: /^Rule 1/ });
    expect(await first.getByLabel(/^Send to/).inputValue()).toBe('https://example.com/fr');
    expect(
      await section
        .getByRole('group', { name: /^Rule 2/ })
        .getByLabel(/^Send to/)
        .inputValue(),
    ).toBe(APP_STORE);

    // The tester: a French iPhone now goes to the French page (rule 1 wins).
    await openPart(section, /^Test a scan/);
    const result = section.getByRole('status', { name: 'Test result' });
    const tester = section.locator('[data-scan-result]');
    await section.getByLabel('Country', { exact: true }).fill('France');
    await page.getByRole('option', { name: 'France (FR)' }).click();
    await expect
      .poll(() => result.textContent())
      .toMatch(/^An iPhone in France.* goes to https:\/\/example\.com\/fr \(rule 1\)\.$/);
    await screenshot(page, 'smart-rules-editor-1280');

    // Remove the French rule: the iPhone goes to the App Store by the (now first) iOS rule.
    await first.getByRole('button', { name: 'Remove rule 1' }).click();
    await expect.poll(() => section.getByRole('group', { name: /^Rule \d/ }).count()).toBe(2);
    await expect
      .poll(() => result.textContent())
      .toMatch(
        /^An iPhone in France.* goes to https:\/\/apps\.apple\.com\/app\/id1 \(rule 1, App Store\)\.$/,
      );
    expect(await tester.getAttribute('data-scan-result')).toBe('go');

    await section.getByLabel('Scanned with').click();
    await page.getByRole('option', { name: 'Android phone' }).click();
    await expect
      .poll(() => result.textContent())
      .toMatch(
        /^An Android phone .* goes to https:\/\/play\.google\.com\/store\/apps\/details\?id=x \(rule 2\)\.$/,
      );
    await section.getByLabel('Scanned with').click();
    await page.getByRole('option', { name: 'Windows computer' }).click();
    await expect
      .poll(() => result.textContent())
      .toMatch(
        /^A Windows computer .* goes to https:\/\/example\.com\/app \(no rule matches: the code’s own link\)\.$/,
      );
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'smart-rules-tester-1280', { fullPage: false });
    // WCAG 2.2 AA (axe) with the rules and the tester open.
    expect(await audit(page)).toEqual([]);

    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    const code = await codeNamed(page, 'App download');
    expect(code.redirectOptions?.rules).toEqual([
      { label: 'App Store', conditions: [{ kind: 'os', os: ['ios'] }], destination: APP_STORE },
      { conditions: [{ kind: 'os', os: ['android'] }], destination: PLAY_STORE },
    ]);
    expect(code.hasPassword).toBe(false);

    // The printed code, scanned (its short link on the server's own address).
    expect(code.shortUrl).toMatch(new RegExp(`/r/${code.slug}$`));
    const shortUrl = `${app.server.url}/r/${code.slug}`;
    const iphone = await scanWith(userAgents.iphone, shortUrl);
    expect(iphone).toMatchObject({ status: 302, location: APP_STORE, url: APP_STORE });
    expect(iphone.text).toBe(`Stub of ${APP_STORE}`);
    expect(await scanWith(userAgents.android, shortUrl)).toMatchObject({
      status: 302,
      location: PLAY_STORE,
      url: PLAY_STORE,
    });
    expect(await scanWith(userAgents.windows, shortUrl)).toMatchObject({
      status: 302,
      location: CONTENT,
      url: CONTENT,
    });

    // Edit: pause the code with a message; the short link then shows the paused page, even to an iPhone.
    await page.goto(`/edit-qr/${code.id}`);
    const editSection = page.getByRole('region', { name: 'Smart redirect' });
    await expect
      .poll(() => editSection.getByRole('button', { name: /^Rules/ }).textContent())
      .toContain('2 rules');
    await openPart(editSection, /^Schedule and limits/);
    await editSection.getByRole('switch', { name: /^Pause this code/ }).check();
    await editSection.getByLabel('Message shown when inactive').fill('Back after the holidays.');
    await expect
      .poll(() => editSection.getByRole('button', { name: /^Schedule and limits/ }).textContent())
      .toContain('Paused');
    await openPart(editSection, /^Test a scan/);
    await expect
      .poll(() => editSection.getByRole('status', { name: 'Test result' }).textContent())
      .toMatch(/^An iPhone .* sees the paused page with your message\.$/);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    const paused = await codeNamed(page, 'App download');
    expect(paused.redirectOptions).toMatchObject({
      paused: true,
      inactiveMessage: 'Back after the holidays.',
    });
    expect(paused.redirectOptions?.rules).toHaveLength(2);

    const scan = await scanWith(userAgents.iphone, shortUrl);
    expect(scan).toMatchObject({ status: 200, location: undefined, url: shortUrl });
    expect(scan.text).toContain('Back after the holidays.');
    expect(scan.text).toMatch(/paused/i);

    // The owner sees the demand the pause turned away.
    await page.goto(`/qr-details/${code.id}`);
    await expect
      .poll(() => page.locator('[data-refused-scans]').textContent())
      .toContain('1 scan was turned away');
    await context.close();
  }, 120_000);

  it('on a phone: everything stacks without sideways scrolling, and a missing destination is shown where it is', async () => {
    const { context, page } = await newUser(phone);
    await page.goto('/create');
    await page.getByLabel(/^URL/).fill(CONTENT);
    const section = page.getByRole('region', { name: 'Smart redirect' });
    await openPart(section, /^Rules/);
    await section.getByRole('button', { name: 'Add rule' }).click();
    const rule = section.getByRole('group', { name: /^Rule 1/ });
    await tick(rule.getByRole('checkbox', { name: 'iOS' }));
    await rule.getByRole('button', { name: 'Add condition' }).click();
    await rule.getByRole('combobox', { name: 'Condition 2' }).click();
    await page.getByRole('option', { name: 'Days and hours' }).click();
    await openPart(section, /^Test a scan/);
    // The tester names the first problem, and where it is.
    await expect
      .poll(() => section.getByRole('status', { name: 'Test result' }).textContent())
      .toMatch(/^To test a scan, fix this first: Rule 1: Destination is required\.$/);
    await openPart(section, /^Schedule and limits/);
    await openPart(section, /^Password/);
    await section.getByRole('switch', { name: /^Protect with a password/ }).check();
    await openPart(section, /^Tracking/);
    await section.getByRole('switch', { name: /^Add UTM parameters/ }).check();

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'smart-rules-editor-375');
    expect(await audit(page)).toEqual([]);

    // Close the Rules part and create: the designer refuses, opens Rules again and focuses the problem.
    await section.getByRole('button', { name: /^Rules/ }).click();
    await expect
      .poll(() => section.getByRole('button', { name: /^Rules/ }).getAttribute('aria-expanded'))
      .toBe('false');
    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await expect
      .poll(() => section.getByRole('button', { name: /^Rules/ }).getAttribute('aria-expanded'))
      .toBe('true');
    await rule.getByText('Destination is required').waitFor();
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.placeholder))
      .toBe('https://apps.apple.com/app/…');
    // …scrolled into view (below the top bar, above the bottom bar).
    await expect
      .poll(() =>
        page.evaluate(() => {
          const top = document.activeElement?.getBoundingClientRect().top ?? -1;
          return top > 60 && top < window.innerHeight - 100;
        }),
      )
      .toBe(true);
    await section.getByText('Password must be at least 6 characters').waitFor();
    await screenshot(page, 'smart-rules-refused-375', { fullPage: false });
    expect(page.url()).toContain('/create');

    await rule.getByLabel(/^Send to/).fill(APP_STORE);
    await section.getByRole('textbox', { name: 'Password' }).fill('open sesame');
    await openPart(section, /^Test a scan/);
    const result = section.getByRole('status', { name: 'Test result' });
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'smart-rules-tester-375', { fullPage: false });
    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    const code = await codeNamed(page, 'example.com');
    expect(code.hasPassword).toBe(true);
    expect(code.redirectOptions?.rules[0]?.conditions.map((c) => c.kind)).toEqual(['os', 'time']);
    expect(code.redirectOptions?.utm).toMatchObject({ source: 'qr' });

    // On /edit-qr the password is never shown: only that one is set, with Change and Remove.
    await page.goto(`/edit-qr/${code.id}`);
    const editSection = page.getByRole('region', { name: 'Smart redirect' });
    await openPart(editSection, /^Password/);
    await editSection.getByText('A password is set.').waitFor();
    await editSection.getByText('A password is set.').scrollIntoViewIfNeeded();
    await screenshot(page, 'smart-rules-password-set-375', { fullPage: false });
    expect(await editSection.getByRole('button', { name: 'Change' }).isVisible()).toBe(true);
    await editSection.getByRole('button', { name: 'Remove' }).click();
    await editSection.getByText('The password is removed when you save.').waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    expect((await codeNamed(page, 'example.com')).hasPassword).toBe(false);
    await context.close();
  });
});
