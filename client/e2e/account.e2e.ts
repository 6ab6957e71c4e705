import { Resvg } from '@resvg/resvg-js';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  allowConsoleErrors,
  desktop,
  mailLinks,
  phone,
  screenshot,
  waitForMailLink,
  withAppServer,
} from './harness';

const app = withAppServer();
const PASSWORD = 'secret123';
let users = 0;

async function open(viewport = desktop, colorScheme: 'light' | 'dark' = 'light') {
  const context = await app.browser.newContext({ baseURL: app.server.url, viewport, colorScheme });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** A fresh user, registered through the API in this browser (which is then signed in). */
async function newUser(viewport = desktop, colorScheme: 'light' | 'dark' = 'light') {
  const { context, page } = await open(viewport, colorScheme);
  users += 1;
  const username = `acct${users}${Date.now() % 100000}`;
  const res = await page.request.post('/api/register', {
    data: { username, password: PASSWORD, name: 'Account Tester', email: `${username}@example.com` },
  });
  expect(res.status()).toBe(201);
  return { context, page, username };
}

async function signInForm(page: Page, username: string, password = PASSWORD) {
  await page.goto('/auth');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title });

function avatarPng(): Buffer {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"><rect width="120" height="120" fill="#2f9e44"/>' +
    '<circle cx="60" cy="48" r="24" fill="#fff"/><rect x="24" y="80" width="72" height="40" rx="20" fill="#fff"/></svg>';
  return Buffer.from(new Resvg(svg).render().asPng());
}

/** Whether the element has the keyboard focus. */
const focused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

async function close(...contexts: BrowserContext[]) {
  for (const c of contexts) await c.close();
}

describe('/profile', () => {
  it('edits name and e-mail, changes the password with its own messages, and uploads a picture', async () => {
    const { context, page, username } = await newUser();
    await page.goto('/profile');
    await expect.poll(() => page.getByText('Username cannot be changed').count()).toBe(1);
    expect(await page.getByText('Required for subscription upgrades and notifications').count()).toBe(1);
    expect(await page.getByLabel('Username').inputValue()).toBe(username);

    await page.getByLabel('Full Name').fill('Ada Lovelace');
    await page.getByLabel('Email Address').fill(`ada-${username}@example.org`);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Success').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Full Name').inputValue()).toBe('Ada Lovelace');
    expect(await page.getByLabel('Email Address').inputValue()).toBe(`ada-${username}@example.org`);
    expect(await page.getByText('Unverified').count()).toBe(1);

    // The profile's password form and its own wording.
    await page.getByLabel('Current Password').fill(PASSWORD);
    await page.getByLabel('New Password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm New Password').fill('abd');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Password must be at least 6 characters long.').waitFor();
    await page.getByText('New passwords do not match.').waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('brand-new-1');
    await page.getByLabel('Confirm New Password').fill('brand-new-1');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await toast(page, 'Password changed').waitFor();

    // The picture: the camera button's file input; the header avatar shows it.
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: avatarPng() });
    await toast(page, 'Profile picture updated').waitFor();
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: /^Account menu/ })
          .locator('img')
          .count(),
      )
      .toBe(1);
    await screenshot(page, 'profile-1280');

    // The new password signs in; the old one does not.
    const second = await open();
    const wrong = await second.page.request.post('/api/login', { data: { username, password: PASSWORD } });
    expect(wrong.status()).toBe(401);
    await signInForm(second.page, username, 'brand-new-1');
    await second.page.waitForURL((u) => u.pathname === '/');
    await close(context, second.context);
  });

  it('looks right on a phone and in dark mode', async () => {
    for (const [viewport, scheme, name] of [
      [phone, 'light', 'profile-375'],
      [desktop, 'dark', 'profile-dark-1280'],
      [phone, 'dark', 'profile-dark-375'],
    ] as const) {
      const { context, page } = await newUser(viewport, scheme);
      await page.goto('/profile');
      await page.getByText('Username cannot be changed').waitFor();
      await screenshot(page, name);
      await context.close();
    }
  });
});

describe('/settings', () => {
  it('stores the theme on the server: it survives a reload and follows the user to another browser', async () => {
    const { context, page, username } = await newUser();
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Appearance' }).click();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await page.reload();
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await screenshot(page, 'settings-appearance-dark-1280');

    const other = await open();
    await signInForm(other.page, username);
    await other.page.waitForURL((u) => u.pathname === '/');
    await expect
      .poll(() => other.page.locator('html').getAttribute('data-mantine-color-scheme'))
      .toBe('dark');
    await close(context, other.context);
  });

  it('stores the notification switches', async () => {
    const { context, page } = await newUser();
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    const scans = page.getByRole('switch', { name: 'QR code scans' });
    await scans.check();
    await toast(page, 'Notifications updated').waitFor();
    // Saved before the reload: the reload must not cut the request off.
    await Promise.all([
      page.waitForResponse((r) => r.url().includes('account.updatePreferences') && r.ok()),
      page.getByRole('switch', { name: 'Scan thresholds' }).check(),
    ]);
    await page.reload();
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await expect.poll(() => page.getByRole('switch', { name: 'QR code scans' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Scan thresholds' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Product updates' }).isChecked()).toBe(false);
    await screenshot(page, 'settings-notifications-1280');
    await context.close();
  });

  it('chooses the language of the screens and e-mails, kept after a reload, on a phone too', async () => {
    const { context, page } = await newUser(phone);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Appearance' }).click();
    const language = page.getByRole('combobox', { name: 'Language' });
    expect(await language.inputValue()).toBe("Automatic (your browser's language)");
    await language.click();
    // Each language is named in itself, marked with its lang for screen readers.
    const german = page.getByRole('option', { name: 'Deutsch' });
    expect(await german.locator('[lang="de"]').count()).toBe(1);
    await german.click();
    // Chosen, not yet saved: the screens stay English until Save Preferences.
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    // Saved: the screens switch at once, the toast already in German.
    await toast(page, 'Einstellungen gespeichert').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.reload();
    await page.getByRole('tab', { name: 'Darstellung' }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Sprache' }).inputValue()).toBe('Deutsch');
    const saved = (await (await page.request.get('/api/user/preferences')).json()) as { language: string };
    expect(saved.language).toBe('de');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'settings-language-375');
    await context.close();
  });

  it('lists the signed-in browsers and signs another one out', async () => {
    const { context, page, username } = await newUser();
    const other = await open();
    await signInForm(other.page, username);
    await other.page.waitForURL((u) => u.pathname === '/');

    await page.goto('/settings');
    const sessions = page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem');
    await expect.poll(() => sessions.count()).toBe(2);
    expect(await page.getByText('This device').count()).toBe(1);
    await screenshot(page, 'settings-security-1280');
    await page.getByRole('button', { name: /^Sign out .* on / }).click();
    await toast(page, 'Session signed out').waitFor();
    await expect.poll(() => sessions.count()).toBe(1);
    expect((await other.page.request.get('/api/user')).status()).toBe(401);
    expect((await page.request.get('/api/user')).status()).toBe(200);
    await close(context, other.context);
  });

  it('turns two-factor sign-in on with a code from an app, and sign-in then asks for one', async () => {
    const { context, page, username } = await newUser();
    await page.goto('/settings');
    await page.getByRole('switch', { name: /Two-factor authentication/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn on two-factor authentication' });
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const secret = (await dialog.getByTestId('totp-secret').textContent())!.replace(/\s+/g, '');
    await expect.poll(() => dialog.locator('svg').count()).toBeGreaterThan(0);
    await screenshot(page, 'settings-two-factor-1280');
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    // After "Continue" the focus is in the code boxes, and the sixth digit sends the code by itself.
    await expect.poll(() => focused(dialog.getByRole('textbox').first())).toBe(true);
    await page.keyboard.type(totp.generate());
    await expect.poll(() => dialog.getByTestId('recovery-codes').locator('code').count()).toBe(10);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByText(/10 recovery codes left/).count()).toBe(1);

    const other = await open(phone);
    await signInForm(other.page, username);
    await other.page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    await screenshot(other.page, 'login-two-factor-375');
    // A complete code is sent by itself; a wrong one shows the error and empties the boxes, focus in the first.
    allowConsoleErrors(other.page, /status of 401 .*auth\.loginTwoFactor/);
    const boxes = other.page.getByRole('textbox');
    await expect.poll(() => focused(boxes.first())).toBe(true);
    const valid = [-30_000, 0, 30_000].map((skew) => totp.generate({ timestamp: Date.now() + skew }));
    const wrong = ['111111', '222222', '333333'].find((c) => !valid.includes(c))!;
    await other.page.keyboard.type(wrong);
    await other.page
      .locator('form [role="alert"]')
      .filter({ hasText: 'Invalid authentication code' })
      .waitFor();
    await expect
      .poll(() => boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value).join('')))
      .toBe('');
    await expect.poll(() => focused(boxes.first())).toBe(true);
    await screenshot(other.page, 'login-two-factor-wrong-375');
    // The next step's code: the one that confirmed enrolment cannot be used again.
    await other.page.keyboard.type(totp.generate({ timestamp: Date.now() + 30_000 }));
    await other.page.waitForURL((u) => u.pathname === '/');
    await toast(other.page, 'Login successful').waitFor();
    await close(context, other.context);
  });

  it('looks right on a phone and in dark mode, every tab', async () => {
    for (const [viewport, scheme, suffix] of [
      [phone, 'light', '375'],
      [desktop, 'dark', 'dark-1280'],
      [phone, 'dark', 'dark-375'],
    ] as const) {
      const { context, page } = await newUser(viewport, scheme);
      await page.goto('/settings');
      for (const tab of ['Security', 'Notifications', 'Appearance']) {
        await page.getByRole('tab', { name: tab }).click();
        await page.waitForTimeout(200);
        await screenshot(page, `settings-${tab.toLowerCase()}-${suffix}`);
      }
      await context.close();
    }
  });

  it('creates an API token shown once, which then works with curl-like calls until revoked', async () => {
    const { context, page } = await newUser();
    await page.goto('/settings');
    await page.getByText('No tokens yet.').waitFor();
    await page.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API token' });
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByLabel('Name').fill('Deploy script');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API token' });
    const token = (await shown.locator('pre').textContent())?.trim() ?? '';
    expect(token).toMatch(/^qrc_/);
    await screenshot(page, 'settings-api-token-created-1280');
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Deploy script').waitFor();
    expect(await page.getByText(token).count()).toBe(0);

    // A fresh context without cookies: only the token speaks.
    const api = await app.browser.newContext({ baseURL: app.server.url });
    const headers = { authorization: `Bearer ${token}` };
    expect((await api.request.get('/api/qr-codes', { headers })).status()).toBe(200);
    expect((await api.request.post('/api/folders', { headers, data: { name: 'x' } })).status()).toBe(403);
    await page.getByRole('button', { name: 'Revoke Deploy script' }).click();
    await toast(page, 'Token revoked').waitFor();
    expect((await api.request.get('/api/qr-codes', { headers })).status()).toBe(401);
    await api.close();
    await context.close();
  });
});

describe('keeping the account its owner’s (issue 27)', () => {
  /** A new user whose address is verified through the link mailed at sign-up. */
  async function verifiedUser(viewport = desktop) {
    const before = await mailLinks(app.server.dataDir, /\/verify-email#token=[\w%.~-]+/);
    const user = await newUser(viewport);
    const link = await waitForMailLink(app.server.dataDir, /\/verify-email#token=[\w%.~-]+/, before);
    await user.page.goto(link);
    await user.page.getByText('Email verified successfully!').first().waitFor();
    return user;
  }

  it('asks for the password to leave a verified address, and the old address can undo the change', async () => {
    const { context, page, username } = await verifiedUser();
    await page.goto('/profile');
    await expect.poll(() => page.getByText('Verified', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Password to confirm the new address').count()).toBe(0);
    // Undo links mailed before (other tests change addresses too) are not this change's.
    const undoPattern = /\/undo-email-change#token=[\w%.~-]+/;
    const undoneBefore = await mailLinks(app.server.dataDir, undoPattern);
    await page.getByLabel('Email Address').fill(`moved-${username}@example.org`);
    const confirm = page.getByLabel('Password to confirm the new address');
    await confirm.waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Enter your current password to change a verified e-mail address').first().waitFor();
    await confirm.fill('not-it');
    // The wrong password's 400 is the point here.
    allowConsoleErrors(page, /status of 400.*account\.updateProfile/);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Failed to update profile').waitFor();
    await page.getByText('Current password is incorrect').first().waitFor();
    await confirm.fill(PASSWORD);
    await screenshot(page, 'profile-email-change-password-1280');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Success').waitFor();
    await expect.poll(() => page.getByText('Unverified', { exact: true }).count()).toBe(1);

    // The old address's mail: one link that asks before it undoes the change.
    const undo = await waitForMailLink(app.server.dataDir, undoPattern, undoneBefore);
    const visitor = await open(phone);
    await visitor.page.goto(undo);
    await visitor.page.getByRole('heading', { name: 'Undo e-mail change' }).waitFor();
    // The token has left the address bar.
    await expect.poll(() => new URL(visitor.page.url()).hash).toBe('');
    await screenshot(visitor.page, 'undo-email-change-375');
    await visitor.page.getByRole('button', { name: 'Undo the change' }).click();
    await visitor.page.getByText('Your e-mail address is back.').waitFor();
    await screenshot(visitor.page, 'undo-email-change-done-375');
    // Every browser was signed out, the address is the old one again.
    expect((await page.request.get('/api/user')).status()).toBe(401);
    await signInForm(page, username);
    await page.waitForURL((u) => u.pathname === '/');
    const me = (await (await page.request.get('/api/user')).json()) as {
      email: string;
      emailVerified: boolean;
    };
    expect(me).toMatchObject({ email: `${username}@example.com`, emailVerified: true });
    await close(context, visitor.context);
  });

  it('signs the other browsers out and, when asked, revokes the API tokens too', async () => {
    const { context, page, username } = await newUser();
    const made = await page.request.post('/api/user/tokens', { data: { name: 'ci', scope: 'read' } });
    const { token } = (await made.json()) as { token: string };
    const other = await open();
    await signInForm(other.page, username);
    await other.page.waitForURL((u) => u.pathname === '/');
    await page.goto('/settings');
    const sessions = page.getByRole('list', { name: 'Active sessions' }).getByRole('listitem');
    await expect.poll(() => sessions.count()).toBe(2);
    await page.getByLabel('Also revoke API tokens').check();
    await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await toast(page, 'Signed out')
      .getByText('1 other session was signed out, and 1 API token was revoked.')
      .waitFor();
    await expect.poll(() => sessions.count()).toBe(1);
    const api = await app.browser.newContext({ baseURL: app.server.url });
    expect(
      (await api.request.get('/api/qr-codes', { headers: { authorization: `Bearer ${token}` } })).status(),
    ).toBe(401);
    expect((await other.page.request.get('/api/user')).status()).toBe(401);
    await api.close();
    await close(context, other.context);
  });
});
