import { describe, expect, it } from 'vitest';
import { desktop, newPage, phone, screenshot, withAppServer } from './harness';

const app = withAppServer();

describe('/api/docs', () => {
  it('renders the OpenAPI document from our own origin, with examples and the error body', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, desktop);
    const foreign: string[] = [];
    page.on('request', (request) => {
      // Our own origin, its blob: URLs (the search worker) and data: images only.
      const own = [app.server.url, `blob:${app.server.url}`, 'data:'];
      if (!own.some((prefix) => request.url().startsWith(prefix))) foreign.push(request.url());
    });
    const res = await page.goto('/api/docs');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    // Titled "QR Creator API", not "QR Creator API (1)".
    await page
      .getByRole('heading', { name: 'QR Creator API', exact: true, level: 1 })
      .waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe('QR Creator API');
    // The curl example is written for this server's own PUBLIC_URL (by default http://localhost:<PORT>).
    const port = new URL(app.server.url).port;
    await page.getByText(`http://localhost:${port}/api/v1/qr-codes`, { exact: false }).first().waitFor();
    // Every tag of the document is in the menu; a path opens with its request and answer samples.
    // Looked up by role: the page holds some 54,000 elements, and a text search over all of them took about
    // a second a tag here, and more than 15 s for the five on a loaded machine.
    for (const tag of ['Sign-in', 'QR codes', 'Analytics', 'API tokens', 'Admin'])
      await page.getByRole('menuitem', { name: tag, exact: true }).first().waitFor({ timeout: 30_000 });
    const create = page.locator('[data-section-id$="/operation/createQrCode"]');
    await create.scrollIntoViewIfNeeded();
    await create.getByText('Creates a code', { exact: false }).first().waitFor();
    await create.getByText('Request samples').waitFor();
    await create.getByText('Response samples').waitFor();
    // The request sample is the operation's own example (server/rest/examples.ts), not a placeholder.
    await create.getByText('https://cafe-aurora.example.com/menu', { exact: false }).first().waitFor();
    // The error body every refusal carries, documented once.
    await create.getByRole('tab', { name: '400' }).first().click();
    await create.getByText('"message"', { exact: false }).first().waitFor();
    await screenshot(page, 'api-docs-1280', { fullPage: false });
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('fits a phone', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    await page.goto('/api/docs');
    await page.getByRole('heading', { name: /QR Creator API/, level: 1 }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'api-docs-375', { fullPage: false });
    await context.close();
  });
});
