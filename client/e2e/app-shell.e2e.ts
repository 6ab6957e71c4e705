import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  allowConsoleErrors,
  mailLinks,
  waitForMailLink,
  desktop,
  newPage,
  phone,
  screenshot,
  signIn,
  withAppServer,
} from './harness';

const ADMIN_PASSWORD = 'admin-e2e-password';
// With the access log on: the password-reset test searches it for the link's token.
const app = withAppServer({ ADMIN_PASSWORD, ACCESS_LOG: 'true' });
const RESET_LINK = /\/reset-password#token=[\w-]+/;
const VERIFY_LINK = /\/verify-email#token=[\w-]+/;

describe('signed out', () => {
  it('sends / to /auth and shows the login form prefilled with the demo account', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await page.goto('/');
    await page.waitForURL((u) => u.pathname === '/auth');
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    await page.getByRole('tab', { name: 'Register' }).waitFor();
    expect(await page.getByLabel('Username').inputValue()).toBe('demo');
    expect(await page.getByLabel(/^Password/).inputValue()).toBe('demo123');
    // The marketing panel is shown on large screens.
    await page.getByText('QR codes that keep working for you').waitFor();
    await screenshot(page, 'auth-1280');

    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    await page.getByLabel('Email').fill('demo@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText("If an account exists with that email, we've sent a password reset link.").waitFor();
    await page.getByRole('button', { name: 'Back to Login' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await context.close();
  });

  it('shows the login form without the marketing panel at 375 px', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.getByText('QR codes that keep working for you').isVisible()).toBe(false);
    await screenshot(page, 'auth-375');
    await context.close();
  });

  it('follows the system colour scheme (dark here)', async () => {
    const context = await app.browser.newContext({
      baseURL: app.server.url,
      viewport: desktop,
      colorScheme: 'dark',
    });
    const page = await context.newPage();
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await screenshot(page, 'auth-dark-1280');
    await context.close();
  });

  it('shows the validation messages of the forms', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await page.goto('/auth');
    await page.getByLabel('Username').fill('ab');
    await page.getByLabel(/^Password/).fill('');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Username must be at least 3 characters').waitFor();
    await page.getByText('Password is required').waitFor();

    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Name must be at least 2 characters').waitFor();
    await page.getByText('Invalid email address').waitFor();
    await page.getByText('Password must be at least 6 characters').waitFor();
    await context.close();
  });

  it('says Login failed with the server message on a wrong password', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    allowConsoleErrors(page, /status of 401 \(Unauthorized\).*auth\.login/); // the refusal this test provokes
    await page.goto('/auth');
    await page.getByLabel('Username').fill('nobody-here');
    await page.getByLabel(/^Password/).fill('wrong-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Login failed').waitFor();
    await page.getByText('Invalid username or password').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    await context.close();
  });

  it('shows Page Not Found for an unknown path', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await context.close();
  });
});

describe('the demo user', () => {
  it('signs in with the prefilled account and sees the shell', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, desktop);
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('Login successful').waitFor();
    await page.getByText('Welcome back, demo').waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of [
      'Dashboard',
      'Create QR Code',
      'My QR Codes',
      'Analytics',
      'Profile',
      'Settings',
      'Upgrade to Pro',
    ]) {
      await nav.getByRole('link', { name: label, exact: true }).waitFor();
    }
    expect(await nav.getByRole('link', { name: 'Admin Dashboard' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Dashboard', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    // The header shows the route's title; the page does not say it a second time on screen.
    expect(await page.getByRole('banner').getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    await page.getByRole('main').getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    expect(
      await page
        .getByRole('heading', { name: 'Dashboard', exact: true })
        .evaluateAll((found) => found.filter((h) => h.getBoundingClientRect().width > 1).length),
    ).toBe(1);
    await page.getByRole('banner').getByRole('link', { name: 'Upgrade to Pro' }).waitFor();
    await screenshot(page, 'home-1280');

    // The tab title follows the route; the sidebar highlight follows it too.
    await nav.getByRole('link', { name: 'My QR Codes' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await expect.poll(() => page.title()).toBe('My QR Codes · QR Creator');
    expect(await nav.getByRole('link', { name: 'My QR Codes' }).getAttribute('aria-current')).toBe('page');
    await page.goto('/edit-qr/1');
    await expect.poll(() => page.title()).toBe('Edit QR Code · QR Creator');
    await page.goto('/scan-demo?id=1');
    await expect.poll(() => page.title()).toBe('QR Code Scanner · QR Creator');

    // Avatar initials come from the name "Demo User".
    expect(await page.getByRole('button', { name: /Account menu/ }).textContent()).toContain('DU');
    await context.close();
  });

  it('opens Help with its four tabs', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await signIn(page, 'demo', 'demo123');
    await page.getByRole('button', { name: 'Help' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    for (const tab of ['Getting Started', 'QR Types', 'Features', 'FAQ']) {
      await dialog.getByRole('tab', { name: tab }).waitFor();
    }
    await dialog.getByRole('tab', { name: 'FAQ' }).click();
    const question = dialog.getByRole('button', { name: 'How big should I print my QR code?' });
    await question.click();
    await dialog
      .getByText(/1\s?cm/)
      .first()
      .waitFor();
    expect(await dialog.getByRole('button', { name: /\?$/ }).count()).toBe(8);
    await screenshot(page, 'help-1280');
    await dialog.getByRole('button', { name: 'Close Help' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('is sent from an admin page back to /', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await signIn(page, 'demo', 'demo123');
    await page.goto('/admin/users');
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('main').getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await context.close();
  });

  it('uses the menu button, slide-in sidebar and avatar menu on a narrow screen', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    await signIn(page, 'demo', 'demo123');
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('banner').getByRole('button', { name: 'Help' }).isVisible()).toBe(false);
    await screenshot(page, 'home-375');

    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawerNav = page.getByRole('navigation', { name: 'Main' });
    await drawerNav.waitFor();
    await screenshot(page, 'menu-375');
    // Tapping the dark overlay closes the sidebar.
    await page.mouse.click(340, 400);
    await drawerNav.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Open menu' }).click();
    await drawerNav.getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL((u) => u.pathname === '/analytics');
    await drawerNav.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Upgrade to Pro' }).waitFor();
    await page.getByRole('menuitem', { name: 'Help' }).click();
    await page.getByRole('dialog').getByRole('tab', { name: 'QR Types' }).waitFor();
    await context.close();
  });

  it('logs out, and the old session no longer opens the app', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await signIn(page, 'demo', 'demo123');
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL((u) => u.pathname === '/auth');
    await page.getByText('You have been logged out successfully.').waitFor();
    await page.goto('/');
    await page.waitForURL((u) => u.pathname === '/auth');
    await context.close();
  });
});

describe('an admin', () => {
  it('sees the Admin group, no Upgrade entries, and the admin pages', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Admin Dashboard' }).waitFor();
    expect(await page.getByRole('link', { name: 'Upgrade to Pro' }).count()).toBe(0);
    await nav.getByRole('link', { name: 'User Management' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/users');
    await expect.poll(() => page.title()).toBe('User Management · QR Creator');
    // Only the most specific entry is lit, not Admin Dashboard too.
    expect(await nav.getByRole('link', { name: 'User Management' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await nav.getByRole('link', { name: 'Admin Dashboard' }).getAttribute('aria-current')).toBeNull();
    await page.goto('/auth');
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });
});

describe('a new user', () => {
  it('registers and lands on the dashboard', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Full Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Username').fill('ada');
    await page.getByLabel(/^Password/).fill('analytical');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('Welcome, ada').waitFor();
    expect(await page.getByRole('button', { name: /Account menu/ }).textContent()).toContain('AL');
    await context.close();
  });
});

describe('plan prompts', () => {
  it('offer the next plan up: Pro on Free, Premium on Pro, none on Premium, with the plan shown', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    const registered = await page.request.post('/api/register', {
      data: { username: 'planner', password: 'secret123', name: 'Plan Ner', email: 'planner@example.com' },
    });
    expect(registered.status()).toBe(201);
    const { id } = (await registered.json()) as { id: number };
    const admin = await newPage(app.browser, app.server.url);
    const login = await admin.page.request.post('/api/login', {
      data: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(login.status()).toBe(200);
    const upgrade = async (tier: 'pro' | 'premium') => {
      const res = await admin.page.request.post(`/api/admin/users/${id}/subscription/upgrade`, {
        data: { tier, duration: 30 },
      });
      expect(res.status(), await res.text()).toBe(200);
    };
    const header = page.getByRole('banner');
    const nav = page.getByRole('navigation', { name: 'Main' });

    await page.goto('/');
    await header.getByRole('link', { name: 'Upgrade to Pro' }).waitFor();
    await nav.getByRole('link', { name: 'Upgrade to Pro' }).waitFor();

    await upgrade('pro');
    await page.reload();
    await header.getByRole('link', { name: 'Upgrade to Premium' }).waitFor();
    await nav.getByRole('link', { name: 'Upgrade to Premium' }).waitFor();
    await nav.getByText('Pro plan').waitFor();
    expect(await page.getByRole('link', { name: 'Upgrade to Pro' }).count()).toBe(0);
    await screenshot(page, 'plan-prompt-pro-1280');

    // On a phone the header's prompt moves into the avatar menu.
    await page.setViewportSize(phone);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Upgrade to Premium' }).waitFor();
    await screenshot(page, 'plan-prompt-pro-375');
    await page.keyboard.press('Escape');
    await page.setViewportSize(desktop);

    await upgrade('premium');
    await page.reload();
    await nav.getByText('Premium plan').waitFor();
    expect(await page.getByRole('link', { name: /^Upgrade to/ }).count()).toBe(0);
    await context.close();
    await admin.context.close();
  });
});

/** The token of a mailed link, from its fragment (`#token=…`, as links are mailed now) or its query. */
function tokenOf(link: string): string {
  const url = new URL(link, app.server.url);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? url.searchParams.get('token');
  expect(token).toMatch(/^[\w-]+$/);
  return token!;
}

/** Waits until the address bar holds only the page's path: no token in its query or fragment. */
async function expectAddressCleaned(page: Page, pathname: string) {
  await page.waitForURL((u) => u.pathname === pathname && u.search === '' && u.hash === '');
  expect(await page.evaluate(() => window.location.href)).toBe(`${app.server.url}${pathname}`);
}

describe('password reset', () => {
  it('refuses a link whose token is not valid, in the fragment or the query, and clears the address', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    allowConsoleErrors(page, /status of 400 \(Bad Request\).*auth\.verifyResetToken/); // the refusal this test provokes
    for (const link of ['/reset-password#token=not-a-real-token', '/reset-password?token=not-a-real-token']) {
      await page.goto('/auth');
      await page.goto(link);
      await page.getByText('This password reset link is not valid').waitFor();
      await page.getByText('expired (links are valid for 1 hour)').waitFor();
      await expectAddressCleaned(page, '/reset-password');
    }
    await context.close();
  });

  it('mails a link with the token in its fragment whose page sets a new password, then sends the user to log in', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    const before = await mailLinks(app.server.dataDir, RESET_LINK);
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill('demo@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText("If an account exists with that email, we've sent a password reset link.").waitFor();
    const link = await waitForMailLink(app.server.dataDir, RESET_LINK, before);
    const token = tokenOf(link);

    const entries = await page.evaluate(() => window.history.length);
    const opened = await page.goto(link);
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
    // The token leaves the address bar as soon as the page has it (checked with a POST, not a query string),
    // replaced rather than pushed: no entry of the history keeps it either.
    await page.getByLabel(/^New password/).waitFor();
    await expectAddressCleaned(page, '/reset-password');
    expect(await page.evaluate(() => window.history.length)).toBe(entries + 1);
    await page.getByLabel(/^New password/).fill('new-demo-pass');
    await page.getByLabel(/^Confirm password/).fill('different');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText("Passwords don't match").waitFor();
    await page.getByLabel(/^Confirm password/).fill('new-demo-pass');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page
      .getByText(/Your password has been reset/)
      .first()
      .waitFor();
    await screenshot(page, 'reset-complete-1280');
    // After 5 seconds: /login, which is the login page at /auth.
    await page.waitForURL((u) => u.pathname === '/auth', { timeout: 10_000 });
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel(/^Password/).fill('new-demo-pass');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    // Neither the token nor the mail's recipient is in the server's log (its access log is on).
    const log = app.server.logs.join('\n');
    expect(log).toContain('"route":"/reset-password"');
    expect(log).not.toContain(token);
    expect(log).not.toContain('demo@example.com');
    await context.close();
  });

  it('still takes a link mailed before, with the token in its query, and a new link opened over the page (375 px)', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    allowConsoleErrors(page, /status of 400 \(Bad Request\).*auth\.verifyResetToken/); // the spent link below
    // All spent: a reset spends every link of the account.
    const before = await mailLinks(app.server.dataDir, RESET_LINK);
    expect(before.length).toBeGreaterThan(0);
    // At most 3 reset mails an address an hour: this is demo's third, so one link serves both forms.
    const res = await page.request.post('/api/password-reset/request', {
      data: { email: 'demo@example.com' },
    });
    expect(res.status(), await res.text()).toBe(200);
    const token = tokenOf(await waitForMailLink(app.server.dataDir, RESET_LINK, before));

    // As a link mailed before would carry it: /reset-password?token=… (checking it does not spend it).
    await page.goto(`/reset-password?token=${token}`);
    await page.getByLabel(/^New password/).waitFor();
    await expectAddressCleaned(page, '/reset-password');
    await screenshot(page, 'reset-password-375');

    // A spent link shows the refusal; a good one opened in this very tab then (only the fragment differs,
    // so the browser does not load the page again) is read all the same.
    await page.goto(`/reset-password#token=${tokenOf(before[0]!)}`);
    await page.getByText('This password reset link is not valid').waitFor();
    await expectAddressCleaned(page, '/reset-password');
    await page.goto(`/reset-password#token=${token}`);
    await page.getByLabel(/^New password/).waitFor();
    await expectAddressCleaned(page, '/reset-password');
    await page.getByLabel(/^New password/).fill('newer-demo-pass');
    await page.getByLabel(/^Confirm password/).fill('newer-demo-pass');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page
      .getByText(/Your password has been reset/)
      .first()
      .waitFor();
    await screenshot(page, 'reset-complete-375');
    const login = await page.request.post('/api/login', {
      data: { username: 'demo', password: 'newer-demo-pass' },
    });
    expect(login.status()).toBe(200);
    expect(app.server.logs.join('\n')).not.toContain(token);
    await context.close();
  });
});

describe('e-mail verification', () => {
  const emailVerified = async (page: Page) =>
    ((await (await page.request.get('/api/user')).json()) as { emailVerified: boolean }).emailVerified;

  it('verifies a new address through its mailed link (token in the fragment), which leaves the address bar and the log', async () => {
    const { context, page } = await newPage(app.browser, app.server.url);
    const username = `verifier${Date.now() % 100000}`;
    const registered = await page.request.post('/api/register', {
      data: { username, password: 'verify-pass', name: 'Vera Fier', email: `${username}@example.com` },
    });
    expect(registered.status()).toBe(201);
    const before = await mailLinks(app.server.dataDir, VERIFY_LINK);
    const changed = await page.request.put('/api/user/profile', {
      data: { name: 'Vera Fier', email: `${username}.new@example.org` },
    });
    expect(changed.status()).toBe(200);
    const link = await waitForMailLink(app.server.dataDir, VERIFY_LINK, before);
    const token = tokenOf(link);
    const opened = await page.goto(link);
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
    await page.getByText('Email verified successfully!').first().waitFor();
    await expectAddressCleaned(page, '/verify-email');
    await screenshot(page, 'verify-email-1280');
    expect(await emailVerified(page)).toBe(true);

    // A link mailed before carried the token in its query: a second new address, its link opened so on a phone.
    const seen = await mailLinks(app.server.dataDir, VERIFY_LINK);
    // Away from a verified address: the current password is asked for.
    const again = await page.request.put('/api/user/profile', {
      data: { name: 'Vera Fier', email: `${username}.other@example.org`, currentPassword: 'verify-pass' },
    });
    expect(again.status(), await again.text()).toBe(200);
    expect(await emailVerified(page)).toBe(false);
    const queryToken = tokenOf(await waitForMailLink(app.server.dataDir, VERIFY_LINK, seen));
    const onPhone = await newPage(app.browser, app.server.url, phone);
    await onPhone.page.goto(`/verify-email?token=${queryToken}`);
    await onPhone.page.getByText('Email verified successfully!').first().waitFor();
    await expectAddressCleaned(onPhone.page, '/verify-email');
    await screenshot(onPhone.page, 'verify-email-375');
    expect(await emailVerified(page)).toBe(true);

    const log = app.server.logs.join('\n');
    expect(log).toContain('"route":"/verify-email"');
    expect(log).not.toContain(token);
    expect(log).not.toContain(queryToken);
    expect(log).not.toContain(`${username}.new@example.org`);
    await onPhone.context.close();
    await context.close();
  });
});
