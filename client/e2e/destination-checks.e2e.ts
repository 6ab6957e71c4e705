// Dead destinations caught (issue 35, item 4), as the owner meets them: a small local site answers 404
// on two paths; the "destination down" mail's one click (/qr-details/<id>?check=destination) checks a
// code at once and its details card says "Opens a 404" (failed once: no mark in My QR Codes yet). A
// second failure (its first check moved a few minutes back in the database: the server checks a URL
// again on request at most once a minute) makes the other code's destination down: its card and list row carry
// the red mark ("· scans go to the fallback URL": that code opted in, and its short link now leads
// there) and the dashboard lists it under "Destinations down". The designer's checkbox, meanwhile.
import dns from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DestinationIssue } from '../../src/qr/destination-check.schema';
import type { QrCode } from '../../src/qr/qr.schema';
import { audit } from './a11y';
import { phone, screenshot, signUpNewUser, withAppServer } from './harness';

// A dynamic code may not lead to localhost or 127.0.0.1 (server/features/qr/destination.ts): the test
// site is reached by this machine's own name, which the server may fetch although it resolves to a
// private address because OUTBOUND_ALLOWED_HOSTS names it (as an intranet's host would be).
const HOST = os.hostname().toLowerCase();
const app = withAppServer({ OUTBOUND_ALLOWED_HOSTS: `${HOST},127.0.0.1` });

/**
 * The URL's last check moved back: the server checks a URL again on request only a minute after its last
 * check (RECHECK_GAP_MS), and the browser tests run on the real clock.
 */
function ageLastCheck(url: string) {
  const db = new Database(path.join(app.server.dataDir, 'qr-creator.db'), { timeout: 10_000 });
  try {
    db.prepare('update destination_checks set checked_at = ? where url = ?').run(
      new Date(Date.now() - 5 * 60_000).toISOString(),
      url,
    );
  } finally {
    db.close();
  }
}

let site: http.Server | undefined;
let siteUrl = '';

beforeAll(async () => {
  const { address } = await dns.lookup(HOST);
  site = http.createServer((req, res) => {
    const found = req.url === '/ok' || req.url === '/sorry';
    res.writeHead(found ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : found ? '<!doctype html><p>Here' : '<!doctype html><p>Gone');
  });
  await new Promise<void>((resolve) => site!.listen(0, address, resolve));
  siteUrl = `http://${HOST}:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
});

async function createCode(page: Page, data: Record<string, unknown>): Promise<QrCode> {
  const res = await page.request.post('/api/qr-codes', { data: { type: 'url', isDynamic: true, ...data } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as QrCode;
}

async function checkNow(page: Page, code: QrCode): Promise<DestinationIssue[]> {
  const res = await page.request.post(`/api/qr-codes/${code.id}/destination-check`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { items: DestinationIssue[] }).items;
}

/** The accessible names of a card's or row's marks, in order. */
async function marksOf(scope: Locator): Promise<string[]> {
  const marks = scope.locator('[data-mark]');
  return Promise.all((await marks.all()).map((m) => m.getAttribute('aria-label').then((v) => v ?? '')));
}

let owner: Awaited<ReturnType<typeof signUpNewUser>> | undefined;
/** The code opted in to its fallback while down: checked first here, again a minute later. */
let flyer: QrCode | undefined;

describe('dead destinations', () => {
  it('checks a code from the mail’s link: failed once shows on its details page, not yet on its card', async () => {
    owner = await signUpNewUser(app, 'dest');
    const { page } = owner;
    // Checked first through the API (the minute to the next check starts now), and the designer's choice.
    flyer = await createCode(page, {
      name: 'Summer flyer',
      content: `${siteUrl}/summer`,
      redirectOptions: { fallbackUrl: `${siteUrl}/sorry`, fallbackWhenDown: true },
    });
    expect((await checkNow(page, flyer)).map((i) => [i.label, i.state])).toEqual([
      ['Destination', 'failing'],
      ['Fallback URL', 'ok'],
    ]);

    const menu = await createCode(page, { name: 'Spring menu', content: `${siteUrl}/menu` });
    await page.goto(`/qr-details/${menu.id}?check=destination`);
    const card = page.getByRole('region', { name: 'Destination check' });
    const line = card.locator('[data-destination-state="failing"]');
    await line.waitFor();
    expect(await line.innerText()).toContain('Opens a 404 since today');
    expect(await line.innerText()).toContain('Failed once');
    expect(await line.innerText()).toContain(`${siteUrl}/menu`);
    // The parameter is gone: a reload does not check again.
    await page.waitForURL((url) => !url.searchParams.has('check'));
    expect(new URL(page.url()).searchParams.get('workspace')).not.toBeNull();
    expect(await audit(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'destination-check-details-1280');

    // "Check again" within the minute: the server keeps its answer, the card still lists it.
    await card.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => card.getByRole('button', { name: 'Check again' }).isEnabled()).toBe(true);
    expect(await card.locator('[data-destination-state="failing"]').count()).toBe(1);

    // Failed once is not confirmed: no mark on its card.
    // The page's one question for the workspace's issues, answered before there is no mark to assert.
    const issues = page.waitForResponse((r) => r.url().includes('destinations.issues'));
    await page.goto('/my-qr-codes');
    expect((await issues).ok()).toBe(true);
    const spring = page.getByRole('article', { name: 'Spring menu' });
    await spring.waitFor();
    await page.getByRole('article', { name: 'Summer flyer' }).waitFor();
    expect(await marksOf(spring)).toEqual([]);
    expect(await page.locator('[data-mark="destination"]').count()).toBe(0);

    // On a phone the card reads without sideways scrolling.
    const small = await app.browser.newPage({ baseURL: app.server.url, viewport: phone });
    await small.context().addCookies(await owner.context.cookies());
    await small.goto(`/qr-details/${menu.id}`);
    const smallCard = small.getByRole('region', { name: 'Destination check' });
    await smallCard.locator('[data-destination-state="failing"]').waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await smallCard.scrollIntoViewIfNeeded();
    await screenshot(small, 'destination-check-details-375', { fullPage: false });
    await small.close();
  });

  it('offers the fallback while down in the designer, only with a fallback URL', async () => {
    // A page of its own, closed unsaved at the end (closing asks nothing, unlike leaving it).
    const page = await owner!.context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`/edit-qr/${flyer!.id}`);
    const section = page.getByRole('region', { name: 'Smart redirect' });
    const part = section.getByRole('button', { name: /^Schedule/ });
    if ((await part.getAttribute('aria-expanded')) !== 'true') await part.click();
    const box = section.getByRole('checkbox', { name: 'Use the fallback URL while the destination is down' });
    await box.waitFor();
    // The saved choice comes back in the form.
    expect(await box.isChecked()).toBe(true);
    expect(await box.isEnabled()).toBe(true);
    await section.getByText('The destination is checked daily; after two failures in a row').waitFor();
    // Without a fallback URL there is nothing to send scans to.
    const fallback = section.getByRole('textbox', { name: 'Fallback URL' });
    await fallback.fill('');
    await expect.poll(() => box.isDisabled()).toBe(true);
    expect(await box.isChecked()).toBe(false);
    await fallback.fill(`${siteUrl}/sorry`);
    await expect.poll(() => box.isChecked()).toBe(true);
    await box.scrollIntoViewIfNeeded();
    await screenshot(page, 'destination-check-designer-1280', { fullPage: false });
    await page.close();
  });

  it('marks a destination down after two failures: card, list row, dashboard, and the fallback takes scans', async () => {
    const { page } = owner!;
    ageLastCheck(`${siteUrl}/summer`);
    const items = await checkNow(page, flyer!);
    expect(items.find((i) => i.label === 'Destination')).toMatchObject({
      state: 'down',
      problem: 'Opens a 404',
      usingFallback: true,
    });

    // Its short link now leads to the fallback URL.
    const scan = await page.request.get(flyer!.shortUrl!, { maxRedirects: 0 });
    expect(scan.status()).toBe(302);
    expect(scan.headers()['location']).toBe(`${siteUrl}/sorry`);

    const mark = 'Opens a 404 since today · scans go to the fallback URL';
    await page.goto('/my-qr-codes');
    const card = page.getByRole('article', { name: 'Summer flyer' });
    await card.locator('[data-mark="destination"]').waitFor();
    expect(await marksOf(card)).toEqual([mark]);
    expect(await marksOf(page.getByRole('article', { name: 'Spring menu' }))).toEqual([]);
    await card.getByRole('img', { name: mark }).hover();
    await page.getByRole('tooltip', { name: mark }).waitFor();
    await screenshot(page, 'destination-mark-cards-1280', { fullPage: false });
    await page.mouse.move(0, 0);
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
    expect(await audit(page)).toEqual([]);

    // The list view's row carries it too.
    await page.getByRole('radiogroup', { name: 'View' }).getByText('List', { exact: true }).click();
    const rows = page.getByRole('list', { name: 'QR codes' }).getByRole('listitem');
    const row = rows.filter({ has: page.getByRole('link', { name: 'Summer flyer', exact: true }) });
    await row.locator('[data-mark="destination"]').waitFor();
    expect(await marksOf(row)).toEqual([mark]);
    await screenshot(page, 'destination-mark-list-1280', { fullPage: false });
    // Back to cards for the next pages of this browser.
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Cards', { exact: true }).click();

    // The dashboard lists the down destination, linked to its code.
    await page.goto('/');
    const alert = page.getByRole('region', { name: 'Destinations down' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(`Summer flyer: ${mark}`);
    expect(await alert.innerText()).not.toContain('Spring menu');
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'destination-alerts-dashboard-1280', { fullPage: false });

    // Its details card says so, with the fallback URL answering.
    await alert.getByRole('link', { name: 'Summer flyer' }).click();
    await page.waitForURL((url) => url.pathname === `/qr-details/${flyer!.id}`);
    const details = page.getByRole('region', { name: 'Destination check' });
    const down = details.locator('[data-destination-state="down"]');
    await down.waitFor();
    expect(await down.innerText()).toContain(mark);
    // "Check again" lists every URL with its state: the fallback URL answers (in green).
    await details.getByRole('button', { name: 'Check again' }).click();
    const ok = details.locator('[data-destination-state="ok"]');
    await ok.waitFor();
    expect(await ok.innerText()).toContain('Fallback URL');
    expect(await ok.innerText()).toContain(`${siteUrl}/sorry`);
    expect(await details.locator('[data-destination-state="down"]').count()).toBe(1);
    expect(await audit(page)).toEqual([]);
    await details.scrollIntoViewIfNeeded();
    await screenshot(page, 'destination-check-down-details-1280', { fullPage: false });

    // At 375 px: the card's mark, the dashboard alert.
    const small = await app.browser.newPage({ baseURL: app.server.url, viewport: phone });
    await small.context().addCookies(await owner!.context.cookies());
    await small.goto('/my-qr-codes');
    const smallCard = small.getByRole('article', { name: 'Summer flyer' });
    await smallCard.locator('[data-mark="destination"]').waitFor();
    await smallCard.scrollIntoViewIfNeeded();
    await screenshot(small, 'destination-mark-cards-375', { fullPage: false });
    await small.goto('/');
    await small.getByRole('region', { name: 'Destinations down' }).waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(small, 'destination-alerts-dashboard-375', { fullPage: false });
    await small.close();
  });
});
