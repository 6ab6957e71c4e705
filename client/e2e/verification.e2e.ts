// Issue 29: a new user finishes verification from the app (items 2 and 9), never lands in the shared demo
// by pressing Enter (item 7), and goes from the register form straight into the app (item 13).
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  allowConsoleErrors,
  desktop,
  mailLinks,
  newPage,
  phone,
  screenshot,
  waitForMailLink,
  withAppServer,
} from './harness';
import { audit } from './a11y';

const app = withAppServer();
const PASSWORD = 'secret123';
const VERIFY_LINK = /\/verify-email#token=[\w%.~-]+/;

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title });

const focused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** From now on, records whether the blank full-page spinner (FullPageLoader) is ever drawn. */
async function watchForBlankSpinner(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { sawBlankSpinner: boolean };
    w.sawBlankSpinner = false;
    const check = () => {
      if (document.querySelector('[role="status"][aria-label="Loading"]')) w.sawBlankSpinner = true;
    };
    new MutationObserver(check).observe(document.body, { childList: true, subtree: true });
  });
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL((u) => u.pathname === '/auth');
}

let serial = 0;
const uniqueName = (prefix: string) => `${prefix}${(serial += 1)}${Date.now() % 100000}`;

describe('a new user', () => {
  it('registers straight into the app, sends a verification link from Profile and follows it', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, desktop);
    const username = uniqueName('verify');
    const email = `${username}@example.com`;
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Full Name').fill('Vera Fication');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel(/^Password/).fill(PASSWORD);

    // The app's code arrives slowly (a slow network): the register button keeps spinning meanwhile, and
    // the page then turns into the app shell, never into a blank full-page spinner.
    await watchForBlankSpinner(page);
    await page.route(/\.js(\?.*)?$/, async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForTimeout(400);
    await screenshot(page, 'register-transition-1280', { fullPage: false });
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await toast(page, 'Registration successful').waitFor();
    await screenshot(page, 'register-arrived-1280', { fullPage: false });
    expect(
      await page.evaluate(() => (window as unknown as { sawBlankSpinner: boolean }).sawBlankSpinner),
    ).toBe(false);
    await page.unroute(/\.js(\?.*)?$/);

    // Sign-up mailed a link already (to the outbox: this server has no SMTP).
    const signUpLink = await waitForMailLink(app.server.dataDir, VERIFY_LINK);
    expect(signUpLink).toMatch(VERIFY_LINK);

    // Profile: Unverified, and a way to act beside it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await expect.poll(() => page.getByText('Unverified', { exact: true }).count()).toBe(1);
    const send = page.getByRole('button', { name: 'Send verification link' });
    const before = await mailLinks(app.server.dataDir, VERIFY_LINK);
    await send.click();
    await toast(page, 'Verification link sent').getByText(`Verification link sent to ${email}`).waitFor();
    await page.getByText(`Sent to ${email}: open the link in that mail to verify your address.`).waitFor();
    await screenshot(page, 'profile-verification-sent-1280');
    expect(await audit(page)).toEqual([]);
    const link = await waitForMailLink(app.server.dataDir, VERIFY_LINK, before);

    // Pressing again at once is refused with when to retry (one a minute).
    allowConsoleErrors(page, /status of 429 .*account\.sendVerificationLink/);
    await send.click();
    await toast(page, 'Failed to resend email')
      .getByText(/less than a minute ago/)
      .waitFor();

    // The link from the outbox verifies the address; Profile then says so, without the button.
    await page.goto(link);
    await page.getByText('Email verified successfully!').first().waitFor();
    await page.goto('/profile');
    await expect.poll(() => page.getByText('Verified', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Send verification link' }).count()).toBe(0);
    expect(await page.getByText('Unverified', { exact: true }).count()).toBe(0);

    // Settings → API tokens links the API reference, in a new tab.
    await page.goto('/settings');
    const docs = page.getByRole('link', { name: 'Read the API documentation (opens in a new tab)' });
    expect(await docs.getAttribute('href')).toBe('/api/docs');
    expect(await docs.getAttribute('target')).toBe('_blank');
    const [docsTab] = await Promise.all([context.waitForEvent('page'), docs.click()]);
    await docsTab.waitForLoadState('domcontentloaded');
    expect(new URL(docsTab.url()).pathname).toBe('/api/docs');
    await docsTab.close();
    await docs.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-api-docs-link-1280', { fullPage: false });

    // Logged out, this browser offers the user's own name, not the demo account; the password is left to type.
    await logOut(page);
    expect(await page.getByLabel('Username').inputValue()).toBe(username);
    expect(await page.getByLabel(/^Password/).inputValue()).toBe('');
    await expect.poll(() => focused(page.getByLabel(/^Password/))).toBe(true);
    await screenshot(page, 'auth-returning-user-1280');
    await context.close();
  });

  it('on a phone: the profile prompt fits, and a returning user never lands in the demo by pressing Enter', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    // A browser that never signed in here: the demo account, ready to try.
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.getByLabel('Username').inputValue()).toBe('demo');
    expect(await page.getByLabel(/^Password/).inputValue()).toBe('demo123');

    const username = uniqueName('phone');
    const res = await page.request.post('/api/register', {
      data: { username, password: PASSWORD, name: 'Phone User', email: `${username}@example.com` },
    });
    expect(res.status()).toBe(201);
    await page.request.post('/api/logout');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Send verification link' }).waitFor();
    await screenshot(page, 'profile-unverified-375');
    expect(await audit(page)).toEqual([]);
    const prompt = page.getByTestId('verification-prompt');
    const box = (await prompt.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);

    // Logged out: the user's name, no password. Enter asks for the password instead of signing anyone in.
    await logOut(page);
    expect(await page.getByLabel('Username').inputValue()).toBe(username);
    expect(await page.getByLabel(/^Password/).inputValue()).toBe('');
    await page.keyboard.press('Enter');
    await page.getByText('Password is required').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    await screenshot(page, 'auth-returning-user-375');

    // Trying the demo afterwards does not make it the remembered account.
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel(/^Password/).fill('demo123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await logOut(page);
    expect(await page.getByLabel('Username').inputValue()).toBe(username);
    expect(await page.getByLabel(/^Password/).inputValue()).toBe('');
    await context.close();
  });
});
