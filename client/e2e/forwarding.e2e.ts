// Forwarding scans to web analytics (issue 36, item 2), as a workspace's admin sets it up on the
// Integrations page: a Plausible stand-in on this machine records every POST to /api/event as Plausible's
// Events API takes it. A new user picks Plausible, is told what is missing, saves, sends a test event the
// stand-in accepts, and a real scan of a dynamic code reaches the stand-in as a pageview with the code's
// name as the campaign; the section then counts it as sent. Then the stand-in refuses, and the test
// event's answer says so; the phone and dark mode read without sideways scrolling or audit findings.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { audit } from './a11y';
import { phone, screenshot, signUpNewUser, withAppServer } from './harness';

// The stand-in listens on 127.0.0.1, an address the server refuses to send to unless named here.
const app = withAppServer({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

const received: Received[] = [];
/** What the stand-in answers next: Plausible answers 202 to an event it takes. */
let answer = { status: 202, body: 'ok' };
let standIn: http.Server | undefined;
let standInUrl = '';

beforeAll(async () => {
  standIn = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { unparsed: text };
      }
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(answer.status, { 'content-type': 'text/plain' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => standIn!.listen(0, '127.0.0.1', resolve));
  standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => standIn?.close(resolve));
});

let owner: Awaited<ReturnType<typeof signUpNewUser>> | undefined;
const section = (page: Page) => page.getByRole('region', { name: 'Forward scans to web analytics' });

describe('forwarding scans on the Integrations page', () => {
  it('sets up Plausible, sends a test event and forwards a real scan with the code as its campaign', async () => {
    owner = await signUpNewUser(app, 'forward');
    const { page } = owner;
    const created = await page.request.post('/api/qr-codes', {
      data: { name: 'Spring menu', type: 'url', content: 'https://example.com/menu', isDynamic: true },
    });
    expect(created.status(), await created.text()).toBe(201);
    const codes = (await (await page.request.get('/api/qr-codes')).json()) as QrCode[];
    const code = codes.find((c) => c.name === 'Spring menu')!;

    await page.goto('/integrations');
    const forwarding = section(page);
    const provider = forwarding.getByRole('combobox', { name: 'Provider' });
    await provider.waitFor();
    expect(await provider.inputValue()).toBe('None');
    // Nothing stored yet: nothing to save, no test to send.
    expect(await forwarding.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await forwarding.getByRole('button', { name: 'Send a test event' }).count()).toBe(0);

    await provider.click();
    await page.getByRole('option', { name: 'Plausible' }).click();
    const address = forwarding.getByRole('textbox', { name: /^Plausible address/ });
    expect(await address.inputValue()).toBe('https://plausible.io');
    // The site domain is missing: the field says so and nothing is saved.
    await forwarding.getByRole('button', { name: 'Save' }).click();
    const domain = forwarding.getByRole('textbox', { name: /^Site domain/ });
    expect(await domain.getAttribute('aria-invalid')).toBe('true');
    expect(await forwarding.getByRole('button', { name: 'Send a test event' }).count()).toBe(0);

    await address.fill(standInUrl);
    await domain.fill('example.com');
    expect(await forwarding.getByRole('radio', { name: 'Masked' }).isChecked()).toBe(true);
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'forwarding-plausible-1280');
    await forwarding.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Scans are forwarded as set.').waitFor();
    const status = forwarding.getByLabel('Delivery status');
    await status.getByText('On', { exact: true }).waitFor();
    expect(await status.innerText()).toContain('Last success: none yet');

    // The test event: one made-up pageview, answered on the page.
    await forwarding.getByRole('button', { name: 'Send a test event' }).click();
    await forwarding.getByText('The provider accepted the test event').waitFor();
    expect(await forwarding.getByRole('status').first().innerText()).toContain('HTTP 202');
    const test = received.at(-1)!;
    expect(test.path).toBe('/api/event');
    expect(test.body).toMatchObject({ name: 'pageview', domain: 'example.com' });

    // A real scan: the background job forwards it within seconds, with the code's name as the campaign.
    const before = received.length;
    const scan = await page.request.get(`/r/${code.slug}`, {
      maxRedirects: 0,
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' },
    });
    expect(scan.status()).toBe(302);
    await expect.poll(() => received.length - before, { timeout: 20_000, interval: 250 }).toBe(1);
    const forwarded = received.at(-1)!;
    expect(forwarded.path).toBe('/api/event');
    expect(forwarded.headers['user-agent']).toContain('iPhone');
    expect(forwarded.body).toMatchObject({ name: 'pageview', domain: 'example.com' });
    const url = new URL(String(forwarded.body.url));
    expect(url.pathname).toBe(`/r/${code.slug}`);
    expect(url.searchParams.get('utm_campaign')).toBe('Spring menu');
    expect(url.searchParams.get('utm_source')).toBe('qr');

    // The section counts the scan after a reload (a test event is not a scan: it shows as the last success).
    await page.reload();
    await expect
      .poll(
        async () => (await section(page).getByLabel('Delivery status').innerText()).replace(/\s+/g, ' '),
        {
          timeout: 10_000,
        },
      )
      .toMatch(/^on 1 sent · 0 not delivered Last success: /i);
  });

  it('says when the provider refuses the test event, and reads on a phone and in dark mode', async () => {
    const { page } = owner!;
    answer = { status: 400, body: 'domain not found' };
    const forwarding = section(page);
    await forwarding.getByRole('button', { name: 'Send a test event' }).click();
    await forwarding.getByText('The provider did not accept the test event').waitFor();
    expect(await forwarding.innerText()).toContain('HTTP 400');
    expect(await audit(page)).toEqual([]);
    answer = { status: 202, body: 'ok' };

    const small = await app.browser.newPage({ baseURL: app.server.url, viewport: phone });
    await small.context().addCookies(await owner!.context.cookies());
    await small.goto('/integrations');
    await section(small)
      .getByRole('textbox', { name: /^Site domain/ })
      .waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await audit(small)).toEqual([]);
    await section(small).scrollIntoViewIfNeeded();
    await screenshot(small, 'forwarding-375');
    await small.close();

    const dark = await app.browser.newPage({
      baseURL: app.server.url,
      viewport: { width: 1280, height: 900 },
      colorScheme: 'dark',
    });
    await dark.context().addCookies(await owner!.context.cookies());
    await dark.goto('/integrations');
    await section(dark)
      .getByRole('textbox', { name: /^Site domain/ })
      .waitFor();
    expect(await audit(dark)).toEqual([]);
    await screenshot(dark, 'forwarding-dark-1280');
    await dark.close();
  });
});
