// Imports that keep every slug (issue 35, item 3) as an owner meets them, on the production build: My QR
// Codes → Import links → Shlink's CSV export uploaded → the review lists its links, one of them in conflict
// with a code of theirs → renamed → imported with a progress bar → the result counts them → My QR Codes
// lists the new codes, whose details show the same short link and where they came from. Screenshots of the
// review and the result at 1280 and 375 px, light and dark, with a WCAG audit and no page wider than a phone.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { audit, Findings, installAxe } from './a11y';
import { allowConsoleErrors, desktop, phone, screenshot, signUpNewUser, withAppServer } from './harness';

const app = withAppServer({ FREE_PLAN_LIMIT: '50' });

/** A Shlink web client's export: its header (server/features/imports/fixtures/shlink-short-urls.csv), 5 links. */
const shlinkCsv = [
  '"createdAt","domain","shortCode","shortUrl","longUrl","title","tags","visits"',
  '"2024-03-01T10:00:00+00:00","s.example.com","menu","https://s.example.com/menu","https://example.com/lunch/menu","Lunch menu at the harbour","food",120',
  '"2024-03-02T11:00:00+00:00","s.example.com","wine-list","https://s.example.com/wine-list","https://example.com/wine?utm_source=qr&utm_medium=print&utm_campaign=spring-2024-tables","Wine list","drinks|print",34',
  '"2024-03-03T12:00:00+00:00","s.example.com","Spring24","https://s.example.com/Spring24","https://shop.example.com/sale","Spring sale","promo",1342',
  '"2024-03-04T13:00:00+00:00","s.example.com","hours","https://s.example.com/hours","https://example.com/opening-hours","","",0',
  '"2024-03-05T14:00:00+00:00","s.example.com","contact-us","https://s.example.com/contact-us","https://example.com/contact","Contact","",7',
].join('\n');

async function listCodes(page: Page): Promise<QrCode[]> {
  const res = await page.request.get('/api/qr-codes');
  expect(res.status()).toBe(200);
  return (await res.json()) as QrCode[];
}

/** The page is no wider than the window: nothing to scroll sideways. */
async function noSideScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/** The page audited and pictured at 1280 and 375 px, light and dark; back at 1280 px, light, after. */
async function lookAt(page: Page, findings: Findings, step: string) {
  for (const [width, viewport] of [
    [1280, desktop],
    [375, phone],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction(
        (s) => document.documentElement.getAttribute('data-mantine-color-scheme') === s,
        scheme,
      );
      await noSideScroll(page);
      findings.add(`import ${step} ${scheme} ${width}px`, await audit(page));
      await screenshot(page, `link-import-${step}-${scheme}-${width}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(desktop);
}

describe('importing links', () => {
  it('brings a Shlink export with every slug kept, a conflict renamed, into codes with their origin', async () => {
    const { context, page } = await signUpNewUser(app, 'importer');
    await installAxe(context);
    const findings = new Findings();
    const made = await page.request.post('/api/qr-codes', {
      data: {
        name: 'Old menu',
        type: 'url',
        content: 'https://example.com/old-menu',
        isDynamic: true,
        slug: 'menu',
      },
    });
    expect(made.status(), await made.text()).toBe(201);

    // My QR Codes → Import links.
    await page.goto('/my-qr-codes');
    await page.getByRole('link', { name: 'Import links' }).click();
    await page.waitForURL((u) => u.pathname === '/import');
    await page.getByRole('heading', { name: 'Import links' }).first().waitFor();
    await page.getByText('Short URLs → Export').waitFor();
    await lookAt(page, findings, 'source');

    // A connection refused is said on its field, with what was typed kept.
    allowConsoleErrors(page, /status of 400.*imports\.connect/);
    await page.getByText('Connect with an API key', { exact: true }).click();
    await page.getByLabel(/^Server address/).fill('http://127.0.0.1:9');
    await page.getByLabel(/^API key/).fill('a-key-of-mine');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(/This address is on a private network/).waitFor();
    expect(await page.getByLabel(/^Server address/).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel(/^API key/).inputValue()).toBe('a-key-of-mine');
    await page.getByText('Upload an export', { exact: true }).click();

    // Shlink (the first source), its export uploaded.
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'short-urls.csv', mimeType: 'text/csv', buffer: Buffer.from(shlinkCsv) });
    await page.getByRole('button', { name: 'Read file' }).click();

    // The review: in the address (a reload resumes it), the summary, the conflict in words.
    await page.waitForURL((u) => u.pathname === '/import' && u.searchParams.has('id'));
    const summary = page.locator('[data-import-summary]');
    await expect
      .poll(() => summary.textContent())
      .toBe('5 links from Shlink · no visit history · 1 conflict');
    const conflict = page.getByText('Your code “Old menu” has this short link');
    await conflict.waitFor();
    expect(await page.getByRole('radio', { name: 'Conflicts (1)' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Import 4 links' }).isEnabled()).toBe(true);
    await page.reload();
    await conflict.waitFor();
    await lookAt(page, findings, 'review');

    // Renamed: menu-2 offered, checked live, then taken as typed.
    await page.getByRole('combobox', { name: 'Decision for menu', exact: true }).click();
    await page.getByRole('option', { name: 'Rename' }).click();
    const rename = page.getByLabel('New short link for menu', { exact: true });
    await expect.poll(() => rename.inputValue()).toBe('menu-2');
    await rename.fill('wine-list');
    await page.getByText('Row 2 has the same short link').waitFor();
    expect(await page.getByRole('button', { name: 'Import 5 links' }).isDisabled()).toBe(true);
    await rename.fill('menu-2');
    await expect.poll(() => page.getByText('Row 2 has the same short link').count()).toBe(0);
    await lookAt(page, findings, 'renamed');

    await page.getByRole('button', { name: 'Import 5 links' }).click();
    const result = page.getByRole('region', { name: '5 links imported' });
    await result.waitFor({ timeout: 30_000 });
    await expect.poll(() => result.locator('[data-count="created"]').textContent()).toBe('5Created');
    await expect.poll(() => result.locator('[data-count="failed"]').textContent()).toBe('0Failed');
    await lookAt(page, findings, 'result');

    // The codes: the same back-halves (case kept), menu renamed; the old code untouched.
    const codes = await listCodes(page);
    expect(codes.map((c) => c.slug).sort()).toEqual(
      ['menu', 'menu-2', 'wine-list', 'Spring24', 'hours', 'contact-us'].sort(),
    );
    expect(codes.find((c) => c.slug === 'menu')?.content).toBe('https://example.com/old-menu');
    const spring = codes.find((c) => c.slug === 'Spring24')!;
    expect(spring.isDynamic).toBe(true);
    expect(spring.content).toBe('https://shop.example.com/sale');
    expect(spring.shortUrl).toMatch(/\/r\/Spring24$/);

    // My QR Codes lists them.
    await result.getByRole('link', { name: 'Open My QR Codes' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await expect.poll(() => page.getByRole('article').count()).toBe(6);
    await page.getByRole('article', { name: 'Spring sale' }).waitFor();
    await page.getByRole('article', { name: 'Lunch menu at the harbour' }).waitFor();
    await page.getByRole('article', { name: 's.example.com/hours' }).waitFor();

    // The imported code's details: its short link with the same back-half, and where it came from.
    await page.goto(`/qr-details/${spring.id}`);
    await page.getByText(spring.shortUrl!, { exact: true }).waitFor();
    const note = page.locator('[data-import-note]');
    await expect.poll(() => note.textContent()).toMatch(/^Imported from Shlink on \d{1,2} \w{3,4} \d{4}/);
    expect(await note.textContent()).toContain('https://s.example.com/Spring24');
    await screenshot(page, 'link-import-details-1280', { fullPage: false });
    // A code made here says nothing of the kind.
    const asked = page.waitForResponse((r) => r.url().includes('imports.ofCode'));
    await page.goto(`/qr-details/${codes.find((c) => c.slug === 'menu')!.id}`);
    await asked;
    await page.getByText('Old menu').first().waitFor();
    expect(await note.count()).toBe(0);

    expect(findings.count, findings.report()).toBe(0);
    await context.close();
  });
});
