import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { desktop, mailLinks, newPage, phone, screenshot, signIn, withAppServer } from './harness';

/** A full-page picture from the top (a fixed header would otherwise be drawn mid-page after a scroll). */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await screenshot(page, name);
}

const ADMIN_PASSWORD = 'admin-e2e-password';
const app = withAppServer({ ADMIN_PASSWORD });

/** The path of an app link: app links also carry `?workspace=<id>`, which these checks do not mean. */
const pathOf = (href: string | null) => (href === null ? null : new URL(href, 'http://app.test').pathname);

const TILES = [
  'User Management',
  'Subscription Management',
  'System Analytics',
  'Email Management',
  'System Settings',
];

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title }).first();

async function asAdmin(viewport = desktop) {
  const { context, page } = await newPage(app.browser, app.server.url, viewport);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  return { context, page };
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const tile = (page: Page, name: string) =>
  page
    .locator('.mantine-Card-root')
    .filter({ has: page.getByText(name, { exact: true }) })
    .first();

/** A register call from a signed-out browser: its status. */
async function tryRegister(username: string) {
  const visitor = await newPage(app.browser, app.server.url);
  const res = await visitor.page.request.post('/api/register', {
    data: { username, password: 'secret12', name: 'New Comer', email: `${username}@example.com` },
  });
  await visitor.context.close();
  return res.status();
}

describe('/admin', () => {
  it('has five real tiles and the analytics, settings, mail and audit sections', async () => {
    expect(await tryRegister('earlybird')).toBe(201);
    const { context, page } = await asAdmin();
    const stats = await page.request.get('/api/admin/stats');
    expect(stats.status()).toBe(200);
    const { users } = (await stats.json()) as { users: number };
    expect(users).toBeGreaterThanOrEqual(2);

    await page.goto('/admin');
    for (const name of TILES) await tile(page, name).waitFor();
    // The header holds the page's only level-1 heading.
    expect(await page.getByRole('banner').getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('main').getByRole('heading', { level: 1 }).count()).toBe(0);
    expect(await page.getByText(/coming soon/i).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Upgrade to Pro' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Upgrade to Pro' }).count()).toBe(0);
    // Quick links.
    const main = page.getByRole('main');
    expect(pathOf(await main.getByRole('link', { name: /Manage users/ }).getAttribute('href'))).toBe(
      '/admin/users',
    );
    expect(pathOf(await main.getByRole('link', { name: /Main dashboard/ }).getAttribute('href'))).toBe('/');
    expect(pathOf(await tile(page, 'User Management').getAttribute('href'))).toBe('/admin/users');
    expect(pathOf(await tile(page, 'Subscription Management').getAttribute('href'))).toBe(
      '/admin/subscriptions',
    );

    // System Analytics: the user count, the charts and the top users.
    const usersCard = page.getByRole('group', { name: 'Users', exact: true });
    await expect.poll(() => usersCard.locator('[data-stat-value]').textContent()).toBe(String(users));
    await page
      .getByRole('group', { name: 'Database size' })
      .getByText(/\d (B|KB|MB)$/)
      .waitFor();
    await page.getByRole('heading', { name: 'Sign-ups per day' }).waitFor();
    await page.getByRole('heading', { name: 'Scans per day' }).waitFor();
    await page.getByRole('heading', { name: 'Top users by scans' }).waitFor();
    await shoot(page, 'admin-dashboard-1280');

    // System Settings: close registration; a register call is then refused.
    await tile(page, 'System Settings').click();
    await expect.poll(() => tab(page, 'System Settings').getAttribute('aria-selected')).toBe('true');
    const registration = page.getByRole('switch', { name: 'Registration open' });
    await expect.poll(() => registration.isChecked()).toBe(true);
    await page.getByRole('switch', { name: 'Require e-mail verification' }).waitFor();
    await page.getByRole('textbox', { name: 'Free plan limit' }).waitFor();
    await registration.uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Settings saved').waitFor();
    await shoot(page, 'admin-dashboard-settings-1280');
    expect(await tryRegister('latecomer')).toBe(403);
    await registration.check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Settings saved').waitFor();
    expect(await tryRegister('secondwave')).toBe(201);

    // Email Management: the transport, the server check, a test mail that lands in the table.
    await tile(page, 'Email Management').click();
    await expect.poll(() => tab(page, 'Email Management').getAttribute('aria-selected')).toBe('true');
    await page.getByText('Outbox', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Verify Email Service' }).click();
    await toast(page, 'Success').waitFor();
    await page.getByLabel('To', { exact: true }).fill('ops@example.com');
    await page.getByLabel('Subject', { exact: true }).fill('Mail check');
    await page.getByLabel('Message', { exact: true }).fill('Does mail reach us?');
    await page.getByRole('button', { name: 'Send Test Email' }).click();
    await toast(page, 'Test email sent to ops@example.com').waitFor();
    const mailRow = page
      .getByRole('table', { name: 'Recent mail' })
      .getByRole('row')
      .filter({ hasText: 'ops@example.com' });
    await mailRow.getByText('Mail check').waitFor();
    await mailRow.getByText('outbox').waitFor();
    await shoot(page, 'admin-dashboard-email-1280');

    // A mail that cannot be written (the outbox folder is a file now) waits in the queue with its error.
    const outbox = path.join(app.server.dataDir, 'outbox');
    await fs.rename(outbox, `${outbox}.away`);
    await fs.writeFile(outbox, 'not a folder');
    const reset = await page.request.post('/api/password-reset/request', {
      data: { email: 'earlybird@example.com' },
    });
    expect(reset.status()).toBe(200);
    const queueRow = page
      .getByRole('table', { name: 'Mail queue' })
      .getByRole('row')
      .filter({ hasText: 'earlybird@example.com' });
    await expect
      .poll(async () => {
        // Opening the tab again reloads the queue.
        await tab(page, 'Audit log').click();
        await tab(page, 'Email Management').click();
        return queueRow.getByText('Reset your QR Creator password').isVisible();
      })
      .toBe(true);
    await page.getByText('1 waiting', { exact: true }).first().waitFor();
    await shoot(page, 'admin-dashboard-mail-queue-1280');

    // Audit log: the settings change (only the changed key) and the test mail.
    await tab(page, 'Audit log').click();
    const settingsRow = page.getByRole('row').filter({ hasText: 'settings.update' }).first();
    await settingsRow.waitFor();
    await settingsRow.getByText('registrationOpen: false → true').waitFor();
    expect(await settingsRow.getByText('freePlanLimit').count()).toBe(0);
    await page.getByRole('row').filter({ hasText: 'mail.test' }).first().waitFor();
    await shoot(page, 'admin-dashboard-audit-1280');
    await context.close();

    // 375 px: nothing wider than the screen on any section.
    const narrow = await asAdmin(phone);
    await narrow.page.goto('/admin');
    await narrow.page.getByRole('heading', { name: 'Sign-ups per day' }).waitFor();
    expect(await pageWidth(narrow.page)).toBeLessThanOrEqual(375);
    await shoot(narrow.page, 'admin-dashboard-375');
    for (const [name, ready] of [
      ['Email Management', 'Recent mail'],
      ['System Settings', 'Free plan limit'],
      ['Audit log', 'settings.update'],
    ] as const) {
      await tab(narrow.page, name).click();
      await narrow.page.getByText(ready).first().waitFor();
      expect(await pageWidth(narrow.page)).toBeLessThanOrEqual(375);
    }
    await shoot(narrow.page, 'admin-dashboard-audit-375');
    await tab(narrow.page, 'Email Management').click();
    await narrow.page.getByText('ops@example.com').first().waitFor();
    await shoot(narrow.page, 'admin-dashboard-email-375');

    // The outbox works again: Retry now sends the queued mail at once.
    const retry = narrow.page.getByRole('button', { name: /^Retry now: Reset your QR Creator password/ });
    await retry.scrollIntoViewIfNeeded();
    await shoot(narrow.page, 'admin-dashboard-mail-queue-375');
    await fs.rm(outbox);
    await fs.rename(`${outbox}.away`, outbox);
    await retry.click();
    await toast(narrow.page, 'Sent').waitFor();
    await narrow.page.getByText('Nothing waits: every mail went out.').waitFor();
    expect((await mailLinks(app.server.dataDir, /\/reset-password#token=/)).length).toBeGreaterThan(0);
    await narrow.context.close();
  });
});
