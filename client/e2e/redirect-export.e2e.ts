import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { desktop, downloadBytes, newPage, phone, screenshot, signIn, withAppServer } from './harness';

// My QR Codes → Export redirects: the menu works from the keyboard and at 375 px, and each item
// downloads the server's file for the demo account's dynamic code.

const app = withAppServer({});

describe('My QR Codes: Export redirects', () => {
  it('opens from the keyboard and downloads each format', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, desktop);
    await signIn(page, 'demo', 'demo123');
    const codes = (await (await page.request.get('/api/qr-codes')).json()) as QrCode[];
    const dynamic = codes.find((c) => c.isDynamic && c.type === 'url')!;
    await page.goto('/my-qr-codes');

    const expected = [
      ['CSV', 'qr-redirects.csv'],
      ['nginx map', 'qr-redirects.nginx.conf'],
      ['Caddyfile', 'Caddyfile'],
      ['Netlify _redirects', '_redirects'],
    ] as const;
    for (const [i, [label, fileName]] of expected.entries()) {
      const button = page.getByRole('button', { name: 'Export redirects' });
      await button.focus();
      await page.keyboard.press('Enter');
      const item = page.getByRole('menuitem', { name: new RegExp(`^${label}`) });
      await item.waitFor();
      if (i === 0) await screenshot(page, 'my-qr-codes-export-menu', { fullPage: false });
      // Arrow keys reach every item (the menu may already focus its first one); Enter picks it.
      const focused = () => item.evaluate((el) => el === document.activeElement);
      for (let step = 0; step < 6 && !(await focused()); step++) await page.keyboard.press('ArrowDown');
      expect(await focused()).toBe(true);
      const downloading = page.waitForEvent('download');
      await page.keyboard.press('Enter');
      const file = await downloading;
      expect(file.suggestedFilename()).toBe(fileName);
      const text = await downloadBytes(file).then((bytes) => bytes.toString('utf8'));
      expect(text).toContain(`/r/${dynamic.slug}`);
      expect(text).toContain(new URL(dynamic.content).href);
    }
    await context.close();
  });

  it('fits 375 px with the menu open', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    await signIn(page, 'demo', 'demo123');
    await page.goto('/my-qr-codes');
    await page.getByRole('button', { name: 'Export redirects' }).click();
    await page.getByRole('menuitem', { name: /^Netlify _redirects/ }).waitFor();
    const box = await page.getByRole('menu').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'my-qr-codes-export-menu-375', { fullPage: false });
    await context.close();
  });
});
