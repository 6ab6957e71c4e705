// The designer's live scan check on the production build: the verdict badge follows every change of the
// design, its one-click fixes repair the design, a design that won't scan is created or downloaded only
// after the user confirms it, and the list and details page flag such a code (the server's verdict).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { desktop, phone, screenshot, signUpNewUser, withAppServer } from './harness';

const app = withAppServer({ FREE_PLAN_LIMIT: '50' });

const newUser = (viewport = desktop) => signUpNewUser(app, 'scansafe', viewport);

const check = (page: Page) => page.getByRole('status', { name: 'Scan check' });

/** The verdict the designer shows once its check has settled (null while it is checking). */
async function verdictNow(page: Page): Promise<string | null> {
  if ((await check(page).getAttribute('data-scan-check')) !== 'done') return null;
  return check(page).locator('[data-scan-verdict]').getAttribute('data-scan-verdict');
}

/** Waits until the check has settled on `verdict`. */
async function expectVerdict(page: Page, verdict: string) {
  await expect.poll(() => verdictNow(page), { timeout: 20_000 }).toBe(verdict);
}

async function openColours(page: Page) {
  const section = page.getByRole('button', { name: /^Colours/ });
  if ((await section.getAttribute('aria-expanded')) !== 'true') await section.click();
  await expect.poll(() => section.getAttribute('aria-expanded')).toBe('true');
}

async function setColour(page: Page, which: 'foreground' | 'background', hex: string) {
  const input = page.getByLabel(`Custom ${which} colour`);
  await input.fill(hex);
  await input.press('Escape');
}

async function codesOf(page: Page): Promise<QrCode[]> {
  const res = await page.request.get('/api/qr-codes');
  expect(res.status()).toBe(200);
  return (await res.json()) as QrCode[];
}

describe('scan check in the designer', () => {
  it('judges every change, repairs with one click, and asks before creating or downloading a code that will not scan', async () => {
    const { context, page } = await newUser();
    await page.goto('/create');
    await page.getByLabel(/^Name/).fill('Shop window');
    await page.getByLabel(/^URL/).fill('https://example.com/window');
    await page.getByLabel('Dynamic QR code').uncheck({ force: true });

    await expectVerdict(page, 'scannable');
    await expect.poll(() => check(page).textContent()).toContain('Scannable');
    await expect.poll(() => check(page).textContent()).toContain('Decodes to exactly your content');
    await screenshot(page, 'scan-check-scannable-1280');

    // A pale foreground: it may still decode on screen, but print contrast is too low.
    await openColours(page);
    await setColour(page, 'foreground', '#D4D4D4');
    await expectVerdict(page, 'risky');
    await expect.poll(() => check(page).textContent()).toContain('differ by only');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'scan-check-risky-1280', { fullPage: false });
    await check(page).getByRole('button', { name: 'Darken the foreground' }).click();
    await expectVerdict(page, 'scannable');

    // Light on dark: decodes only inverted; Swap colours puts it right.
    await setColour(page, 'foreground', '#FFFFFF');
    await setColour(page, 'background', '#000000');
    await expectVerdict(page, 'risky');
    await expect.poll(() => check(page).textContent()).toContain('lighter than its background');
    await check(page).getByRole('button', { name: 'Swap colours' }).click();
    await expectVerdict(page, 'scannable');

    // White on white: nothing to read.
    await setColour(page, 'foreground', '#FFFFFF');
    await setColour(page, 'background', '#FFFFFF');
    await expectVerdict(page, 'unscannable');
    await expect.poll(() => check(page).textContent()).toContain("Won't scan");
    await screenshot(page, 'scan-check-unscannable-1280');

    // Downloading asks first; going back downloads nothing.
    await page.getByRole('button', { name: 'Download' }).click();
    await page.getByRole('menuitem', { name: 'PNG image' }).click();
    const dialog = page.getByRole('dialog', { name: "This code won't scan" });
    await dialog.waitFor();
    await expect.poll(() => dialog.textContent()).toContain('No scanner could read it');
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Creating asks too; "Create anyway" creates it, and the server's own check agrees.
    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await dialog.waitFor();
    await screenshot(page, 'scan-check-confirm-1280', { fullPage: false });
    await dialog.getByRole('button', { name: 'Create anyway' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    const [code] = await codesOf(page);
    expect(code?.name).toBe('Shop window');
    expect(code?.scannable?.verdict).toBe('unscannable');

    // The list flags it, and its download asks before saving a file.
    const card = page.getByRole('article', { name: 'Shop window' });
    await expect
      .poll(() => card.locator('[data-scan-verdict]').getAttribute('data-scan-verdict'))
      .toBe('unscannable');
    await screenshot(page, 'scan-check-list-1280');
    let downloads = 0;
    page.on('download', () => downloads++);
    await card.getByRole('button', { name: 'Download' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Go back' }).click();
    expect(downloads).toBe(0);
    const downloadEvent = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download' }).click();
    await dialog.getByRole('button', { name: 'Download anyway' }).click();
    expect((await downloadEvent).suggestedFilename()).toMatch(/\.png$/);

    // The details page says why.
    await page.goto(`/qr-details/${code!.id}`);
    await expect
      .poll(() => page.locator('[data-scan-reason]').first().textContent())
      .toContain('No scanner could read it');
    await context.close();
  });

  it('checks a dynamic code with a short link like its own, and says when only large prints scan (375 px)', async () => {
    const { context, page } = await newUser(phone);
    await page.goto('/create');
    await page.getByLabel(/^Name/).fill('Poster');
    await page.getByLabel(/^URL/).fill('https://example.com/poster');
    expect(await page.getByLabel('Dynamic QR code').isChecked()).toBe(true);
    await expectVerdict(page, 'scannable');
    await expect
      .poll(() => check(page).textContent())
      .toContain('Checked with a short link like the one it will hold.');
    await screenshot(page, 'scan-check-dynamic-375');

    // A long static text needs a dense symbol: at 1 cm it no longer decodes.
    await page.getByLabel('Dynamic QR code').uncheck({ force: true });
    await page.getByLabel(/^URL/).fill(`https://example.com/${'long-path-segment/'.repeat(40)}end`);
    await expectVerdict(page, 'risky');
    await expect
      .poll(() => check(page).textContent())
      .toMatch(/Only (prints at least \d cm wide|large prints) will scan/);
    await check(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'scan-check-dense-375', { fullPage: false });

    // The check's own timing, measured in the page: every check leaves a performance measure.
    const times = await page.evaluate(() =>
      performance.getEntriesByName('qr-scan-check').map((entry) => entry.duration),
    );
    expect(times.length).toBeGreaterThan(0);
    await context.close();
  });
});
