// A code's history on its details page: two edits of its link through the designer are two versions
// saying before → after; restoring the first brings its link back on the page and adds a version.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrVersion } from '../../src/qr/history';
import type { QrCode } from '../../src/qr/qr.schema';
import { desktop, newPage, phone, screenshot, screenshotDir, withAppServer } from './harness';

const app = withAppServer();

const FIRST = 'https://example.com/spring-menu';
const SECOND = 'https://example.com/summer-menu';
const THIRD =
  'https://example.com/autumn-menu-with-a-rather-long-path/and-more/segments?campaign=poster-2026';

async function registerAndCreate(page: Page): Promise<QrCode> {
  const username = `history${Date.now() % 1_000_000}`;
  const registered = await page.request.post('/api/register', {
    data: { username, password: 'history-pass-1', name: 'History User', email: `${username}@example.com` },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const created = await page.request.post('/api/qr-codes', {
    data: { name: 'Menu poster', type: 'url', content: FIRST, isDynamic: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as QrCode;
}

/** Changes the code's link through /edit-qr like a user would, and saves. */
async function editLink(page: Page, id: number, from: string, to: string) {
  await page.goto(`/edit-qr/${id}`);
  const url = page.getByLabel(/^URL/);
  await expect.poll(() => url.inputValue()).toBe(from);
  await url.fill(to);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.waitForURL((u) => u.pathname === '/my-qr-codes');
  await page.getByText('QR Code Updated').waitFor();
}

const versionItems = (page: Page): Locator =>
  page.getByRole('list', { name: 'Versions' }).getByRole('listitem');

/** Each version's heading, change lines and Restore button, top to bottom, as the page shows them. */
async function shownVersions(page: Page) {
  return versionItems(page).evaluateAll((items) =>
    items.map((item) => ({
      current: item.textContent?.includes('Current') ?? false,
      changes: [...item.querySelectorAll('[data-change]')].map((line) =>
        (line as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
      ),
      restore: [...item.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Restore'),
    })),
  );
}

/** A full-page picture from the top, so the fixed header is drawn where it belongs. */
async function fullPageShot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

async function noHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
}

describe('a code’s history', () => {
  it('lists each edit with before → after and restores the first version in one click', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, desktop);
    const code = await registerAndCreate(page);

    await editLink(page, code.id, FIRST, SECOND);
    await editLink(page, code.id, SECOND, THIRD);

    await page.goto(`/qr-details/${code.id}`);
    await page.getByRole('heading', { name: 'History', exact: true, level: 3 }).waitFor();
    await expect.poll(() => versionItems(page).count()).toBe(3);
    expect(await shownVersions(page)).toEqual([
      { current: true, changes: [`Destination: ${SECOND} → changed to ${THIRD}`], restore: false },
      { current: false, changes: [`Destination: ${FIRST} → changed to ${SECOND}`], restore: true },
      { current: false, changes: [], restore: true },
    ]);
    const created = versionItems(page).nth(2);
    await expect.poll(() => created.innerText()).toMatch(/Created[\s\S]*by history\d+[\s\S]*Menu poster/);
    // The exact time is a tooltip of the relative one.
    await created.locator('time').hover();
    await page.getByRole('tooltip').waitFor();
    await page.mouse.move(0, 0);
    await page.getByRole('tooltip').waitFor({ state: 'hidden' });
    await fullPageShot(page, 'history-desktop');

    // Restore the first version: asked first, then done.
    await created.getByRole('button', { name: 'Restore' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore this version?' });
    await dialog
      .getByText('The code will show it from the next scan; this restore is kept in the history too.')
      .waitFor();
    await expect.poll(() => dialog.innerText()).toContain(FIRST);
    await screenshot(page, 'history-restore-confirm', { fullPage: false });
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Version restored').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // A fourth version, the restore, is now the current one; the page shows the first link again.
    await expect.poll(() => versionItems(page).count()).toBe(4);
    const [top] = await shownVersions(page);
    expect(top).toEqual({
      current: true,
      changes: [`Destination: ${THIRD} → changed to ${FIRST}`],
      restore: false,
    });
    await expect.poll(() => versionItems(page).first().innerText()).toMatch(/^Restored the version of /);
    await page.getByText(`URL: ${FIRST}`, { exact: true }).waitFor();
    const saved = (await (await page.request.get(`/api/qr-codes/${code.id}`)).json()) as QrCode;
    expect(saved.content).toBe(FIRST);
    const history = (await (
      await page.request.get(`/api/qr-codes/${code.id}/history`)
    ).json()) as QrVersion[];
    expect(history.map((v) => [v.kind, v.state.content])).toEqual([
      ['restored', FIRST],
      ['edited', THIRD],
      ['edited', SECOND],
      ['created', FIRST],
    ]);
    expect(history[0]!.restoredFrom).toBe(history[3]!.id);
    await fullPageShot(page, 'history-restored-desktop');

    // On a phone the lines wrap: nothing scrolls sideways.
    await page.setViewportSize(phone);
    await page.reload();
    await expect.poll(() => versionItems(page).count()).toBe(4);
    expect(await noHorizontalScroll(page)).toBe(true);
    await fullPageShot(page, 'history-phone');
    // The card alone, at the phone's full resolution, to read its wrapped lines.
    const card = await page.locator('[data-history]').boundingBox();
    expect(card).not.toBeNull();
    await page.screenshot({
      path: path.join(screenshotDir, 'history-phone-card.png'),
      fullPage: true,
      clip: card!,
    });
    await context.close();
  });

  it('a static code shows its one version and no Restore button', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    const username = `static${Date.now() % 1_000_000}`;
    const registered = await page.request.post('/api/register', {
      data: { username, password: 'history-pass-1', name: 'Static User', email: `${username}@example.com` },
    });
    expect(registered.status()).toBe(201);
    const created = await page.request.post('/api/qr-codes', {
      data: { name: 'Wi-Fi', type: 'text', content: 'Hello there', isDynamic: false },
    });
    const code = (await created.json()) as QrCode;
    await page.goto(`/qr-details/${code.id}`);
    await expect.poll(() => versionItems(page).count()).toBe(1);
    expect(await shownVersions(page)).toEqual([{ current: true, changes: [], restore: false }]);
    await page.getByText('Static codes cannot be changed: this is the only version.').waitFor();
    expect(await noHorizontalScroll(page)).toBe(true);
    await context.close();
  });
});
