// The sign-in screens of company accounts (issue 32) on a server whose SSO_CONFIG names one OpenID Connect
// provider that is not running (its issuer is a closed port), a trusted sign-in proxy, and turns SSO-only
// on, with `admin` as the break-glass admin: /auth offers "Sign in with Acme SSO" and no Register tab,
// folds the password form to the admin's, refuses a normal user's password, and says why a company
// sign-in failed; the proxy's person whose address is an existing account's links it at /auth/link with
// its password; without a pending request that page says it expired; the admin's users table names
// each person's sign-in.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from './a11y';
import { allowConsoleErrors, desktop, newPage, phone, screenshot, withAppServer } from './harness';

const ADMIN_PASSWORD = 'admin-sso-password';
const PROVIDER = 'Acme SSO';
/** The proxy's own sign-out page (answered by the test's route: no such host). */
const PROXY_LOGOUT = 'http://sso.acme.test/logout';
const PASSWORDS_OFF = 'Sign-in with a password is turned off on this server. Use your company account.';

// Written before the server starts (withAppServer starts it before the first test).
const ssoConfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'qr-sso-screens-')), 'sso.json');
fs.writeFileSync(
  ssoConfig,
  JSON.stringify({
    oidc: [
      {
        id: 'acme',
        name: PROVIDER,
        issuer: 'http://127.0.0.1:9/',
        clientId: 'qr-creator',
        clientSecret: 'not-a-real-secret',
      },
    ],
    // The browser's own requests come from 127.0.0.1: a context that sends Remote-User is the proxy's
    // person (the way to a pending link request without a running provider).
    proxy: { trustedAddresses: ['127.0.0.1', '::1'], logoutUrl: PROXY_LOGOUT },
    ssoOnly: true,
    breakGlassAdmin: 'admin',
  }),
);
const app = withAppServer({ ADMIN_PASSWORD, SSO_CONFIG: ssoConfig });

// A second server where company accounts sit beside local passwords: the provider and a directory
// (its name only: nobody signs in through it here).
const mixedConfig = path.join(path.dirname(ssoConfig), 'sso-mixed.json');
fs.writeFileSync(
  mixedConfig,
  JSON.stringify({
    oidc: [{ id: 'acme', name: PROVIDER, issuer: 'http://127.0.0.1:9/', clientId: 'qr-creator' }],
    ldap: {
      name: 'Acme Directory',
      url: 'ldap://127.0.0.1:9',
      bindDn: 'cn=reader,dc=acme,dc=test',
      bindPassword: 'not-a-real-secret',
      searchBase: 'dc=acme,dc=test',
    },
  }),
);
const mixed = withAppServer({ SSO_CONFIG: mixedConfig });

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title }).first();
const ssoButton = (page: Page) => page.getByRole('link', { name: `Sign in with ${PROVIDER}` });
const localAdmin = (page: Page) =>
  page.getByRole('button', { name: 'Sign in with a local administrator account' });

/** The page's width as drawn: wider than the window means a sideways scroll. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** An account the admin makes (no Register tab in SSO-only mode). */
async function makeUser(username: string, password: string) {
  const admin = await newPage(app.browser, app.server.url);
  await signInAsLocalAdmin(admin.page, 'admin', ADMIN_PASSWORD);
  await admin.page.waitForURL((u) => u.pathname === '/');
  const made = await admin.page.request.post('/api/admin/users', {
    data: { username, password, email: `${username}@example.com` },
  });
  expect(made.status(), await made.text()).toBe(201);
  return admin;
}

/** Signs in through the unfolded break-glass form (SSO-only). */
async function signInAsLocalAdmin(page: Page, username: string, password: string) {
  await page.goto('/auth');
  await localAdmin(page).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('/auth with company accounts, SSO-only', () => {
  it('offers the company sign-in first: no Register tab, no forgot-password link, the password form folded', async () => {
    for (const [viewport, width] of [
      [desktop, 1280],
      [phone, 375],
    ] as const) {
      const { context, page } = await newPage(app.browser, app.server.url, viewport);
      await page.goto('/auth');
      await ssoButton(page).waitFor();
      // A plain link to the server's start of the provider's sign-in, coming back to the dashboard.
      expect(await ssoButton(page).getAttribute('href')).toBe('/api/auth/oidc/acme/start?redirect=%2F');
      expect(await page.getByRole('tab', { name: 'Login' }).count()).toBe(1);
      expect(await page.getByRole('tab', { name: 'Register' }).count()).toBe(0);
      expect(await page.getByText('Forgot password?').count()).toBe(0);
      // Folded: no password field until the break-glass button is pressed.
      expect(await page.getByLabel('Username').count()).toBe(0);
      expect(await localAdmin(page).getAttribute('aria-expanded')).toBe('false');
      expect(await pageWidth(page)).toBeLessThanOrEqual(width);
      expect(await audit(page), `/auth folded at ${width}`).toEqual([]);
      await screenshot(page, `sso-auth-folded-${width}`);

      // Keyboard: the button unfolds the form and puts the focus in it.
      await localAdmin(page).focus();
      await page.keyboard.press('Enter');
      await page.getByLabel('Username').waitFor();
      expect(await localAdmin(page).getAttribute('aria-expanded')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe(
        'username',
      );
      // Not the demo account: the form is the break-glass admin's.
      expect(await page.getByLabel('Username').inputValue()).toBe('');
      expect(await page.getByText('Forgot password?').count()).toBe(0);
      expect(await pageWidth(page)).toBeLessThanOrEqual(width);
      expect(await audit(page), `/auth unfolded at ${width}`).toEqual([]);
      await screenshot(page, `sso-auth-unfolded-${width}`);
      await context.close();
    }
  });

  it('signs the break-glass admin in with a password, and the users table names it "Password"', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await signInAsLocalAdmin(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname === '/');
    await toast(page, 'Login successful').getByText('Welcome back, admin').waitFor();

    await page.goto('/admin/users');
    const adminRow = page.getByRole('row').filter({ has: page.getByText('admin', { exact: true }) });
    await adminRow.getByText('Password', { exact: true }).waitFor();
    expect(await adminRow.getByText('Signs in with').count()).toBe(1);
    await screenshot(page, 'sso-admin-users-1280', { fullPage: false });
    await page.setViewportSize(phone);
    await adminRow.getByText('Password', { exact: true }).waitFor();
    await screenshot(page, 'sso-admin-users-375', { fullPage: false });
    await context.close();
  });

  it("refuses a normal user's password: company accounts only", async () => {
    const admin = await makeUser('grace', 'grace-password');
    await admin.context.close();

    const { context, page } = await newPage(app.browser, app.server.url);
    allowConsoleErrors(page, /status of 403 .*auth\.login/); // the refusal this test provokes
    await signInAsLocalAdmin(page, 'grace', 'grace-password');
    await toast(page, 'Login failed').getByText(PASSWORDS_OFF).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    await context.close();
  });

  it('shows why a company sign-in failed in a red alert, and drops it from the address', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    const message = 'The company sign-in is not answering. Try again in a minute.';
    await page.goto(`/auth?sso_error=${encodeURIComponent(message)}`);
    const alert = page.getByRole('alert').filter({ hasText: message });
    await alert.waitFor();
    await page.waitForURL((u) => !u.searchParams.has('sso_error'));
    await screenshot(page, 'sso-auth-error-1280');
    // Dismissed by its close button.
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
    await context.close();
  });

  it('comes back from the provider that is not running with its error on the login card', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await page.goto('/auth');
    await ssoButton(page).click();
    // The server could not reach the provider: back to /auth, which says so and forgets the parameter.
    await page.waitForURL((u) => u.pathname === '/auth' && !u.searchParams.has('sso_error'));
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).not.toBe('');
    await context.close();
  });

  it('asks for the two-factor code when the company sign-in came back asking for it', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    await page.goto('/auth?sso=two-factor');
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    await page.waitForURL((u) => !u.searchParams.has('sso'));
    await screenshot(page, 'sso-auth-two-factor-375');
    // Back: the sign-in choices again.
    await page.getByRole('button', { name: 'Back' }).click();
    await ssoButton(page).waitFor();
    await context.close();
  });
});

describe('/auth with company accounts beside passwords', () => {
  it('offers the provider, "or", then the password form with its directory named, Register and the forgot-password link', async () => {
    for (const [viewport, width] of [
      [desktop, 1280],
      [phone, 375],
    ] as const) {
      const { context, page } = await newPage(mixed.browser, mixed.server.url, viewport);
      await page.goto('/auth');
      await ssoButton(page).waitFor();
      await page.getByText('or', { exact: true }).waitFor();
      expect(await page.getByRole('tab', { name: 'Register' }).count()).toBe(1);
      expect(await page.getByText('Forgot password?').count()).toBe(1);
      await page.getByText('Use your Acme Directory account').waitFor();
      expect(await page.getByLabel('Username').getAttribute('aria-describedby')).toBeTruthy();
      // The button comes before the form in the reading (and tabbing) order.
      const order = await page.evaluate(() => {
        const link = document.querySelector('a[href^="/api/auth/oidc/"]');
        const input = document.querySelector('input[autocomplete="username"]');
        return link && input ? link.compareDocumentPosition(input) : 0;
      });
      expect(order & 4).toBe(4); // Node.DOCUMENT_POSITION_FOLLOWING
      expect(await pageWidth(page)).toBeLessThanOrEqual(width);
      expect(await audit(page), `/auth mixed at ${width}`).toEqual([]);
      await screenshot(page, `sso-auth-mixed-${width}`);
      await context.close();
    }
  });
});

describe('/auth/link', () => {
  it("links the proxy's person to the existing account of their address with its password", async () => {
    const admin = await makeUser('linda', 'linda-password');
    // Once at each width, under another proxy name each time: each is a new company identity to link.
    for (const viewport of [desktop, phone]) {
      const width = viewport.width;
      const context = await app.browser.newContext({
        baseURL: app.server.url,
        viewport,
        colorScheme: 'light',
        extraHTTPHeaders: { 'Remote-User': `linda.corp${width}`, 'Remote-Email': 'linda@example.com' },
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      allowConsoleErrors(page, /status of 401 .*auth\.ssoLinkComplete/); // the wrong password below
      // Not signed in yet: the app's sign-in page sees the pending request and leads to the link page.
      await page.goto('/');
      await page.waitForURL((u) => u.pathname === '/auth/link');
      await page.getByRole('heading', { name: 'Link your company account' }).waitFor();
      await page
        .getByText(
          'An account with the address linda@example.com already exists (linda). Enter its password once to link it to your Sign-in proxy sign-in.',
        )
        .waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(width);
      expect(await audit(page), `/auth/link at ${width}`).toEqual([]);
      await screenshot(page, `sso-link-${width}`);

      // Cancel leads to /auth, and stays there.
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL((u) => u.pathname === '/auth');
      await ssoButton(page).waitFor();
      // A new visit of /auth while the request lasts leads back to it.
      await page.goto('/auth');
      await page.waitForURL((u) => u.pathname === '/auth/link');

      const password = page.getByLabel(/^Password/);
      await password.fill('not-her-password');
      await password.press('Enter');
      await toast(page, 'Link failed').getByText('Wrong password for the existing account.').waitFor();
      expect(await password.inputValue()).toBe('');

      await password.fill('linda-password');
      await page.getByRole('button', { name: 'Link account' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await toast(page, 'Login successful').getByText('Welcome back, linda').waitFor();

      // Logging out signs out of the proxy too: its sign-out page, not /auth (where it would sign the
      // person straight back in).
      await context.route(`${new URL(PROXY_LOGOUT).origin}/**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>Acme</title><p>Signed out of Acme</p>' }),
      );
      await page.getByRole('button', { name: 'Account menu for linda' }).click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await page.waitForURL(PROXY_LOGOUT);
      await page.getByText('Signed out of Acme').waitFor();
      await context.close();
    }

    await admin.page.goto('/admin/users');
    const row = admin.page.getByRole('row').filter({ has: admin.page.getByText('linda', { exact: true }) });
    await row.getByText('Sign-in proxy', { exact: true }).waitFor();
    await row.getByText('Password', { exact: true }).waitFor();
    await admin.context.close();
  });

  it('without a pending link request says it expired, and leads back to sign-in', async () => {
    for (const [viewport, width] of [
      [desktop, 1280],
      [phone, 375],
    ] as const) {
      const { context, page } = await newPage(app.browser, app.server.url, viewport);
      await page.goto('/auth/link');
      await page.getByRole('heading', { name: 'Link your company account' }).waitFor();
      await page
        .getByRole('alert')
        .getByText('This link request has expired. Sign in with your company account again.')
        .waitFor();
      expect(await audit(page), `/auth/link expired at ${width}`).toEqual([]);
      await screenshot(page, `sso-link-expired-${width}`);
      await page.getByRole('link', { name: 'Back to sign-in' }).click();
      await page.waitForURL((u) => u.pathname === '/auth');
      await ssoButton(page).waitFor();
      await context.close();
    }
  });

  it('sends a signed-in user to the app', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await signInAsLocalAdmin(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/auth/link');
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });
});
