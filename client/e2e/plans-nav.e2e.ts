import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { includedInEveryPlan, planSellingPoints } from '../../src/plans';
import { audit } from './a11y';
import { desktop, newPage, phone, screenshot, signIn, signUpNewUser, withAppServer } from './harness';

// Issue 29: one lit sidebar entry and one page title (item 6), plan-aware /upgrade with honest selling points
// (items 1 and 10), pending upgrade requests shown to admins (item 5), and the API reference linked (item 9).

const ADMIN_PASSWORD = 'admin-e2e-password';
const app = withAppServer({ ADMIN_PASSWORD });

/** A full-page picture from the top (a fixed header would otherwise be drawn mid-page after a scroll). */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await screenshot(page, name);
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/**
 * The page at `path` once its heading shows: exactly one sidebar entry lit (`lit`), the header naming the
 * product, the page's own heading once in the whole document, and the tab titled after the page.
 */
async function expectOneTitleAndOneEntry(
  page: Page,
  path: string,
  { lit, header, heading, title }: { lit: string; header: string; heading: string; title: string },
) {
  // A client-side move (as a click in the app makes): the shell stays, no reload per page.
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((u) => u.pathname === path);
  await page.getByRole('main').getByRole('heading', { name: heading, exact: true }).waitFor();
  const current = nav(page).locator('[aria-current="page"]');
  expect(await current.count(), `${path}: lit entries`).toBe(1);
  expect((await current.textContent())?.trim(), `${path}: the lit entry`).toBe(lit);
  // The header shows the spec's title of the route; the page's name is on screen once.
  expect(await page.getByRole('banner').getByRole('heading', { level: 1 }).textContent()).toBe(header);
  expect(await shownHeadings(page, heading), `${path}: ${heading} on screen`).toBe(1);
  await expect.poll(() => page.title()).toBe(`${title} · QR Creator`);
}

/** Headings of that name drawn on screen (not the visually hidden ones kept for the outline). */
function shownHeadings(page: Page, name: string): Promise<number> {
  return page
    .getByRole('heading', { name, exact: true })
    .evaluateAll((found) => found.filter((h) => h.getBoundingClientRect().width > 1).length);
}

async function asAdmin(viewport = desktop) {
  const { context, page } = await newPage(app.browser, app.server.url, viewport);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  return { context, page };
}

describe('navigation', () => {
  it('lights exactly one entry and names each page once, for a user and an admin', async () => {
    const { context, page } = await signUpNewUser(app, 'navver');
    const created = await page.request.post('/api/qr-codes', {
      data: { name: 'Spring menu', type: 'url', content: 'https://example.com/menu', isDynamic: true },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };

    await page.goto('/');
    const userPages = [
      ['/', 'Dashboard', 'Dashboard', 'Dashboard', 'Dashboard'],
      ['/create', 'Create QR Code', 'Create QR Code', 'Create QR Code', 'Create QR Code'],
      ['/my-qr-codes', 'My QR Codes', 'My QR Codes', 'My QR Codes', 'My QR Codes'],
      [`/qr-details/${id}`, 'My QR Codes', 'QR Creator', 'Spring menu', 'QR Code Details'],
      [`/edit-qr/${id}`, 'My QR Codes', 'Edit QR Code', 'Edit QR Code', 'Edit QR Code'],
      ['/scan-demo', 'My QR Codes', 'QR Code Scanner', 'Scan simulator', 'QR Code Scanner'],
      ['/analytics', 'Analytics', 'Analytics', 'Analytics', 'Analytics'],
      ['/profile', 'Profile', 'QR Creator', 'Profile', 'Profile'],
      ['/settings', 'Settings', 'Settings', 'Settings', 'Settings'],
      ['/integrations', 'Integrations', 'QR Creator', 'Integrations', 'Integrations'],
      ['/upgrade', 'Upgrade to Pro', 'QR Creator', 'Upgrade your plan', 'Upgrade'],
    ] as const;
    for (const [path, lit, header, heading, title] of userPages)
      await expectOneTitleAndOneEntry(page, path, { lit, header, heading, title });

    // The API reference is linked from every page's footer and from Help.
    await page.goto('/');
    await page.getByRole('main').getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'API documentation' }).getAttribute('href')).toBe(
      '/api/docs',
    );
    await shoot(page, 'nav-dashboard-1280');
    await page.getByRole('button', { name: 'Help' }).click();
    const help = page.getByRole('dialog');
    expect(await help.getByRole('link', { name: 'API documentation' }).getAttribute('href')).toBe(
      '/api/docs',
    );
    await screenshot(page, 'nav-help-1280', { fullPage: false });
    await context.close();

    const admin = await asAdmin();
    await admin.page.waitForURL((u) => u.pathname === '/');
    const adminPages = [
      ['/admin', 'Admin Dashboard', 'Admin', 'Admin Dashboard', 'Admin Dashboard'],
      ['/admin/users', 'User Management', 'User Management', 'Users', 'User Management'],
      ['/admin/subscriptions', 'Subscriptions', 'Admin', 'Subscriptions', 'Subscriptions'],
      ['/', 'Dashboard', 'Dashboard', 'Dashboard', 'Dashboard'],
    ] as const;
    for (const [path, lit, header, heading, title] of adminPages)
      await expectOneTitleAndOneEntry(admin.page, path, { lit, header, heading, title });
    await admin.context.close();

    const narrow = await signUpNewUser(app, 'narrownav', phone);
    await narrow.page.goto('/my-qr-codes');
    await narrow.page.getByRole('main').getByRole('heading', { name: 'My QR Codes', exact: true }).waitFor();
    expect(await narrow.page.getByRole('banner').getByRole('heading', { level: 1 }).textContent()).toBe(
      'My QR Codes',
    );
    expect(await shownHeadings(narrow.page, 'My QR Codes')).toBe(1);
    expect(await pageWidth(narrow.page)).toBeLessThanOrEqual(375);
    await shoot(narrow.page, 'nav-my-codes-375');
    await narrow.page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = nav(narrow.page);
    await drawer.waitFor();
    expect(await drawer.locator('[aria-current="page"]').count()).toBe(1);
    await screenshot(narrow.page, 'nav-menu-375', { fullPage: false });
    await narrow.context.close();
  });
});

describe('/upgrade', () => {
  it('marks the current plan, offers only what is above it, and sells only what plans really change', async () => {
    const { context, page } = await signUpNewUser(app, 'proplan');
    const me = (await (await page.request.get('/api/user')).json()) as { id: number };
    const admin = await asAdmin();
    const upgrade = async (tier: 'pro' | 'premium') => {
      const res = await admin.page.request.post(`/api/admin/users/${me.id}/subscription/upgrade`, {
        data: { tier, duration: 30 },
      });
      expect(res.status(), await res.text()).toBe(200);
    };
    const pro = page.getByRole('region', { name: 'Pro plan' });
    const premium = page.getByRole('region', { name: 'Premium plan' });

    await upgrade('pro');
    await page.goto('/upgrade');
    await page.getByRole('heading', { name: 'Upgrade your plan' }).waitFor();
    await pro.getByText('Current plan').first().waitFor();
    expect(await pro.getByRole('button', { name: 'Request Pro' }).count()).toBe(0);
    await premium.getByRole('button', { name: 'Request Premium' }).waitFor();
    for (const point of planSellingPoints('pro')) await pro.getByText(point).waitFor();
    for (const point of planSellingPoints('premium')) await premium.getByText(point).waitFor();
    await page.getByText(includedInEveryPlan).waitFor();
    expect(await page.getByText(/priority support|advanced customisation|detailed analytics/i).count()).toBe(
      0,
    );
    expect(await nav(page).locator('[aria-current="page"]').textContent()).toBe('Upgrade to Premium');
    await shoot(page, 'upgrade-as-pro-1280');
    await page.setViewportSize(phone);
    // Responsive props follow the new width a frame or two after the resize.
    await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(375);
    await shoot(page, 'upgrade-as-pro-375');
    await page.setViewportSize(desktop);

    await upgrade('premium');
    await page.reload();
    await page.getByRole('heading', { name: 'Your plan', exact: true }).waitFor();
    await page.getByText('You are on Premium, the top plan').waitFor();
    await premium.getByText('Current plan').waitFor();
    await pro.getByText('Included in Premium').waitFor();
    expect(
      await page
        .getByRole('main')
        .getByRole('button', { name: /^Request|^Upgrade to/ })
        .count(),
    ).toBe(0);
    expect(await page.getByRole('link', { name: /^Upgrade to/ }).count()).toBe(0);
    await nav(page).getByText('Premium plan').waitFor();
    await shoot(page, 'upgrade-as-premium-1280');
    await context.close();
    await admin.context.close();
  });
});

describe('upgrade requests', () => {
  it('show as a count on /admin, in the sidebar and on the Upgrade requests filter, and /admin says nobody is mailed', async () => {
    const asker = await signUpNewUser(app, 'asker');
    const sent = await asker.page.request.post('/api/billing/upgrade-request', { data: { tier: 'pro' } });
    expect(sent.status(), await sent.text()).toBe(201);
    await asker.context.close();

    const { context, page } = await asAdmin();
    const { pendingUpgradeRequests: pending } = (await (
      await page.request.get('/api/admin/notices')
    ).json()) as { pendingUpgradeRequests: number };
    expect(pending).toBeGreaterThanOrEqual(1);
    await page.goto('/admin');
    const card = page.getByRole('link', { name: new RegExp(`^Upgrade requests ${pending} pending`) });
    await card.getByText(`${pending} pending`).waitFor();
    const subscriptions = nav(page).getByRole('link', { name: /^Subscriptions/ });
    await subscriptions.getByText(String(pending), { exact: false }).first().waitFor();
    expect(await subscriptions.textContent()).toContain(
      `${pending} ${pending === 1 ? 'pending upgrade request' : 'pending upgrade requests'}`,
    );
    // The first admin was made without an address (no ADMIN_EMAIL): nobody hears about requests.
    await page
      .getByText(
        'No admin has an email address, so nobody is mailed about upgrade requests. Add one in Profile.',
      )
      .waitFor();
    // The counts and the warning read at WCAG AA, in both schemes.
    expect(await audit(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await audit(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await shoot(page, 'admin-requests-1280');

    await card.click();
    // App links also carry ?workspace=: the filter is the one parameter this link means.
    await page.waitForURL(
      (u) => u.pathname === '/admin/subscriptions' && u.searchParams.get('show') === 'requests',
    );
    const filter = page.getByRole('radio', { name: `Upgrade requests ${pending} pending` });
    await expect.poll(() => filter.isChecked()).toBe(true);
    await page.getByText('Requested Pro').first().waitFor();
    expect(await audit(page)).toEqual([]);
    await shoot(page, 'admin-requests-list-1280');

    await page.setViewportSize(phone);
    await page.goto('/admin');
    await page.getByRole('link', { name: new RegExp(`^Upgrade requests ${pending} pending`) }).waitFor();
    // Responsive props follow the new width a frame or two after the resize.
    await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(375);
    await shoot(page, 'admin-requests-375');
    await page.goto('/admin/subscriptions?show=requests');
    await page.getByText('Requested Pro').first().waitFor();
    // Responsive props follow the new width a frame or two after the resize.
    await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(375);
    await shoot(page, 'admin-requests-list-375');
    await context.close();
  });
});
