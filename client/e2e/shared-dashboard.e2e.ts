// Shared dashboards (issue 36), as an owner and a colleague meet them: the owner scans a code a few
// times (GET /r/<slug> with several user agents), makes a password-protected link from the code's
// details page, and a colleague opens it in a browser that never signed in: the password form, then the
// code's charts and figures. A folder's link from My QR Codes shows its codes' table; a revoked link
// shows the not-found page.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { audit, installAxe } from './a11y';
import { allowConsoleErrors, desktop, phone, screenshot, signUpNewUser, withAppServer } from './harness';

const app = withAppServer();

const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
];

async function createCode(page: Page, data: Record<string, unknown>): Promise<QrCode> {
  const res = await page.request.post('/api/qr-codes', {
    data: { type: 'url', isDynamic: true, content: 'https://example.com/menu', ...data },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as QrCode;
}

/** Scans as phones would make them: the short link, not followed, once per user agent. */
async function scan(code: QrCode, agents: string[]) {
  const path = new URL(code.shortUrl!).pathname;
  for (const agent of agents) {
    const res = await fetch(`${app.server.url}${path}`, {
      headers: { 'user-agent': agent },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
  }
}

/** A browser that never signed in: a context of its own, with axe for the audits. */
async function signedOut(browser: Browser, viewport = desktop) {
  const context = await browser.newContext({ baseURL: app.server.url, viewport, colorScheme: 'light' });
  await installAxe(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Makes a link in the open dialog and answers its URL. */
async function makeLink(page: Page, password?: string): Promise<string> {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  if (password) await dialog.getByLabel('Password (optional)').fill(password);
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const link = dialog.getByRole('textbox', { name: 'New link' });
  await link.waitFor();
  const url = await link.inputValue();
  expect(url).toMatch(/\/share\/[A-Za-z0-9_-]{22,}$/);
  return url;
}

let codeLink = '';
let springId = 0;
let owner: Awaited<ReturnType<typeof signUpNewUser>> | undefined;

describe('shared dashboards', () => {
  it('a code’s link, with a password, opens signed out: the form, then its charts', async () => {
    owner = await signUpNewUser(app, 'share');
    const { page } = owner;
    await installAxe(owner.context);
    const code = await createCode(page, { name: 'Spring menu' });
    springId = code.id;
    await scan(code, [...AGENTS, AGENTS[0]!]);

    await page.goto(`/qr-details/${code.id}`);
    await page.getByRole('button', { name: 'Share analytics' }).click();
    codeLink = await makeLink(page, 'open sesame');
    const dialog = page.getByRole('dialog');
    await dialog.locator('[data-share-link]').first().waitFor();
    expect(await dialog.locator('[data-share-link]').count()).toBe(1);
    expect(await dialog.locator('[data-share-link]').first().innerText()).toContain('password');
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'shared-dashboard-dialog-1280', { fullPage: false });
    await page.keyboard.press('Escape');

    // A colleague, never signed in.
    const { context, page: guest } = await signedOut(app.browser);
    const path = new URL(codeLink).pathname;
    // The page calls the REST paths with fetch: no tRPC client, no app frame.
    const trpcCalls: string[] = [];
    guest.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/trpc')) trpcCalls.push(r.url());
    });
    const html = await guest.goto(path);
    expect(html!.headers()['x-robots-tag']).toBe('noindex');
    await guest.getByRole('heading', { name: 'This dashboard is protected' }).waitFor();
    expect(await guest.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await audit(guest)).toEqual([]);
    await screenshot(guest, 'shared-dashboard-password-1280', { fullPage: false });
    await guest.getByRole('textbox', { name: 'Password' }).fill('open sesame');
    await guest.getByRole('button', { name: 'Open' }).click();
    await guest.getByRole('heading', { name: 'Analytics of Spring menu' }).waitFor();
    const total = guest.getByRole('group', { name: 'Total Scans' }).locator('[data-stat-value]');
    expect(await total.innerText()).toBe('5');
    // The charts: scans over time, devices, hours and countries.
    await guest.locator('[data-chart="hourly"]').waitFor();
    await guest.getByRole('heading', { name: 'Scans Over Time' }).waitFor();
    await guest.getByRole('heading', { name: 'Device Distribution' }).waitFor();
    await guest.getByRole('heading', { name: 'Scans by Country' }).waitFor();
    // Never the owner's name, the destination or the short link.
    const text = await guest.locator('body').innerText();
    for (const secret of [owner.username, 'example.com/menu', code.slug!]) expect(text).not.toContain(secret);
    // Another period asks again.
    await guest.getByRole('combobox', { name: 'Period' }).click();
    await guest.getByRole('option', { name: 'Last 7 days' }).click();
    await expect.poll(() => total.innerText()).toBe('5');
    expect(await audit(guest)).toEqual([]);
    await screenshot(guest, 'shared-dashboard-code-1280');
    expect(trpcCalls).toEqual([]);

    // On a phone: the same page without sideways scrolling (the unlocking cookie goes along).
    const { context: small, page: phonePage } = await signedOut(app.browser, phone);
    await small.addCookies(await context.cookies());
    await phonePage.goto(path);
    await phonePage.getByRole('heading', { name: 'Analytics of Spring menu' }).waitFor();
    await phonePage.locator('[data-chart="hourly"]').waitFor();
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await audit(phonePage)).toEqual([]);
    await screenshot(phonePage, 'shared-dashboard-code-375');
    await small.close();
    await context.close();
  });

  it('a folder’s link lists its codes; a revoked link shows the not-found page', async () => {
    const { page } = owner!;
    const folderRes = await page.request.post('/api/folders', { data: { name: 'Posters' } });
    expect(folderRes.status()).toBe(201);
    const folder = (await folderRes.json()) as { id: number };
    const poster = await createCode(page, { name: 'Station poster', folderId: folder.id });
    await scan(poster, AGENTS.slice(0, 2));

    await page.goto('/my-qr-codes');
    await page.getByRole('button', { name: 'Share analytics of folder Posters' }).click();
    const folderLink = await makeLink(page);
    await page.keyboard.press('Escape');

    const { context, page: guest } = await signedOut(app.browser);
    await guest.goto(new URL(folderLink).pathname);
    await guest.getByRole('heading', { name: 'Analytics of Posters' }).waitFor();
    const table = guest.locator('[data-shared-codes]');
    await table.waitFor();
    expect(await table.innerText()).toContain('Station poster');
    expect(
      await guest.getByRole('group', { name: 'Total Scans' }).locator('[data-stat-value]').innerText(),
    ).toBe('2');
    expect(await audit(guest)).toEqual([]);
    await screenshot(guest, 'shared-dashboard-folder-1280');

    // The owner revokes the code's link (with a confirm); it then opens on the not-found page.
    await page.goto(`/qr-details/${springId}`);
    await page.getByRole('button', { name: 'Share analytics' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('[data-share-link]').first().waitFor();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByRole('button', { name: 'Yes, revoke' }).click();
    await dialog.getByText('No active links.').waitFor();

    allowConsoleErrors(guest, /404/);
    await guest.goto(new URL(codeLink).pathname);
    await guest.getByRole('heading', { name: 'Link not found' }).waitFor();
    expect(await guest.getByText('This shared dashboard does not exist or has expired').count()).toBe(1);
    expect(await audit(guest)).toEqual([]);
    await screenshot(guest, 'shared-dashboard-gone-1280', { fullPage: false });
    const { context: small, page: phonePage } = await signedOut(app.browser, phone);
    allowConsoleErrors(phonePage, /404/);
    await phonePage.goto(new URL(codeLink).pathname);
    await phonePage.getByRole('heading', { name: 'Link not found' }).waitFor();
    await screenshot(phonePage, 'shared-dashboard-gone-375', { fullPage: false });
    await small.close();
    await context.close();
  });
});
