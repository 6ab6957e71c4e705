// Issue 29 on the production build, in one account and one page: a bulk import shows its codes' scan
// checks as they finish; the same file imported again flags every row it repeats (skip by default, or
// create anyway) and says how many were skipped; at the plan's limit /create says so at the top, with the
// upgrade path, before any design work, and Save Draft still keeps the design; the print-ready PDF is
// named with its printed width, never as the plain download.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { desktop, phone, screenshot, signUpNewUser, withAppServer } from './harness';

// Room for 4 codes: three from the first file, one new row of the second.
const app = withAppServer({ FREE_PLAN_LIMIT: '4' });

/** The path of an app link: app links also carry `?workspace=<id>`, which these checks do not mean. */
const pathOf = (href: string | null) => (href === null ? null : new URL(href, 'http://app.test').pathname);

const rows = [
  'Table 1,https://example.com/table/1,yes',
  'Table 2,https://example.com/table/2,yes',
  'Table 3,https://example.com/table/3,no',
];
const firstFile = ['Name,Link,Dynamic', ...rows].join('\n');
const secondFile = ['Name,Link,Dynamic', ...rows, 'Table 4,https://example.com/table/4,yes'].join('\n');

async function importFile(page: Page, name: string, csv: string): Promise<Locator> {
  await page.goto('/my-qr-codes');
  await page.getByRole('button', { name: 'Bulk create' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bulk create QR codes' });
  await dialog.waitFor();
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Check the rows' }).click();
  return dialog;
}

const codesOf = async (page: Page) => (await (await page.request.get('/api/qr-codes')).json()) as QrCode[];

describe('bulk repeats, the limit before the work, print file names', () => {
  it('skips repeats of a second import, says the limit on /create and names the print PDF by its size', async () => {
    const { context, page } = await signUpNewUser(app, 'repeats', desktop);

    // First import: three codes, whose scan checks finish while the dialog is open.
    let dialog = await importFile(page, 'tables.csv', firstFile);
    await dialog.getByRole('button', { name: 'Create 3 QR codes' }).click();
    await expect.poll(() => dialog.textContent(), { timeout: 20_000 }).toContain('3 QR codes created');
    const checks = dialog.getByRole('status', { name: 'Scan checks' });
    await expect
      .poll(() => checks.textContent(), { timeout: 30_000 })
      .toBe('Scans checked: all 3 scan well.');
    await screenshot(page, 'bulk-scan-checks-1280', { fullPage: false });
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The same file with one new row: the three repeats are flagged and skipped by default.
    dialog = await importFile(page, 'tables-again.csv', secondFile);
    const alert = dialog.getByRole('alert').filter({ hasText: 'repeat codes you already have' });
    await expect.poll(() => alert.textContent()).toContain('3 rows repeat codes you already have');
    await expect.poll(() => dialog.locator('tr[data-repeat]').count()).toBe(3);
    expect(await dialog.getByLabel('Skip repeats').isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Create 1 QR code' }).waitFor();
    await screenshot(page, 'bulk-repeats-1280', { fullPage: false });

    // Create anyway: all four, more than the plan's room.
    await dialog.getByLabel('Create anyway').check();
    await expect.poll(() => dialog.textContent()).toContain('Only 1 more code fits your plan');
    expect(await dialog.getByRole('button', { name: 'Create 4 QR codes' }).isDisabled()).toBe(true);
    await page.setViewportSize(phone);
    await dialog.getByLabel('Skip repeats').check();
    await screenshot(page, 'bulk-repeats-375', { fullPage: false });
    await dialog.getByRole('button', { name: 'Create 1 QR code' }).click();
    await expect.poll(() => dialog.textContent(), { timeout: 20_000 }).toContain('1 QR code created');
    await expect.poll(() => dialog.textContent()).toContain('3 rows repeat codes you already have: skipped.');
    await screenshot(page, 'bulk-repeats-done-375', { fullPage: false });
    await page.setViewportSize(desktop);
    await screenshot(page, 'bulk-repeats-done-1280', { fullPage: false });
    await dialog.getByRole('button', { name: 'Done' }).click();
    const codes = await codesOf(page);
    expect(codes.map((c) => c.name).sort()).toEqual(['Table 1', 'Table 2', 'Table 3', 'Table 4']);

    // 4 of 4: /create says so at the top, with the upgrade path; Save Draft still keeps the design.
    await page.goto('/create');
    const limit = page.getByRole('alert', { name: "You have reached your plan's limit" });
    await expect
      .poll(() => limit.textContent())
      .toContain(
        'You have used all 4 QR codes of the Free plan (static and dynamic codes both count). Upgrade to Pro to create up to 100, delete a code you no longer need, or save this design as a draft.',
      );
    const upgrade = await limit.getByRole('link', { name: 'Upgrade to Pro' }).getAttribute('href');
    expect(pathOf(upgrade)).toBe('/upgrade');
    await page.getByLabel(/^Name/).fill('Spring menu');
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await page.getByText('Your draft is kept in this browser until you create the code.').first().waitFor();
    await screenshot(page, 'create-limit-1280', { fullPage: false });
    await page.setViewportSize(phone);
    await screenshot(page, 'create-limit-375', { fullPage: false });
    await page.reload();
    await expect.poll(() => page.getByLabel(/^Name/).inputValue()).toBe('Spring menu');
    await page.setViewportSize(desktop);

    // The print-ready PDF: named with its width, not as the plain PDF (table-1.pdf).
    const table1 = codes.find((c) => c.name === 'Table 1')!;
    await page.goto(`/qr-details/${table1.id}`);
    await page.getByRole('button', { name: 'Print-ready download' }).click();
    const print = page.getByRole('dialog', { name: 'Print-ready download' });
    await print.getByLabel('Print width (cm)').fill('5');
    await print.getByText('PDF', { exact: true }).click();
    const pdf = page.waitForEvent('download');
    await print.getByRole('button', { name: 'Download', exact: true }).click();
    expect((await pdf).suggestedFilename()).toBe('table-1-5cm.pdf');
    await print.getByLabel('Print width (cm)').fill('2.5');
    const small = page.waitForEvent('download');
    await print.getByRole('button', { name: 'Download', exact: true }).click();
    expect((await small).suggestedFilename()).toBe('table-1-25mm.pdf');
    await context.close();
  });
});
