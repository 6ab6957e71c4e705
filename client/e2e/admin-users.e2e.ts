import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { allowConsoleErrors, desktop, newPage, phone, screenshot, signIn, withAppServer } from './harness';

// /admin/users and /admin/subscriptions, driven by an admin in the browser against the real server.

const ADMIN_PASSWORD = 'admin-e2e-password';
const app = withAppServer({ ADMIN_PASSWORD });
let serial = 0;

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title }).first();

/** A body row (not the header, whose 'Admin' column would match 'admin') that mentions `text`. */
const row = (page: Page, text: string) =>
  page
    .getByRole('row')
    .filter({ has: page.getByRole('cell') })
    .filter({ hasText: text });

async function asAdmin(viewport = desktop) {
  const { context, page } = await newPage(app.browser, app.server.url, viewport);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  return { context, page };
}

/** A user registered in a browser context of their own, which stays signed in as them. */
async function registered(browser: Browser, prefix: string) {
  const { context, page } = await newPage(browser, app.server.url);
  serial += 1;
  const username = `${prefix}${serial}${Date.now() % 10000}`;
  const res = await page.request.post('/api/register', {
    data: { username, password: 'member-pass', name: 'Member Tester', email: `${username}@example.com` },
  });
  expect(res.status()).toBe(201);
  return { context, page, username };
}

/** Nothing on the page is wider than the phone: wide tables scroll inside their own box. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

async function openRowAction(page: Page, username: string, item: string) {
  await row(page, username)
    .getByRole('button', { name: `Actions for ${username}`, exact: true })
    .click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe('/admin/users', () => {
  it('creates, finds, edits, resets the password of, grants unlimited to and deletes a user', async () => {
    const { context, page } = await asAdmin();
    await page.goto('/admin/users');
    await page.getByRole('heading', { name: 'Users', level: 2 }).waitFor();
    await row(page, 'admin').waitFor();

    // Create User: the dialog checks its fields before asking the server.
    await page.getByRole('button', { name: 'Create User' }).click();
    const create = page.getByRole('dialog', { name: 'Create User' });
    await create.getByRole('button', { name: 'Create user' }).click();
    await create.getByText('Username is required').waitFor();
    await create.getByText('Password is required').waitFor();
    await create.getByLabel('Username').fill('ada');
    await create.getByRole('textbox', { name: 'Password', exact: true }).fill('engine');
    await create.getByLabel('Full Name').fill('Ada Lovelace');
    await create.getByLabel('Email').fill('ada@example.com');
    await screenshot(page, 'admin-users-dialog-1280');
    await create.getByRole('button', { name: 'Create user' }).click();
    await toast(page, 'User created').waitFor();
    await row(page, 'ada@example.com').waitFor();

    // The same username again: the server's message, in the spec's words.
    allowConsoleErrors(page, /409 \(Conflict\)/);
    await page.getByRole('button', { name: 'Create User' }).click();
    await create.getByLabel('Username').fill('ada');
    await create.getByRole('textbox', { name: 'Password', exact: true }).fill('engine');
    await create.getByRole('button', { name: 'Create user' }).click();
    await toast(page, 'Failed to create user: Username already exists').waitFor();
    await create.getByRole('button', { name: 'Cancel' }).click();
    await create.waitFor({ state: 'detached' });

    // Search is done by the server; an unknown word says so.
    const search = page.getByLabel('Search users');
    await search.fill('lovel');
    await expect.poll(() => page.getByRole('row').count()).toBe(2); // the header and ada
    await row(page, 'Ada Lovelace').waitFor();
    await search.fill('nobody-like-this');
    await page.getByText('No users match “nobody-like-this”.').waitFor();
    await search.fill('ada');
    await row(page, 'Ada Lovelace').waitFor();

    await openRowAction(page, 'ada', 'Edit');
    const edit = page.getByRole('dialog', { name: 'Edit ada' });
    expect(await edit.getByLabel('Full Name').inputValue()).toBe('Ada Lovelace');
    await edit.getByLabel('Full Name').fill('Augusta Ada King');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'User updated').waitFor();
    await row(page, 'Augusta Ada King').waitFor();

    // Reset password: too short is refused in the dialog; no 2FA, so no 2FA checkbox.
    await openRowAction(page, 'ada', 'Reset password');
    const reset = page.getByRole('dialog', { name: 'Reset password of ada' });
    expect(await reset.getByLabel('Also turn off two-factor sign-in').count()).toBe(0);
    await reset.getByLabel('New password').fill('short');
    await reset.getByRole('button', { name: 'Reset password' }).click();
    await reset.getByText('Password must be at least 6 characters').waitFor();
    await reset.getByLabel('New password').fill('analytical-1843');
    await reset.getByRole('button', { name: 'Reset password' }).click();
    await toast(
      page,
      'Password reset for ada; every session signed out and every API token revoked.',
    ).waitFor();
    const ada = await newPage(app.browser, app.server.url);
    const login = await ada.page.request.post('/api/login', {
      data: { username: 'ada', password: 'analytical-1843' },
    });
    expect(login.status()).toBe(200);
    await ada.context.close();

    await openRowAction(page, 'ada', 'Grant unlimited access');
    await toast(page, 'Unlimited access granted to ada').waitFor();
    await row(page, 'ada').getByText('Unlimited', { exact: true }).waitFor();
    await openRowAction(page, 'ada', 'Remove unlimited access');
    await toast(page, 'Unlimited access removed from ada').waitFor();
    await expect.poll(() => row(page, 'ada').getByText('Unlimited', { exact: true }).count()).toBe(0);
    await openRowAction(page, 'ada', 'Grant unlimited access');
    await toast(page, 'Unlimited access granted to ada').waitFor();

    // Sorting is a button in the header; the header cell says the order.
    await search.fill('');
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(2);
    const usernameHeader = page.getByRole('columnheader', { name: 'Sort by Username' });
    await page.getByRole('button', { name: 'Sort by Username' }).click();
    await expect.poll(() => usernameHeader.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(() => page.getByRole('row').nth(1).textContent()).toMatch(/^ada/);
    await page.getByRole('button', { name: 'Sort by Username' }).click();
    await expect.poll(() => usernameHeader.getAttribute('aria-sort')).toBe('descending');
    await screenshot(page, 'admin-users-1280');

    await openRowAction(page, 'ada', 'Delete');
    const del = page.getByRole('dialog', { name: 'Delete ada?' });
    await del
      .getByText('Delete ada? Their 0 QR codes, 0 scans and 0 folders are deleted with them.', {
        exact: false,
      })
      .waitFor();
    await del.getByRole('button', { name: 'Delete user' }).click();
    await toast(page, 'User deleted').waitFor();
    await expect.poll(() => row(page, 'Augusta Ada King').count()).toBe(0);
    await context.close();
  });

  it('says what goes with a user before deleting them: their codes, scans and folders', async () => {
    const member = await registered(app.browser, 'owner');
    const folder = await member.page.request.post('/api/folders', { data: { name: 'Flyers' } });
    expect(folder.status()).toBe(201);
    const { id: folderId } = (await folder.json()) as { id: number };
    const code = await member.page.request.post('/api/qr-codes', {
      data: {
        name: 'Flyer',
        type: 'url',
        content: 'https://example.com/flyer',
        isDynamic: true,
        customization: {},
        folderId,
      },
    });
    expect(code.status()).toBe(201);
    const { id: codeId } = (await code.json()) as { id: number };
    expect((await member.page.request.get(`/api/qr-codes/${codeId}/scan`)).status()).toBe(200);

    const { context, page } = await asAdmin();
    await page.goto('/admin/users');
    await page.getByLabel('Search users').fill(member.username);
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    expect(await row(page, member.username).getByRole('cell').nth(1).textContent()).toBe('1');
    await openRowAction(page, member.username, 'Delete');
    const del = page.getByRole('dialog', { name: `Delete ${member.username}?` });
    await del
      .getByText('Their 1 QR code, 1 scan and 1 folder are deleted with them.', { exact: false })
      .waitFor();
    await del.getByText('This cannot be undone.', { exact: false }).waitFor();
    await del.getByRole('button', { name: 'Delete user' }).click();
    await toast(page, 'User deleted').waitFor();
    await page.getByText(`No users match “${member.username}”.`).waitFor();
    await context.close();
    await member.context.close();
  });

  it('fits a 375 px phone: the table scrolls inside its card', async () => {
    const { context, page } = await asAdmin(phone);
    await page.goto('/admin/users');
    await row(page, 'admin').waitFor();
    await page.getByRole('button', { name: 'Create User' }).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'admin-users-375');
    await openRowAction(page, 'admin', 'Edit');
    await page.getByRole('dialog', { name: 'Edit admin' }).getByLabel('Administrator').waitFor();
    await screenshot(page, 'admin-users-dialog-375');
    await context.close();
  });
});

describe('/admin/subscriptions', () => {
  async function openPlanAction(page: Page, username: string, item: string) {
    await row(page, username)
      .getByRole('button', { name: `Subscription actions for ${username}` })
      .click();
    await page.getByRole('menuitem', { name: item }).click();
  }
  const cell = (page: Page, username: string, column: number) =>
    row(page, username).getByRole('cell').nth(column);

  it('upgrades to Pro, extends, cancels at period end and now, approves and declines requests', async () => {
    const member = await registered(app.browser, 'member');
    const asker = await registered(app.browser, 'asker');
    const decliner = await registered(app.browser, 'decliner');
    for (const user of [asker, decliner]) {
      const request = await user.page.request.post('/api/billing/upgrade-request', { data: { tier: 'pro' } });
      expect(request.status()).toBe(201);
    }

    const { context, page } = await asAdmin();
    await page.goto('/admin/subscriptions');
    await page.getByRole('heading', { name: 'Subscriptions', level: 2 }).waitFor();
    await cell(page, member.username, 1).getByText('Free', { exact: true }).waitFor();
    expect(await cell(page, member.username, 2).textContent()).toBe('N/A');
    expect(await cell(page, member.username, 3).textContent()).toBe('—');

    // A free user has Upgrade only.
    await row(page, member.username)
      .getByRole('button', { name: `Subscription actions for ${member.username}` })
      .click();
    await page.getByRole('menuitem', { name: 'Upgrade' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Extend' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: 'Cancel immediately' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Upgrade' }).click();

    const upgrade = page.getByRole('dialog', { name: `Upgrade subscription: ${member.username}` });
    expect(await upgrade.getByLabel('Duration (days)').inputValue()).toBe('30');
    expect(await upgrade.getByRole('combobox', { name: 'Tier' }).inputValue()).toBe('Pro');
    await upgrade.getByLabel('Duration (days)').fill('400');
    await upgrade.getByRole('button', { name: 'Upgrade subscription' }).click();
    await upgrade.getByText('Duration must be between 1 and 365 days').waitFor();
    await screenshot(page, 'admin-subscriptions-dialog-1280');
    await upgrade.getByLabel('Duration (days)').fill('30');
    await upgrade.getByRole('button', { name: 'Upgrade subscription' }).click();
    await toast(page, `${member.username} is on Pro for 30 days`).waitFor();
    await cell(page, member.username, 1).getByText('Pro', { exact: true }).waitFor();
    await cell(page, member.username, 2).getByText('active', { exact: true }).waitFor();
    const endAfterUpgrade = await cell(page, member.username, 3).textContent();
    expect(endAfterUpgrade).not.toBe('—');

    await openPlanAction(page, member.username, 'Extend');
    const extend = page.getByRole('dialog', { name: `Extend subscription: ${member.username}` });
    expect(await extend.getByLabel('Days').inputValue()).toBe('30');
    await extend.getByRole('button', { name: 'Extend subscription' }).click();
    await toast(page, `Subscription of ${member.username} extended by 30 days`).waitFor();
    await expect.poll(() => cell(page, member.username, 3).textContent()).not.toBe(endAfterUpgrade);

    await openPlanAction(page, member.username, 'Cancel at period end');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel at period end' }).click();
    await toast(page, 'canceled at the end of its period').waitFor();
    await cell(page, member.username, 2).getByText('canceled', { exact: true }).waitFor();
    await cell(page, member.username, 1).getByText('Pro', { exact: true }).waitFor();

    await openPlanAction(page, member.username, 'Cancel immediately');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel immediately' }).click();
    await toast(page, 'back on Free now').waitFor();
    await cell(page, member.username, 1).getByText('Free', { exact: true }).waitFor();

    // Pending requests: their own filter, a badge, Approve (with a duration) and Decline.
    await page.getByText('Upgrade requests', { exact: true }).click();
    await row(page, asker.username).getByText('Requested Pro').waitFor();
    await row(page, decliner.username).getByText('Requested Pro').waitFor();
    // Both askers show their badge in the unfiltered list too: wait for the filter to take the others away.
    await expect.poll(() => row(page, member.username).count()).toBe(0);
    await screenshot(page, 'admin-subscriptions-1280');
    await row(page, asker.username).getByRole('button', { name: 'Approve', exact: true }).click();
    const approve = page.getByRole('dialog', { name: `Approve upgrade request: ${asker.username}` });
    expect(await approve.getByLabel('Duration (days)').inputValue()).toBe('30');
    await approve.getByRole('button', { name: 'Approve upgrade request' }).click();
    await toast(page, `${asker.username} is on Pro for 30 days`).waitFor();
    await expect.poll(() => row(page, asker.username).count()).toBe(0);
    await row(page, decliner.username).getByRole('button', { name: 'Decline', exact: true }).click();
    await toast(page, `Request of ${decliner.username} declined`).waitFor();
    await expect.poll(() => row(page, decliner.username).count()).toBe(0);

    await page.getByText('Paid plans', { exact: true }).click();
    await cell(page, asker.username, 1).getByText('Pro', { exact: true }).waitFor();
    expect(await row(page, member.username).count()).toBe(0);
    await page.getByText('All users', { exact: true }).click();
    await cell(page, decliner.username, 1).getByText('Free', { exact: true }).waitFor();
    await context.close();

    const narrow = await asAdmin(phone);
    await narrow.page.goto('/admin/subscriptions');
    await row(narrow.page, asker.username).waitFor();
    await expectNoSidewaysScroll(narrow.page);
    await screenshot(narrow.page, 'admin-subscriptions-375');
    await narrow.context.close();
    for (const user of [member, asker, decliner]) await user.context.close();
  });
});
