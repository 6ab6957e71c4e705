import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { allowConsoleErrors, desktop, newPage, phone, screenshot, signIn, withAppServer } from './harness';

const ADMIN_PASSWORD = 'admin-e2e-password';
const app = withAppServer({ ADMIN_PASSWORD });
let serial = 0;

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title }).first();

async function asAdmin(viewport = desktop) {
  const { context, page } = await newPage(app.browser, app.server.url, viewport);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  return { context, page };
}

/** A new user registered in a browser of their own (which is then signed in as them). */
async function newUser(browser: Browser, viewport = desktop) {
  const { context, page } = await newPage(browser, app.server.url, viewport);
  serial += 1;
  const username = `member${serial}${Date.now() % 10000}`;
  const res = await page.request.post('/api/register', {
    data: { username, password: 'member-pass', name: 'Member Tester', email: `${username}@example.com` },
  });
  expect(res.status()).toBe(201);
  return { context, page, username };
}

const row = (page: Page, username: string) => page.getByRole('row').filter({ hasText: username });

describe('/admin/users', () => {
  it('creates, finds, edits, resets, grants unlimited and deletes a user, at 1280 and 375 px', async () => {
    const { context, page } = await asAdmin();
    await page.goto('/admin/users');
    await page.getByRole('button', { name: 'Create User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create User' });
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.getByText('Username is required').waitFor();
    await dialog.getByLabel('Username').fill('grace');
    await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('hopper-1');
    await dialog.getByLabel('Full Name').fill('Grace Hopper');
    await dialog.getByLabel('Email').fill('grace@example.com');
    await screenshot(page, 'admin-users-create-dialog-1280');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await toast(page, 'User created').waitFor();
    await row(page, 'grace').waitFor();

    // A taken username: the server's message in the spec's toast (the browser logs the 409).
    allowConsoleErrors(page, /409 \(Conflict\)/);
    await page.getByRole('button', { name: 'Create User' }).click();
    await dialog.getByLabel('Username').fill('grace');
    await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('hopper-1');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await toast(page, 'Failed to create user: Username already exists').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByLabel('Search users').fill('hopp');
    await expect.poll(() => page.getByRole('row').count()).toBe(2); // header + grace
    await row(page, 'grace').getByRole('button', { name: 'Actions for grace' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit grace' });
    await edit.getByLabel('Full Name').fill('Rear Admiral Grace Hopper');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'User updated').waitFor();
    await row(page, 'Rear Admiral').waitFor();

    await row(page, 'grace').getByRole('button', { name: 'Actions for grace' }).click();
    await page.getByRole('menuitem', { name: 'Reset password' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset password of grace' });
    await reset.getByLabel('New password').fill('cobol-1959');
    await reset.getByRole('button', { name: 'Reset password' }).click();
    await toast(page, 'Password reset').waitFor();
    const other = await newPage(app.browser, app.server.url);
    const login = await other.page.request.post('/api/login', {
      data: { username: 'grace', password: 'cobol-1959' },
    });
    expect(login.status()).toBe(200);
    await other.context.close();

    await row(page, 'grace').getByRole('button', { name: 'Actions for grace' }).click();
    await page.getByRole('menuitem', { name: 'Grant unlimited access' }).click();
    await toast(page, 'Unlimited access granted to grace').waitFor();
    await row(page, 'grace').getByText('Unlimited').waitFor();

    await page.getByLabel('Search users').fill('');
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(2);
    await screenshot(page, 'admin-users-1280');

    await row(page, 'grace').getByRole('button', { name: 'Actions for grace' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const del = page.getByRole('dialog', { name: 'Delete grace?' });
    await del
      .getByText('Their 0 QR codes, 0 scans and 0 folders are deleted with them.', { exact: false })
      .waitFor();
    await del.getByRole('button', { name: 'Delete user' }).click();
    await toast(page, 'User deleted').waitFor();
    await expect.poll(() => row(page, 'grace').count()).toBe(0);
    await context.close();

    const narrow = await asAdmin(phone);
    await narrow.page.goto('/admin/users');
    await row(narrow.page, 'admin').waitFor();
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(narrow.page, 'admin-users-375');
    await narrow.context.close();
  });
});

describe('/admin/subscriptions', () => {
  it('upgrades, extends, cancels, and approves a request', async () => {
    const member = await newUser(app.browser);
    const asker = await newUser(app.browser);
    const request = await asker.page.request.post('/api/billing/upgrade-request', {
      data: { tier: 'premium' },
    });
    expect(request.status()).toBe(201);

    const { context, page } = await asAdmin();
    await page.goto('/admin/subscriptions');
    const open = async (username: string, item: string) => {
      await row(page, username)
        .getByRole('button', { name: `Subscription actions for ${username}` })
        .click();
      await page.getByRole('menuitem', { name: item }).click();
    };
    await open(member.username, 'Upgrade');
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Duration (days)').fill('400');
    await dialog.getByRole('button', { name: 'Upgrade subscription' }).click();
    await dialog.getByText('Duration must be between 1 and 365 days').waitFor();
    await dialog.getByLabel('Duration (days)').fill('30');
    await dialog.getByRole('button', { name: 'Upgrade subscription' }).click();
    await toast(page, 'Success').waitFor();
    await row(page, member.username).getByText('Pro').waitFor();
    await row(page, member.username).getByText('active').waitFor();

    await open(member.username, 'Extend');
    dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Extend subscription' }).click();
    await toast(page, 'extended by 30 days').waitFor();

    await open(member.username, 'Cancel at period end');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel at period end' }).click();
    await row(page, member.username).getByText('canceled').waitFor();
    await row(page, member.username).getByText('Pro').waitFor();

    await open(member.username, 'Cancel immediately');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel immediately' }).click();
    await row(page, member.username).getByText('Free').waitFor();

    await page.getByText('Requests', { exact: true }).click();
    await row(page, asker.username).getByText('Requested Premium').waitFor();
    await screenshot(page, 'admin-subscriptions-1280');
    await row(page, asker.username).getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve upgrade request' }).click();
    await toast(page, 'Success').waitFor();
    await page.getByText('All users').click();
    await row(page, asker.username).getByText('Premium').waitFor();
    await context.close();

    // The user sees the new plan.
    await asker.page.goto('/upgrade');
    await asker.page
      .getByRole('region', { name: 'Premium plan' })
      .getByText('Current plan')
      .first()
      .waitFor();

    const narrow = await asAdmin(phone);
    await narrow.page.goto('/admin/subscriptions');
    await row(narrow.page, asker.username).waitFor();
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(narrow.page, 'admin-subscriptions-375');
    await narrow.context.close();
    await member.context.close();
    await asker.context.close();
  });
});
