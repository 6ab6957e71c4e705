// Bulk create on My QR Codes, on the production build: a spreadsheet with a bad row and more rows than the
// plan allows → its columns guessed → every row checked (the bad one says why) → the plan limit said
// before anything is created → the first rows that fit created in one call → the ZIP of images downloaded,
// opened and every image decoded → the codes in My QR Codes, in the folder the file named. Last, the
// dynamic codes put on a short domain the admin added, chosen in the dialog.
import { unzipSync, strFromU8 } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { decodeQr } from '../../server/test/qr-decode';
import type { QrCode } from '../../src/qr/qr.schema';
import type { AvailableDomains } from '../../src/qr/short-domain.schema';
import {
  addShortDomainAsAdmin,
  desktop,
  downloadBytes,
  phone,
  screenshot,
  signUpNewUser,
  withAppServer,
} from './harness';

const ADMIN_PASSWORD = 'admin-e2e-password';
// Room for 4 codes: the file's 5 good rows do not all fit.
const app = withAppServer({ FREE_PLAN_LIMIT: '4', ADMIN_PASSWORD });

const newUser = (viewport = desktop) => signUpNewUser(app, 'bulk', viewport);

const csv = [
  'Name,Link,Folder,Dynamic',
  'Table 1,https://example.com/table/1,Tables,yes',
  'Table 2,https://example.com/table/2,Tables,yes',
  'Broken,javascript:alert(1),Tables,yes',
  'Table 3,example.com/table/3,Tables,no',
  'Table 4,https://example.com/table/4,Tables,yes',
  'Table 5,https://example.com/table/5,,yes',
].join('\n');

async function openBulk(page: Page, file = csv) {
  await page.goto('/my-qr-codes');
  await page.getByRole('button', { name: 'Bulk create' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bulk create QR codes' });
  await dialog.waitFor();
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'tables.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  await dialog.getByRole('button', { name: 'Check the rows' }).waitFor();
  return dialog;
}

describe('bulk create', () => {
  it('turns a spreadsheet into named codes in a folder, within the plan, and a ZIP of scannable images', async () => {
    const { context, page } = await newUser();
    const dialog = await openBulk(page);

    // The columns were guessed from their headers.
    await expect.poll(() => dialog.getByLabel('Column Name becomes').inputValue()).toBe('Name');
    await expect.poll(() => dialog.getByLabel('Column Link becomes').inputValue()).toBe('URL');
    await expect.poll(() => dialog.getByLabel('Column Folder becomes').inputValue()).toBe('Folder');
    await expect.poll(() => dialog.getByLabel('Column Dynamic becomes').inputValue()).toBe('Dynamic');
    await screenshot(page, 'bulk-columns-1280', { fullPage: false });
    await dialog.getByRole('button', { name: 'Check the rows' }).click();

    // Every row checked: the bad one says why; the plan's room is said before anything is created.
    const summary = dialog.getByRole('status', { name: 'Rows checked' });
    await expect.poll(() => summary.textContent()).toContain('5 rows ready, 1 row with problems');
    const table = dialog.getByRole('table', { name: 'Rows of the file' });
    await expect.poll(() => table.locator('tr[data-row-ok="false"]').textContent()).toMatch(/URL/);
    await expect.poll(() => dialog.textContent()).toContain('Only 4 more codes fit your plan');
    const createAll = dialog.getByRole('button', { name: 'Create 5 QR codes' });
    expect(await createAll.isDisabled()).toBe(true);
    await screenshot(page, 'bulk-check-1280', { fullPage: false });
    // No short domain on this server yet: nothing to choose.
    expect(await dialog.getByRole('combobox', { name: 'Short domain' }).count()).toBe(0);

    await dialog.getByLabel('The first 4 rows, and leave out the rest').check();
    await dialog
      .getByRole('group', { name: 'Templates' })
      .getByRole('button', { name: /Blue Modern/ })
      .click();
    await dialog.getByRole('button', { name: 'Create 4 QR codes' }).click();
    await expect.poll(() => dialog.textContent(), { timeout: 20_000 }).toContain('4 QR codes created');
    await expect.poll(() => dialog.textContent()).toContain('Row 6:');

    const res = await page.request.get('/api/qr-codes');
    const codes = (await res.json()) as QrCode[];
    expect(codes.map((c) => c.name).sort()).toEqual(['Table 1', 'Table 2', 'Table 3', 'Table 4']);
    expect(codes.find((c) => c.name === 'Table 3')?.isDynamic).toBe(false);
    expect(codes.find((c) => c.name === 'Table 3')?.content).toBe('https://example.com/table/3');
    // One design for all: the template's foreground.
    expect(new Set(codes.map((c) => c.customization.foregroundColor)).size).toBe(1);
    expect(codes[0]!.customization.foregroundColor).not.toBe('#000000');

    // The ZIP: one PNG per code, named after it, and codes.csv; every image decodes to its code.
    const downloadEvent = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download ZIP' }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toBe('qr-codes.zip');
    const files = unzipSync(new Uint8Array(await downloadBytes(download)));
    expect(Object.keys(files).sort()).toEqual([
      'Table 1.png',
      'Table 2.png',
      'Table 3.png',
      'Table 4.png',
      'codes.csv',
    ]);
    for (const code of codes) {
      const [text] = await decodeQr(Buffer.from(files[`${code.name}.png`]!));
      expect(text).toBe(code.shortUrl ?? code.content);
    }
    expect(strFromU8(files['codes.csv']!)).toContain('id,name,short_url');
    // The server checks the new codes in the background: each gets its verdict.
    await expect
      .poll(
        async () =>
          ((await (await page.request.get('/api/qr-codes')).json()) as QrCode[]).map(
            (c) => c.scannable?.verdict ?? null,
          ),
        { timeout: 30_000 },
      )
      .toEqual(['scannable', 'scannable', 'scannable', 'scannable']);
    await screenshot(page, 'bulk-done-1280', { fullPage: false });
    await dialog.getByRole('button', { name: 'Done' }).click();

    // In My QR Codes, in the folder the file named.
    await expect.poll(() => page.getByRole('article').count()).toBe(4);
    const folders = (await (await page.request.get('/api/folders')).json()) as { id: number; name: string }[];
    const tables = folders.find((f) => f.name === 'Tables');
    expect(tables).toBeDefined();
    expect(
      codes
        .filter((c) => c.folderId === tables!.id)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['Table 1', 'Table 2', 'Table 3', 'Table 4']);
    await expect.poll(() => page.getByText(/^In Tables/).count()).toBe(4);
    await screenshot(page, 'bulk-list-1280', { fullPage: false });
    await context.close();
  });

  it('works on a phone (375 px)', async () => {
    const { context, page } = await newUser(phone);
    const dialog = await openBulk(page);
    await screenshot(page, 'bulk-columns-375', { fullPage: false });
    await dialog.getByRole('button', { name: 'Check the rows' }).click();
    await expect
      .poll(() => dialog.getByRole('status', { name: 'Rows checked' }).textContent())
      .toContain('5 rows ready');
    await dialog.getByText('With problems (1)').click();
    await expect.poll(() => dialog.locator('tr[data-row-ok]').count()).toBe(1);
    await screenshot(page, 'bulk-check-375', { fullPage: false });
    await context.close();
  });

  // Last: the domain it adds is offered to every workspace of this server from then on.
  it('puts the dynamic codes on a short domain chosen in the dialog', async () => {
    const domain = await addShortDomainAsAdmin(app, ADMIN_PASSWORD, 'go.bulk.test');

    const { context, page } = await newUser();
    const available = (await (await page.request.get('/api/short-domains')).json()) as AvailableDomains;
    // The app's own address as the designer's Domain select names it: its base without the scheme.
    const appAddress = available.defaultBase.replace(/^https?:\/\//, '');
    // No Dynamic column: the switch decides.
    const dialog = await openBulk(
      page,
      ['Name,Link', 'Menu A,https://example.com/a', 'Menu B,https://example.com/b'].join('\n'),
    );
    const select = dialog.getByRole('combobox', { name: 'Short domain' });
    const dynamicSwitch = dialog.getByLabel('Dynamic (rows without a Dynamic column)');
    const summary = dialog.getByRole('status', { name: 'Rows checked' });

    // Static codes have no short link: no select.
    await dynamicSwitch.uncheck();
    await dialog.getByRole('button', { name: 'Check the rows' }).click();
    await expect.poll(() => summary.textContent()).toContain('2 rows ready');
    expect(await select.count()).toBe(0);
    await dialog.getByRole('button', { name: 'Back' }).click();
    await dynamicSwitch.check();
    await dialog.getByRole('button', { name: 'Check the rows' }).click();
    await expect.poll(() => summary.textContent()).toContain('2 rows ready');

    // Dynamic: the app's own address first, then the domain; chosen with the keyboard.
    await select.waitFor();
    expect(await select.inputValue()).toBe(appAddress);
    await select.focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('option').allTextContents()).toEqual([appAddress, 'go.bulk.test']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => select.inputValue()).toBe('go.bulk.test');
    await expect.poll(() => page.getByRole('listbox').count()).toBe(0);

    await select.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'bulk-domain-1280', { fullPage: false });
    await page.setViewportSize(phone);
    await select.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    const box = await select.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(phone.width);
    await screenshot(page, 'bulk-domain-375', { fullPage: false });
    await page.setViewportSize(desktop);

    await dialog.getByRole('button', { name: 'Create 2 QR codes' }).click();
    await expect.poll(() => dialog.textContent(), { timeout: 20_000 }).toContain('2 QR codes created');

    // On the domain: its link at the root, `<scheme>://go.bulk.test/<slug>` (the scheme is PUBLIC_URL's).
    const codes = (await (await page.request.get('/api/qr-codes')).json()) as QrCode[];
    expect(codes.map((c) => c.name).sort()).toEqual(['Menu A', 'Menu B']);
    expect(domain.shortLinkBase).toMatch(/^https?:\/\/go\.bulk\.test\/$/);
    for (const code of codes) {
      expect(code.isDynamic).toBe(true);
      expect(code.domainId).toBe(domain.id);
      expect(code.slug).toBeTruthy();
      expect(code.shortUrl).toBe(`${domain.shortLinkBase}${code.slug}`);
    }

    // My QR Codes shows each code's link on the domain.
    await dialog.getByRole('button', { name: 'Done' }).click();
    for (const code of codes) {
      await page
        .getByRole('article')
        .filter({ hasText: code.name })
        .getByText(code.shortUrl!, { exact: true })
        .waitFor();
    }
    await screenshot(page, 'bulk-domain-list-1280', { fullPage: false });
    await context.close();
  });
});
