// The password page of a protected short link, as a visitor meets it in Chromium: the form, a wrong
// password, the right one, and the destination (answered by a stub page: the network is closed). The
// form's scan and the served one are counted (one each). Screenshots at 1280 and 375 px. The short link's other new pages (inactive,
// too many tries) pass the same WCAG audit as the landing pages.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { inactiveReasons } from '../../src/qr/smart-redirect';
import {
  renderInactivePage,
  renderPasswordPage,
  renderPasswordThrottledPage,
} from '../../server/features/redirect/landing/smart-pages';
import { audit, Findings } from './a11y';
import { desktop, phone, screenshot, withAppServer } from './harness';

const app = withAppServer();

const DESTINATION = 'https://example.com/members';
const PASSWORD = 'correct horse';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Version/17.5 Mobile/15E148 Safari/604.1';

let users = 0;

/** A new owner (API) with a dynamic link protected by PASSWORD; answers the code and the owner's page. */
async function protectedCode(): Promise<{ owner: BrowserContext; ownerPage: Page; code: QrCode }> {
  const owner = await app.browser.newContext({ baseURL: app.server.url });
  const ownerPage = await owner.newPage();
  users += 1;
  const username = `locked${users}${Date.now() % 100000}`;
  const registered = await ownerPage.request.post('/api/register', {
    data: { username, password: 'secret123', name: 'Owner', email: `${username}@example.com` },
  });
  expect(registered.status()).toBe(201);
  const res = await ownerPage.request.post('/api/qr-codes', {
    data: { name: 'Members area', type: 'url', content: DESTINATION, isDynamic: true, password: PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(201);
  const code = (await res.json()) as QrCode;
  expect(code.hasPassword).toBe(true);
  return { owner, ownerPage, code };
}

const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A visitor's browser. Destinations on the closed internet are answered by a stub page naming their
 * address; Playwright cannot route the request a redirect leads to, so the short link's GETs are fetched
 * (with this browser's cookies) and a 302 becomes a page that moves on at once. Posts go to the server as
 * they are.
 */
async function visitor(shortUrl: string, viewport: { width: number; height: number }) {
  const context = await app.browser.newContext({ userAgent: IPHONE, viewport, colorScheme: 'light' });
  await context.route(/^https:\/\/example\.com\//, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><title>Members</title><link rel="icon" href="data:,"><p>Stub of ${attr(route.request().url())}</p>`,
    }),
  );
  const answers: { method: string; status: number; location: string | undefined }[] = [];
  await context.route(`${shortUrl}*`, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch({ maxRedirects: 0 });
    const location = response.headers()['location'];
    answers.push({ method: 'GET', status: response.status(), location });
    if (response.status() === 302 && location) {
      return route.fulfill({
        status: 200,
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><link rel="icon" href="data:,"><meta http-equiv="refresh" content="0;url=${attr(location)}">`,
      });
    }
    return route.fulfill({ response });
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page, answers };
}

async function scansOf(ownerPage: Page, id: number): Promise<number> {
  const res = await ownerPage.request.get(`/api/analytics/qr-codes/${id}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { totalScans: number }).totalScans;
}

describe('a password-protected short link', () => {
  for (const [width, viewport] of [
    ['1280', desktop],
    ['375', phone],
  ] as const) {
    it(`asks for the password, refuses a wrong one and opens the destination with the right one (${width} px)`, async () => {
      const { owner, ownerPage, code } = await protectedCode();
      const { context, page, answers } = await visitor(code.shortUrl!, viewport);

      await page.goto(code.shortUrl!);
      await page.getByRole('heading', { name: 'This QR code is protected' }).waitFor();
      const password = page.getByLabel('Password');
      expect(await password.getAttribute('type')).toBe('password');
      // The field is focused: the visitor types at once.
      expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);
      await screenshot(page, `smart-redirect-password-form-${width}`);

      await password.fill('not it');
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').innerText()).toBe('Wrong password. Try again.');
      expect(page.url()).toBe(code.shortUrl);
      await screenshot(page, `smart-redirect-password-wrong-${width}`);
      // The scan that got the form counts (as a password form); the posts do not.
      expect(await scansOf(ownerPage, code.id)).toBe(1);

      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Open' }).click();
      await page.waitForURL(DESTINATION);
      expect(await page.locator('body').innerText()).toBe(`Stub of ${DESTINATION}`);
      // The form (the posts are not routed), then the short link with the cookie: its 302.
      expect(answers.map((a) => [a.status, a.location])).toEqual([
        [200, undefined],
        [302, DESTINATION],
      ]);
      const cookies = await context.cookies(code.shortUrl!);
      expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).toEqual([
        [`qr_pass_${code.id}`, true, 'Lax', `/r/${code.slug}`],
      ]);
      // The form's scan, then the served one.
      expect(await scansOf(ownerPage, code.id)).toBe(2);

      // Back to the short link later: the cookie opens it without the form.
      await page.goto(code.shortUrl!);
      await page.waitForURL(DESTINATION);
      expect(await scansOf(ownerPage, code.id)).toBe(3);
      await context.close();
      await owner.close();
    });
  }

  it('and the inactive and too-many-tries pages pass WCAG 2.2 AA in light and dark at both widths', async () => {
    const findings = new Findings();
    const page = await app.browser.newPage({ viewport: desktop });
    const documents: [string, string][] = [
      ['password form', renderPasswordPage({ action: '/r/abc123' })],
      ['wrong password', renderPasswordPage({ action: '/r/abc123', error: 'wrong' })],
      ['too many tries', renderPasswordThrottledPage(600)],
      ...inactiveReasons.map((reason): [string, string] => [reason, renderInactivePage(reason, null)]),
      ['owner message', renderInactivePage('paused', 'Back on Monday.\nThank you!')],
    ];
    for (const [label, html] of documents) {
      await page.setContent(html);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      for (const viewport of [desktop, phone]) {
        await page.setViewportSize(viewport);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          findings.add(`${label} ${scheme} ${viewport.width}px`, await audit(page));
          if (label === 'wrong password' || label === 'limit')
            await screenshot(page, `smart-redirect-${label.replace(' ', '-')}-${scheme}-${viewport.width}`, {
              fullPage: false,
            });
        }
      }
    }
    await page.close();
    expect(findings.count, findings.report()).toBe(0);
  });
});
