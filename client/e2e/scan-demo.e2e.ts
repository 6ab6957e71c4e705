import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { allowConsoleErrors, newPage, phone, screenshot, signIn, withAppServer } from './harness';

const app = withAppServer({});

/** The demo account's two codes, read from the server's own database file. */
function demoCodes() {
  const db = new Database(path.join(app.server.dataDir, 'qr-creator.db'), { readonly: true });
  try {
    const codes = db.prepare('select id, type, content, slug from qr_codes order by id').all() as {
      id: number;
      type: string;
      content: string;
      slug: string | null;
    }[];
    return { url: codes.find((c) => c.type === 'url')!, wifi: codes.find((c) => c.type === 'wifi')! };
  } finally {
    db.close();
  }
}

function scanCount(id: number): number {
  const db = new Database(path.join(app.server.dataDir, 'qr-creator.db'), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from qr_scans where qr_code_id = ?').get(id) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('/scan-demo', () => {
  it('scans a url and a Wi-Fi code by id, and refuses ids that are not numbers', async () => {
    const { url, wifi } = demoCodes();
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    allowConsoleErrors(page, /status of 404 \(Not Found\).*qr\.scan/); // the unknown id 999999
    await signIn(page, 'demo', 'demo123');

    const before = scanCount(url.id);
    await page.goto(`/scan-demo?id=${url.id}`);
    const openUrl = page.getByRole('link', { name: 'Open URL' });
    await openUrl.waitFor();
    expect(await openUrl.getAttribute('href')).toBe(url.content);
    expect(await page.getByLabel('QR code ID').inputValue()).toBe(String(url.id));
    // Scanning here counts like a real scan.
    expect(scanCount(url.id)).toBe(before + 1);

    // The page says what it is, and the user's own codes fill the ID without knowing it.
    await page.getByRole('heading', { name: 'Scan simulator' }).waitFor();
    await page.getByRole('combobox', { name: 'Your QR codes' }).click();
    await page.getByRole('option', { name: 'Guest Wi-Fi (Wi-Fi, static)' }).click();
    expect(await page.getByLabel('QR code ID').inputValue()).toBe(String(wifi.id));
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByText('Cafe Guest', { exact: true }).first().waitFor();
    await page.getByText('espresso2024', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Copy password' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'scan-demo-375');

    await page.getByLabel('QR code ID').fill('abc');
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByText('Please enter a valid QR code ID').waitFor();

    await page.getByLabel('QR code ID').fill('999999');
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByText('Failed to scan QR code').waitFor();

    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await context.close();
  });

  it('sends a phone scanning the printed dynamic code to its destination', async () => {
    const { url } = demoCodes();
    const before = scanCount(url.id);
    const res = await fetch(`${app.server.url}/r/${url.slug}`, {
      redirect: 'manual',
      headers: {
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15',
      },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(url.content);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(scanCount(url.id)).toBe(before + 1);
  });
});
