// Webhooks (issue 36, item 1), as a workspace's admin meets them on the Integrations page: a small
// receiver on this machine records every POST; a new user adds it for the scan event, copies the signing
// secret shown once, scans a dynamic code and sees the background job's delivery succeed in the log. The
// receiver checks the signature with that secret (HMAC-SHA256 of "<t>.<body>"). "Send a test" answers at
// once; "Redeliver" sends a delivery again as a new row.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import type { WebhookPayload, WebhookScanData } from '../../src/webhooks/webhook.schema';
import { audit } from './a11y';
import { phone, screenshot, signUpNewUser, withAppServer } from './harness';

// The receiver listens on 127.0.0.1, an address the server refuses to send to unless named here. The
// webhook job runs every second in the real server (background sweeps are on outside unit tests).
const app = withAppServer({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
let receiver: http.Server | undefined;
let receiverUrl = '';

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/qr-events`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
});

/** What a receiver does: the header's v1 is the HMAC-SHA256 of "<t>.<body>" with the secret, t recent. */
function signedWith(secret: string, request: Received): boolean {
  const header = request.headers['qr-creator-signature'];
  if (typeof header !== 'string') return false;
  const parts = new Map(header.split(',').map((part) => part.split('=') as [string, string]));
  const t = Number(parts.get('t'));
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${request.body}`).digest();
  const given = Buffer.from(parts.get('v1') ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const eventsOf = (request: Received) => (JSON.parse(request.body) as WebhookPayload).events;

/** The log's rows, as they read (state, types, count, time, status, duration). */
async function rowTexts(log: Locator): Promise<string[]> {
  return (await log.locator('li[data-delivery]').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
}

let owner: Awaited<ReturnType<typeof signUpNewUser>> | undefined;
let secret = '';
const endpoint = (page: Page) => page.getByRole('article', { name: `Webhook ${receiverUrl}` });

describe('webhooks on the Integrations page', () => {
  it('adds a webhook, shows its secret once, and delivers a scan signed with it', async () => {
    owner = await signUpNewUser(app, 'hooks');
    const { page, context } = owner;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url });
    const created = await page.request.post('/api/qr-codes', {
      data: { name: 'Menu', type: 'url', content: 'https://example.com/menu', isDynamic: true },
    });
    expect(created.status(), await created.text()).toBe(201);
    const codes = (await (await page.request.get('/api/qr-codes')).json()) as QrCode[];
    const code = codes.find((c) => c.name === 'Menu')!;
    expect(code.slug).toBeTruthy();

    // From the navigation; the empty state says what to do.
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Integrations' }).click();
    await page.waitForURL((u) => u.pathname === '/integrations');
    await page.getByRole('heading', { name: 'Integrations', level: 2 }).waitFor();
    expect(await nav.getByRole('link', { name: 'Integrations' }).getAttribute('aria-current')).toBe('page');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhooks yet').waitFor();
    await section.getByRole('button', { name: 'Signed with HMAC-SHA256 — how to verify' }).click();
    await section.getByText('QR-Creator-Signature', { exact: true }).waitFor();
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'webhooks-empty-1280');

    // Add: the URL is checked before anything is sent; scan is chosen already.
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Add webhook' });
    await form.getByRole('textbox', { name: /^Endpoint URL/ }).fill('ftp://example.com');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await form.getByText('Enter an http:// or https:// address').waitFor();
    await form.getByRole('textbox', { name: /^Endpoint URL/ }).fill(receiverUrl);
    await form.getByRole('textbox', { name: /^Description/ }).fill('Scans into our CRM');
    expect(await form.getByRole('checkbox', { name: 'A code is scanned' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'A code is created' }).isChecked()).toBe(false);
    expect(await audit(page)).toEqual([]);
    await form.getByRole('button', { name: 'Add webhook' }).click();

    // The secret, this once.
    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    await shown.getByText('Copy this signing secret now: it will not be shown again').waitFor();
    await page.getByText('Webhook added').waitFor();
    secret = await shown.getByRole('textbox', { name: /^Signing secret/ }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'webhooks-secret-1280', { fullPage: false });
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const card = endpoint(page);
    await card.getByText('Scans into our CRM').waitFor();
    expect(await card.getByRole('group', { name: 'Events sent' }).innerText()).toBe('A code is scanned');
    expect(await card.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(true);
    // The secret is not shown again: only its start.
    expect(await card.innerText()).not.toContain(secret);

    // A scan: the job sends it within seconds; the log shows it succeeded.
    const scan = await page.request.get(`/r/${code.slug}`, { maxRedirects: 0 });
    expect(scan.status()).toBe(302);
    await card.getByRole('button', { name: 'Delivery log' }).click();
    const log = card.getByRole('region', { name: `Delivery log of ${receiverUrl}` });
    await expect
      .poll(() => rowTexts(log), { timeout: 20_000, interval: 500 })
      .toEqual([expect.stringMatching(/^Succeeded scan 1 event .* HTTP 200 \d+ ms$/i)]);
    await card.getByText('Last delivery:').waitFor();
    await expect.poll(() => card.locator('[data-delivery-state="succeeded"]').count()).toBe(2);

    // The receiver got it, signed with the secret the page showed.
    const scans = received.filter((r) => r.headers['qr-creator-event'] === 'scan');
    expect(scans).toHaveLength(1);
    expect(scans[0]!.path).toBe('/qr-events');
    expect(signedWith(secret, scans[0]!)).toBe(true);
    expect(signedWith('whsec_wrong', scans[0]!)).toBe(false);
    const [event] = eventsOf(scans[0]!);
    expect(event).toMatchObject({ type: 'scan' });
    expect((event!.data as WebhookScanData).code).toMatchObject({ id: code.id, name: 'Menu' });
  });

  it('sends a test, opens a delivery’s details and redelivers it', async () => {
    const { page } = owner!;
    const card = endpoint(page);
    const log = card.getByRole('region', { name: `Delivery log of ${receiverUrl}` });

    await card.getByRole('button', { name: 'Send a test' }).click();
    await card.getByRole('status').getByText('Delivered: 200').waitFor();
    await page.getByText('Test event sent').waitFor();
    const ping = received.find((r) => r.headers['qr-creator-event'] === 'ping')!;
    expect(signedWith(secret, ping)).toBe(true);
    await expect.poll(() => rowTexts(log)).toHaveLength(2);
    expect((await rowTexts(log))[0]).toMatch(/^Succeeded test \(ping\) 1 event .* HTTP 200/i);

    // The scan's delivery opened: the body as sent, the answer, Redeliver.
    const scanRow = log.locator('li[data-delivery]').nth(1);
    await scanRow.getByRole('button').first().click();
    expect(await scanRow.getByRole('button').first().getAttribute('aria-expanded')).toBe('true');
    const body = scanRow.getByRole('region', { name: /^Request body of delivery/ });
    expect(await body.innerText()).toContain('"type": "scan"');
    expect(await scanRow.getByRole('region', { name: /^Response of delivery/ }).innerText()).toBe('thanks');
    expect(await audit(page)).toEqual([]);
    await scanRow.scrollIntoViewIfNeeded();
    await screenshot(page, 'webhooks-delivery-details-1280', { fullPage: false });
    await screenshot(page, 'webhooks-page-1280');

    const before = received.length;
    await scanRow.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('Delivery queued again').waitFor();
    await expect.poll(() => rowTexts(log)).toHaveLength(3);
    expect((await rowTexts(log))[0]).toMatch(/^Succeeded scan 1 event .* HTTP 200/i);
    // The same event again (its id lets a receiver drop the repeat), signed afresh.
    const again = received.slice(before).find((r) => r.headers['qr-creator-event'] === 'scan')!;
    expect(signedWith(secret, again)).toBe(true);
    const first = received.find((r) => r.headers['qr-creator-event'] === 'scan')!;
    expect(eventsOf(again)[0]!.id).toBe(eventsOf(first)[0]!.id);
  });

  it('reads on a phone without sideways scrolling, and in dark mode', async () => {
    const small = await app.browser.newPage({ baseURL: app.server.url, viewport: phone });
    await small.context().addCookies(await owner!.context.cookies());
    await small.goto('/integrations');
    const card = endpoint(small);
    await card.getByRole('button', { name: 'Delivery log' }).click();
    const log = card.getByRole('region', { name: `Delivery log of ${receiverUrl}` });
    await expect.poll(() => rowTexts(log)).toHaveLength(3);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(small, 'webhooks-page-375');
    const row = log.locator('li[data-delivery]').nth(1);
    await row.getByRole('button').first().click();
    await row.getByRole('region', { name: /^Request body of delivery/ }).waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await audit(small)).toEqual([]);
    await row.scrollIntoViewIfNeeded();
    await screenshot(small, 'webhooks-delivery-details-375', { fullPage: false });
    await small.close();

    const dark = await app.browser.newPage({
      baseURL: app.server.url,
      viewport: { width: 1280, height: 800 },
      colorScheme: 'dark',
    });
    await dark.context().addCookies(await owner!.context.cookies());
    await dark.goto('/integrations');
    await endpoint(dark).getByRole('button', { name: 'Delivery log' }).click();
    await endpoint(dark).locator('li[data-delivery]').first().waitFor();
    expect(await audit(dark)).toEqual([]);
    await screenshot(dark, 'webhooks-page-dark-1280');
    await dark.close();
  });

  it('shows why the app turned an endpoint off, and turns it on again', async () => {
    // What the job does after a day of failures, written directly (the test cannot wait 24 hours).
    const db = new Database(path.join(app.server.dataDir, 'qr-creator.db'), { timeout: 10_000 });
    try {
      db.prepare('update webhook_endpoints set enabled = 0, disabled_reason = ?').run(
        'its deliveries failed for 24 hours (last: the endpoint answered 500)',
      );
    } finally {
      db.close();
    }
    const { page } = owner!;
    await page.goto('/integrations');
    const card = endpoint(page);
    const note = card.getByRole('note');
    await note
      .getByText('Disabled: its deliveries failed for 24 hours (last: the endpoint answered 500)')
      .waitFor();
    expect(await card.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(false);
    expect(await audit(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'webhooks-disabled-1280', { fullPage: false });
    await card.getByRole('switch', { name: 'Enabled' }).click();
    await page.getByText('Webhook saved').waitFor();
    await note.waitFor({ state: 'detached' });
    expect(await card.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(true);
  });

  it('edits the endpoint, makes a new secret that signs from then on, and deletes it', async () => {
    const { page } = owner!;
    const card = endpoint(page);
    await card.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog', { name: 'Edit webhook' });
    expect(await form.getByRole('textbox', { name: /^Endpoint URL/ }).inputValue()).toBe(receiverUrl);
    await form.getByRole('checkbox', { name: 'A code is scanned' }).uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Choose at least one event').waitFor();
    await form.getByRole('checkbox', { name: 'A code is scanned' }).check();
    await form.getByRole('checkbox', { name: 'A code is created' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Webhook saved').waitFor();
    await form.waitFor({ state: 'detached' });
    await expect
      .poll(() => card.getByRole('group', { name: 'Events sent' }).innerText())
      .toBe('A code is scanned\nA code is created');

    await card.getByRole('button', { name: 'New secret' }).click();
    await page
      .getByRole('dialog', { name: 'Make a new signing secret?' })
      .getByRole('button', { name: 'Make a new secret' })
      .click();
    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    await shown.getByText('Copy this signing secret now: it will not be shown again').waitFor();
    const renewed = await shown.getByRole('textbox', { name: /^Signing secret/ }).inputValue();
    expect(renewed).toMatch(/^whsec_/);
    expect(renewed).not.toBe(secret);
    await shown.getByRole('button', { name: 'Done' }).click();
    const before = received.length;
    await card.getByRole('button', { name: 'Send a test' }).click();
    await card.getByRole('status').getByText('Delivered: 200').waitFor();
    const ping = received.slice(before).find((r) => r.headers['qr-creator-event'] === 'ping')!;
    expect(signedWith(renewed, ping)).toBe(true);
    expect(signedWith(secret, ping)).toBe(false);

    await card.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this webhook?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('Webhook deleted').waitFor();
    await page.getByRole('region', { name: 'Webhooks' }).getByText('No webhooks yet').waitFor();
  });

  it('tells an editor of a team that its admins manage webhooks, without an error', async () => {
    const { page } = owner!;
    const team = await page.request.post('/api/workspaces', { data: { name: 'Ops' } });
    expect(team.status(), await team.text()).toBe(201);
    const { id: teamId } = (await team.json()) as { id: number };
    const colleague = await signUpNewUser(app, 'hookmate');
    const invited = await page.request.post(`/api/workspaces/${teamId}/invitations`, {
      data: { username: colleague.username, role: 'editor' },
    });
    expect(invited.status(), await invited.text()).toBe(201);
    const { id: invitationId } = (await invited.json()) as { id: number };
    const accepted = await colleague.page.request.post('/api/invitations/accept', { data: { invitationId } });
    expect(accepted.status(), await accepted.text()).toBe(200);

    const v = colleague.page;
    await v.goto(`/integrations?workspace=${teamId}`);
    await v.getByRole('heading', { name: 'Integrations', level: 2 }).waitFor();
    await v
      .getByText(/^Webhooks and forwarding to web analytics are managed by this workspace’s admins./)
      .waitFor();
    expect(await v.getByRole('region', { name: 'Webhooks' }).count()).toBe(0);
    expect(await v.getByRole('alert').count()).toBe(0);
    expect(await audit(v)).toEqual([]);
    await screenshot(v, 'webhooks-editor-1280', { fullPage: false });
    await colleague.context.close();
  });
});
