import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DailyCount, QrCodeAnalytics, UserSummary } from '../../src/analytics/analytics.schema';
import type { QrCode } from '../../src/qr/qr.schema';
import { desktop, phone, screenshot, signUpNewUser, withAppServer } from './harness';

// The short link sees each scan's address from X-Forwarded-For: three people are three addresses.
const app = withAppServer({ TRUST_PROXY: 'true' });

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** Console errors and uncaught exceptions of a page, to be none at the end. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

async function scanAs(page: Page, shortUrl: string, ua: string, ip: string) {
  const res = await page.request.get(shortUrl, {
    maxRedirects: 0,
    headers: { 'user-agent': ua, 'x-forwarded-for': ip },
  });
  expect(res.status()).toBe(302);
}

/** The card with this label, and the figure it shows. */
const card = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });
const figureOf = (page: Page, label: string) => card(page, label).locator('[data-stat-value]');

describe('unique scanners on the details page and in Analytics', () => {
  it('shows the daily-unique scanners beside the total, and per day in the chart and its table (1280 and 375 px)', async () => {
    const { context, page, username } = await signUpNewUser(app, 'uniq', desktop);
    const errors = watchErrors(page);
    const created = await page.request.post('/api/qr-codes', {
      data: { name: 'Menu board', type: 'url', content: 'https://example.com/menu', isDynamic: true },
    });
    expect(created.status(), await created.text()).toBe(201);
    const code = (await created.json()) as QrCode;

    // Ada twice, Ben once, Chloe once, and a crawler: 5 scans, 3 people.
    await scanAs(page, code.shortUrl!, IPHONE, '203.0.113.10');
    await scanAs(page, code.shortUrl!, IPHONE, '203.0.113.10');
    await scanAs(page, code.shortUrl!, ANDROID, '198.51.100.7');
    await scanAs(page, code.shortUrl!, IPHONE, '192.0.2.44');
    await scanAs(page, code.shortUrl!, GOOGLEBOT, '66.249.66.1');
    const details = (await (
      await page.request.get(`/api/analytics/qr-codes/${code.id}`)
    ).json()) as QrCodeAnalytics;
    expect([details.totalScans, details.uniqueScanners, details.uniqueScannersPartial]).toEqual([
      5,
      3,
      false,
    ]);

    await page.goto(`/qr-details/${code.id}`);
    await expect.poll(() => figureOf(page, 'Total Scans').textContent()).toBe('5');
    expect(await figureOf(page, 'Unique Scanners').textContent()).toBe('3');
    expect(await card(page, 'Unique Scanners').textContent()).toContain(
      'Daily-unique: a person scanning on two days counts twice',
    );
    // The chart draws both lines, and its table holds both columns.
    const chart = page.getByRole('region', { name: 'Scans Over Time' });
    await chart
      .getByRole('img', { name: 'Line chart: Scans and unique scanners per day, last 7 days' })
      .waitFor();
    await chart.locator('.recharts-line').nth(1).waitFor();
    await chart.getByRole('button', { name: 'Show as table' }).click();
    const table = chart.getByRole('table');
    await table.waitFor();
    expect(await table.locator('thead th').allTextContents()).toEqual(['Day', 'Scans', 'Unique scanners']);
    const lastRow = await table.locator('tbody tr').last().locator('th, td').allTextContents();
    expect(lastRow.slice(1)).toEqual(['5', '3']);
    await chart.getByRole('button', { name: 'Hide table' }).click();
    await screenshot(page, 'unique-scanners-details-desktop');

    // Analytics → Overview: the account's figure, summed per code.
    await page.goto('/analytics');
    await expect.poll(() => figureOf(page, 'Unique Scanners').textContent()).toBe('3');
    expect(await card(page, 'Unique Scanners').textContent()).toContain('Daily-unique, per code');
    const summary = (await (await page.request.get('/api/analytics/user?days=7')).json()) as UserSummary;
    expect([summary.totalScans, summary.uniqueScanners]).toEqual([5, 3]);
    const daily = (await (await page.request.get('/api/analytics/daily?days=7')).json()) as DailyCount[];
    expect(daily.reduce((s, d) => s + (d.uniqueScanners ?? 0), 0)).toBe(3);
    await screenshot(page, 'unique-scanners-analytics-desktop', { fullPage: false });

    // A phone: the cards stack, nothing runs off the screen.
    await page.setViewportSize(phone);
    await page.goto(`/qr-details/${code.id}`);
    await expect.poll(() => figureOf(page, 'Unique Scanners').textContent()).toBe('3');
    await card(page, 'Unique Scanners').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await screenshot(page, 'unique-scanners-details-phone');

    expect(errors, `${username}: console errors`).toEqual([]);
    await context.close();
  });

  it('says — and "Earlier scans not included" for scans counted before unique scanners were (375 px)', async () => {
    const { context, page } = await signUpNewUser(app, 'legacy', phone);
    const errors = watchErrors(page);
    const created = await page.request.post('/api/qr-codes', {
      data: { name: 'Old poster', type: 'url', content: 'https://example.com/old', isDynamic: true },
    });
    expect(created.status(), await created.text()).toBe(201);
    const code = (await created.json()) as QrCode;
    await scanAs(page, code.shortUrl!, IPHONE, '203.0.113.20');
    await scanAs(page, code.shortUrl!, ANDROID, '203.0.113.21');
    // As an upgraded database holds them: the code's counts from before unique scanners were counted
    // are unknown (null), not zero (migrations/2026-11-26T0630-unique-scanners.ts).
    const db = new Database(path.join(app.server.dataDir, 'qr-creator.db'));
    try {
      db.prepare('update scan_code_days set unique_scanners = null where qr_code_id = ?').run(code.id);
      db.prepare('update scan_code_quarters set unique_scanners = null where qr_code_id = ?').run(code.id);
      db.prepare(
        'update scan_user_quarters set unique_scanners = null where user_id = (select user_id from qr_codes where id = ?)',
      ).run(code.id);
    } finally {
      db.close();
    }
    const details = (await (
      await page.request.get(`/api/analytics/qr-codes/${code.id}`)
    ).json()) as QrCodeAnalytics;
    expect([details.totalScans, details.uniqueScanners, details.uniqueScannersPartial]).toEqual([
      2,
      null,
      true,
    ]);

    await page.goto(`/qr-details/${code.id}`);
    await expect.poll(() => figureOf(page, 'Total Scans').textContent()).toBe('2');
    expect(await figureOf(page, 'Unique Scanners').textContent()).toBe('—');
    const unique = card(page, 'Unique Scanners');
    expect(await unique.textContent()).toContain('Earlier scans not included');
    // The explanation is one focus away (a tooltip), and named for a screen reader.
    const about = unique.getByRole('button', { name: /before this server counted unique scanners/ });
    await about.focus();
    await page.getByRole('tooltip').waitFor();
    const chart = page.getByRole('region', { name: 'Scans Over Time' });
    await chart.getByRole('button', { name: 'Show as table' }).click();
    const lastRow = await chart
      .getByRole('table')
      .locator('tbody tr')
      .last()
      .locator('th, td')
      .allTextContents();
    expect(lastRow.slice(1)).toEqual(['2', '—']);
    await unique.scrollIntoViewIfNeeded();
    await screenshot(page, 'unique-scanners-not-counted-phone', { fullPage: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    expect(errors).toEqual([]);
    await context.close();
  });
});
