// After an edit the app never shows the code as it was: not on the details page the user goes back to
// with the browser's Back button, not in My QR Codes, not even for a moment while fresh data loads. The
// client keeps query results until something changes them, so this holds only if a save refreshes every
// cached view of the code.
import { request, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { desktop, newPage, signIn, withAppServer } from './harness';

const app = withAppServer();

const OLD_NAME = 'Spring menu';
const NEW_NAME = 'Summer menu';

/** A new account made through the API; the test then signs in through the form like anyone would. */
async function registerFreshUser(): Promise<{ username: string; password: string }> {
  const username = `fresh${Date.now() % 1_000_000}`;
  const password = 'fresh-pass-1';
  const api = await request.newContext({ baseURL: app.server.url });
  try {
    const res = await api.post('/api/register', {
      data: { username, password, name: 'Fresh User', email: `${username}@example.com` },
    });
    expect(res.status()).toBe(201);
  } finally {
    await api.dispose();
  }
  return { username, password };
}

/**
 * From now on, notes every time the page shows `name` as a code's title: the details page's heading or
 * a card of My QR Codes. The page is a single-page app, so the watch lasts across in-app navigation and
 * the browser's Back button.
 */
async function watchForName(page: Page, name: string) {
  await page.evaluate((stale) => {
    const seen: string[] = [];
    (window as unknown as { staleNameSeen: string[] }).staleNameSeen = seen;
    const check = () => {
      for (const el of document.querySelectorAll('h2, article[aria-label]')) {
        const text = el.tagName === 'ARTICLE' ? el.getAttribute('aria-label') : el.textContent;
        if (text?.trim() === stale) seen.push(`${location.pathname}: <${el.tagName.toLowerCase()}>`);
      }
    };
    new MutationObserver(check).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    check();
  }, name);
}

const staleNameSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { staleNameSeen: string[] }).staleNameSeen);

describe('an edited code', () => {
  it('shows its new name on the details page the user goes back to, and in My QR Codes', async () => {
    const { username, password } = await registerFreshUser();
    const { context, page } = await newPage(app.browser, app.server.url, desktop);
    await signIn(page, username, password);

    // A dynamic URL code, made through the designer.
    await page.getByRole('link', { name: 'Create New QR Code' }).first().click();
    await page.waitForURL((u) => u.pathname === '/create');
    // The designer sets its default name as it opens: typed before, the name was replaced (seen on CI).
    const nameInput = page.getByLabel(/^Name/);
    await expect.poll(() => nameInput.inputValue()).toBe('URL QR Code');
    await nameInput.fill(OLD_NAME);
    const dynamic = page.getByLabel('Dynamic QR code');
    if (!(await dynamic.isChecked())) await dynamic.click({ force: true });
    await page.getByLabel(/^URL/).fill('https://example.com/spring');
    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await page.getByText('QR Code Created').waitFor();
    const codes = (await (await page.request.get('/api/qr-codes')).json()) as QrCode[];
    expect(codes.map((c) => [c.name, c.isDynamic])).toEqual([[OLD_NAME, true]]);
    const detailsPath = `/qr-details/${codes[0]!.id}`;

    // Its details, then Edit.
    await page.getByRole('article', { name: OLD_NAME }).getByRole('link', { name: 'Stats' }).click();
    await page.waitForURL((u) => u.pathname === detailsPath);
    await page.getByRole('heading', { name: OLD_NAME, level: 2 }).waitFor();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/edit-qr/'));
    const name = page.getByLabel(/^Name/);
    await expect.poll(() => name.inputValue()).toBe(OLD_NAME);

    // Rename and save: the app goes on to My QR Codes.
    await name.fill(NEW_NAME);
    await watchForName(page, OLD_NAME);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await page.getByText('QR Code Updated').waitFor();
    await page.getByRole('article', { name: NEW_NAME }).waitFor();
    expect(await page.getByRole('article', { name: OLD_NAME, exact: true }).count()).toBe(0);

    // Back, as far as the details page: it shows the new name.
    for (let i = 0; i < 3 && new URL(page.url()).pathname !== detailsPath; i++) await page.goBack();
    expect(new URL(page.url()).pathname).toBe(detailsPath);
    await page.getByRole('heading', { name: NEW_NAME, level: 2 }).waitFor();

    // And its link to My QR Codes leads to the new name too.
    await page.getByRole('link', { name: 'My QR Codes' }).first().click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await page.getByRole('article', { name: NEW_NAME }).waitFor();

    // The old name never showed, not even while fresh data loaded.
    expect(await staleNameSeen(page)).toEqual([]);
    await context.close();
  });
});
