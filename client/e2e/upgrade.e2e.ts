import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FREE_LIMIT, monthlyPrice, PRO_PLAN_LIMIT } from '../../src/plans';
import { desktop, newPage, phone, screenshot, signIn, withAppServer } from './harness';

/** A full-page picture from the top (a fixed header would otherwise be drawn mid-page after a scroll). */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await screenshot(page, name);
}

const ADMIN_PASSWORD = 'admin-e2e-password';
const app = withAppServer({ ADMIN_PASSWORD });
let serial = 0;

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title }).first();

/** A new user registered in a browser of their own (which is then signed in as them). */
async function newUser(viewport = desktop) {
  const { context, page } = await newPage(app.browser, app.server.url, viewport);
  serial += 1;
  const username = `upgrader${serial}${Date.now() % 10000}`;
  const res = await page.request.post('/api/register', {
    data: { username, password: 'upgrade-pass', name: 'Plan Tester', email: `${username}@example.com` },
  });
  expect(res.status()).toBe(201);
  return { context, page, username };
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('/upgrade', () => {
  it('shows the plans, sends a request, and shows Pro once an admin approves it', async () => {
    const { context, page } = await newUser();
    await page.goto('/upgrade');
    await page.getByRole('heading', { name: 'Upgrade your plan', level: 2 }).waitFor();
    const pro = page.getByRole('region', { name: 'Pro plan' });
    const premium = page.getByRole('region', { name: 'Premium plan' });
    const free = page.getByRole('region', { name: 'Free plan' });
    await pro.getByText(monthlyPrice('pro')).waitFor();
    await pro.getByText(`Up to ${PRO_PLAN_LIMIT} QR codes`).waitFor();
    await premium.getByText(monthlyPrice('premium')).waitFor();
    await premium.getByText('Unlimited QR codes').waitFor();
    await free.getByText('Current plan').waitFor();
    expect(await pro.getByText('Current plan').count()).toBe(0);
    await page.getByText(`You have 0 of ${DEFAULT_FREE_LIMIT} QR codes.`).waitFor();
    await shoot(page, 'upgrade-1280');

    await pro.getByRole('button', { name: 'Request Pro' }).click();
    await toast(page, 'Request sent').waitFor();
    await page.getByText(/Request for Pro pending since/).waitFor();
    await expect.poll(() => pro.getByRole('button', { name: 'Request Pro' }).isDisabled()).toBe(true);
    expect(await premium.getByRole('button', { name: 'Request Premium' }).isDisabled()).toBe(true);
    await shoot(page, 'upgrade-pending-1280');

    // The request's id, as the user sees it; an admin approves it over REST.
    const status = await page.request.get('/api/billing/status');
    expect(status.status()).toBe(200);
    const body = (await status.json()) as { pendingRequest: { id: number; tier: string } | null };
    expect(body.pendingRequest?.tier).toBe('pro');
    const admin = await newPage(app.browser, app.server.url);
    await signIn(admin.page, 'admin', ADMIN_PASSWORD);
    const approved = await admin.page.request.post(`/api/admin/upgrade-requests/${body.pendingRequest?.id}`, {
      data: { approve: true, duration: 30 },
    });
    expect(approved.status()).toBe(200);

    // An admin sees the plans with a note, and no 'Upgrade to Pro' anywhere.
    await admin.page.goto('/upgrade');
    await admin.page.getByText('You are an admin').waitFor();
    expect(await admin.page.getByRole('button', { name: 'Upgrade to Pro' }).count()).toBe(0);
    expect(await admin.page.getByRole('link', { name: 'Upgrade to Pro' }).count()).toBe(0);
    await admin.context.close();

    await page.reload();
    await pro.getByText('Current plan').first().waitFor();
    expect(await free.getByText('Current plan').count()).toBe(0);
    expect(await pro.getByRole('button', { name: 'Current plan' }).isDisabled()).toBe(true);
    await page.getByRole('region', { name: 'Your plan' }).getByText('active').waitFor();
    await page.getByText(/Renews or ends on/).waitFor();
    await page.getByText(`You have 0 of ${PRO_PLAN_LIMIT} QR codes.`).waitFor();
    expect(await page.getByText(/pending since/).count()).toBe(0);
    await shoot(page, 'upgrade-pro-1280');

    // Back from Stripe Checkout: paid, or canceled.
    await page.goto('/upgrade?checkout=success');
    await page.getByText('Payment received — your plan updates in a moment.').waitFor();
    await page.goto('/upgrade?checkout=canceled');
    await page.getByText('Checkout canceled. You have not been charged.').waitFor();
    await context.close();

    const narrow = await newUser(phone);
    await narrow.page.goto('/upgrade');
    await narrow.page.getByText(monthlyPrice('premium')).waitFor();
    await narrow.page.getByRole('region', { name: 'Free plan' }).getByText('Current plan').waitFor();
    expect(await noSideScroll(narrow.page)).toBeLessThanOrEqual(375);
    await shoot(narrow.page, 'upgrade-375');
    await narrow.context.close();
  });
});
