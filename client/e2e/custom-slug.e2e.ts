// Your own back-half (issue 35, item 1) as an owner meets it in the designer: the Short link field checked
// live while typing (available, taken by anyone's link, reserved, lower case), a save refused when another
// link takes the back-half in the meantime (nothing typed is lost), the details page and the redirect in
// any case; editing a scanned code's short link asks first, and both links redirect afterwards, while a
// code never scanned frees its old one. Screenshots at 1280 and 375 px, light and dark, with a WCAG audit.
// Short domains (issue 35, item 2): a code put on a domain the admin added, which answers its link at the
// root and is no app.
import http from 'node:http';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import type { AvailableDomains } from '../../src/qr/short-domain.schema';
import { audit, Findings, installAxe } from './a11y';
import {
  addShortDomainAsAdmin,
  allowConsoleErrors,
  phone,
  screenshot,
  signUpNewUser,
  withAppServer,
} from './harness';

const ADMIN_PASSWORD = 'admin-e2e-password';
const app = withAppServer({ FREE_PLAN_LIMIT: '50', ADMIN_PASSWORD });

const DESTINATION = 'https://example.com/menu';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Version/17.5 Mobile/15E148 Safari/604.1';

let made = 0;
/** A back-half no other test of this run has: `menu-k3x9a1`. */
function unique(stem: string): string {
  made += 1;
  return `${stem}-${made}${Date.now().toString(36)}`;
}

/** The owner's codes, newest first. */
async function listCodes(page: Page): Promise<QrCode[]> {
  const res = await page.request.get('/api/qr-codes');
  expect(res.status()).toBe(200);
  return (await res.json()) as QrCode[];
}

/** A GET of a short link as a phone's scan, without following it: [status, Location]. */
async function scan(page: Page, url: string): Promise<[number, string | undefined]> {
  const res = await page.request.get(url, { headers: { 'user-agent': IPHONE }, maxRedirects: 0 });
  return [res.status(), res.headers()['location']];
}

/** The fixed part the field shows for the app's own address: PUBLIC_URL's host and /r/ (`localhost:3000/r/`). */
async function appPrefix(page: Page): Promise<string> {
  const res = await page.request.get('/api/short-domains');
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as AvailableDomains).defaultBase.replace(/^https?:\/\//, '');
}

/**
 * A GET of `path` at the app's port sent to `host`, as a visitor of a short domain reaches it through the
 * reverse proxy, without following it: [status, Location]. Node's own client: Playwright's request API
 * sets the Host header from the URL.
 */
function getOnHost(host: string, path: string): Promise<[number, string | undefined]> {
  const { hostname, port } = new URL(app.server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname, port, path, method: 'GET', headers: { host, 'user-agent': IPHONE } },
      (res) => {
        res.resume();
        resolve([res.statusCode ?? 0, res.headers.location]);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Every back-half the page asked the server about (qr.slugAvailability), in order. */
function watchSlugQuestions(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/trpc/') || !url.pathname.includes('qr.slugAvailability')) return;
    const procedures = url.pathname.slice('/trpc/'.length).split(',');
    const inputs = JSON.parse(url.searchParams.get('input') ?? '{}') as Record<string, { slug?: string }>;
    procedures.forEach((procedure, i) => {
      const slug = inputs[String(i)]?.slug;
      if (procedure === 'qr.slugAvailability' && slug !== undefined) asked.push(slug);
    });
  });
  return asked;
}

/** /create with a dynamic URL code's name and destination filled in. */
async function startCode(page: Page, name: string) {
  await page.goto('/create');
  await page.getByLabel(/^Name/).fill(name);
  await page.getByLabel(/^URL/).fill(DESTINATION);
  expect(await page.getByLabel('Dynamic QR code').isChecked()).toBe(true);
}

const shortLink = (page: Page) => page.getByLabel('Short link', { exact: true });
/** The field's own message under the input (Mantine's error or success line). */
const fieldMessage = (page: Page, text: string) =>
  page
    .locator('.mantine-InputWrapper-root')
    .filter({ has: shortLink(page) })
    .getByText(text, { exact: true });

describe('the Short link field', () => {
  it('creates a code with its own short link, shown on its details page and redirecting in any case', async () => {
    const { context, page } = await signUpNewUser(app, 'slugowner');
    const asked = watchSlugQuestions(page);
    const slug = unique('menu');
    await startCode(page, 'Lunch menu');
    await page.getByText('Leave empty for a random one.').waitFor();
    // The fixed part of the link sits before the input: the server's public address without its scheme.
    await page.getByText(await appPrefix(page), { exact: true }).waitFor();
    // No short domain on this server: nothing to choose.
    expect(await page.getByRole('combobox', { name: 'Domain' }).count()).toBe(0);

    // Typed key by key, in capitals: checked once the typing rests, never for a text too short to be one.
    await shortLink(page).pressSequentially(slug.toUpperCase(), { delay: 20 });
    await fieldMessage(page, 'Available').waitFor();
    await page.getByText(`Saved in lower case: ${slug}`).waitFor();
    expect(asked).toContain(slug);
    expect(asked.every((s) => s.length >= 3)).toBe(true);
    expect(asked.length).toBeLessThan(slug.length);
    await screenshot(page, 'custom-slug-available-1280');

    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    const code = (await listCodes(page)).find((c) => c.name === 'Lunch menu')!;
    expect(code.slug).toBe(slug);
    // PUBLIC_URL is the default http://localhost:<port>; the page is at 127.0.0.1.
    expect(new URL(code.shortUrl!).pathname).toBe(`/r/${slug}`);

    await page.goto(`/qr-details/${code.id}`);
    await page.getByText(code.shortUrl!, { exact: true }).waitFor();
    await screenshot(page, 'custom-slug-details-1280');

    expect(await scan(page, `/r/${slug}`)).toEqual([302, DESTINATION]);
    expect(await scan(page, `/r/${slug.toUpperCase()}`)).toEqual([302, DESTINATION]);
    await context.close();
  });

  it('says a taken or reserved back-half and will not save it; one taken meanwhile is refused on the field', async () => {
    const first = await signUpNewUser(app, 'slugfirst');
    const slug = unique('taken');
    const made = await first.page.request.post('/api/qr-codes', {
      data: { name: 'First', type: 'url', content: DESTINATION, isDynamic: true, slug },
    });
    expect(made.status(), await made.text()).toBe(201);

    // Another account: short links are one namespace for the whole server.
    const { context, page } = await signUpNewUser(app, 'slugsecond');
    const asked = watchSlugQuestions(page);
    await startCode(page, 'Second');
    await shortLink(page).fill(slug);
    await fieldMessage(page, 'This short link is taken').waitFor();
    expect(await shortLink(page).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'custom-slug-taken-1280');
    await page.getByRole('button', { name: 'Create QR Code' }).click();
    // Not sent: the field keeps the focus and the message; the page stays.
    await expect.poll(() => shortLink(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await fieldMessage(page, 'This short link is taken').waitFor();
    expect(new URL(page.url()).pathname).toBe('/create');
    expect(await listCodes(page)).toEqual([]);

    // Reserved: said from the shared list, without asking the server.
    await shortLink(page).fill('Admin');
    await fieldMessage(page, 'This short link is reserved').waitFor();
    await shortLink(page).fill('ab');
    await fieldMessage(page, 'Short link must be at least 3 characters').waitFor();
    await shortLink(page).fill('a b c');
    await fieldMessage(page, 'Short link may contain only letters, digits, - and _').waitFor();
    expect(asked.filter((s) => s === 'admin' || s.length < 3 || s.includes(' '))).toEqual([]);

    // Available when checked, then taken by the first owner before the save: the server's 409 is said
    // on the field and everything typed stays.
    allowConsoleErrors(page, /status of 409 \(Conflict\).*qr\.create/);
    const late = unique('late');
    await shortLink(page).fill(late);
    await fieldMessage(page, 'Available').waitFor();
    const taken = await first.page.request.post('/api/qr-codes', {
      data: { name: 'Quicker', type: 'url', content: DESTINATION, isDynamic: true, slug: late },
    });
    expect(taken.status(), await taken.text()).toBe(201);
    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await fieldMessage(page, 'This short link is taken').waitFor();
    await expect.poll(() => shortLink(page).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/create');
    expect(await page.getByLabel(/^Name/).inputValue()).toBe('Second');
    expect(await page.getByLabel(/^URL/).inputValue()).toBe(DESTINATION);
    expect(await shortLink(page).inputValue()).toBe(late);
    expect(await listCodes(page)).toEqual([]);

    // Emptied: a random one, as before the field existed.
    await shortLink(page).fill('');
    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    const [created] = await listCodes(page);
    expect(created!.slug).toMatch(/^[A-Za-z0-9]{7}$/);
    await context.close();
    await first.context.close();
  });

  it('asks before changing the short link of a scanned code; both links redirect afterwards', async () => {
    const { context, page } = await signUpNewUser(app, 'slugedit');
    const res = await page.request.post('/api/qr-codes', {
      data: { name: 'Printed poster', type: 'url', content: DESTINATION, isDynamic: true },
    });
    expect(res.status(), await res.text()).toBe(201);
    const code = (await res.json()) as QrCode;
    const oldPath = new URL(code.shortUrl!).pathname;
    expect(await scan(page, oldPath)).toEqual([302, DESTINATION]);
    // Scans are written in batches: wait until the code's total counts this one.
    await expect
      .poll(async () => {
        const analytics = await page.request.get(`/api/analytics/qr-codes/${code.id}`);
        return ((await analytics.json()) as { totalScans: number }).totalScans;
      })
      .toBe(1);

    await page.goto(`/edit-qr/${code.id}`);
    expect(await shortLink(page).inputValue()).toBe(code.slug);
    // Editing, the fixed part is the code's own link less its back-half and scheme.
    await page
      .getByText(code.shortUrl!.slice(0, -code.slug!.length).replace(/^https?:\/\//, ''), { exact: true })
      .waitFor();
    const slug = unique('poster');
    await shortLink(page).fill(slug);
    await fieldMessage(page, 'Available').waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change the short link?' });
    await dialog
      .getByText(
        `This code has been scanned 1 time. Its old link ${code.shortUrl} will keep redirecting here, ` +
          'because it may already be printed.',
      )
      .waitFor();
    await screenshot(page, 'custom-slug-change-dialog-1280');

    // Cancel keeps the page as it was, the new text included.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/edit-qr/${code.id}`);
    expect(await shortLink(page).inputValue()).toBe(slug);

    // Again, and confirmed from the keyboard.
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Change short link' });
    for (let i = 0; i < 6 && !(await confirm.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    expect(await confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await page.getByText('QR Code Updated').waitFor();

    const saved = (await listCodes(page)).find((c) => c.id === code.id)!;
    expect(saved.slug).toBe(slug);
    expect(new URL(saved.shortUrl!).pathname).toBe(`/r/${slug}`);
    expect(await scan(page, `/r/${slug}`)).toEqual([302, DESTINATION]);
    expect(await scan(page, oldPath)).toEqual([302, DESTINATION]);
    await context.close();
  });

  it('changes a never-scanned code without asking, and frees its old link', async () => {
    const { context, page } = await signUpNewUser(app, 'slugfresh');
    const res = await page.request.post('/api/qr-codes', {
      data: { name: 'Draft flyer', type: 'url', content: DESTINATION, isDynamic: true },
    });
    const code = (await res.json()) as QrCode;
    await page.goto(`/edit-qr/${code.id}`);
    const slug = unique('flyer');
    await shortLink(page).fill(slug);
    await fieldMessage(page, 'Available').waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    expect(await page.getByRole('dialog', { name: 'Change the short link?' }).count()).toBe(0);
    expect((await listCodes(page)).find((c) => c.id === code.id)!.slug).toBe(slug);
    expect(await scan(page, `/r/${slug}`)).toEqual([302, DESTINATION]);
    expect((await scan(page, new URL(code.shortUrl!).pathname))[0]).toBe(404);
    await context.close();
  });

  it('fits a phone, and passes WCAG 2.2 AA in light and dark while available, taken and in capitals', async () => {
    const first = await signUpNewUser(app, 'slugphonefirst');
    const taken = unique('phone-taken');
    const made = await first.page.request.post('/api/qr-codes', {
      data: { name: 'First', type: 'url', content: DESTINATION, isDynamic: true, slug: taken },
    });
    expect(made.status(), await made.text()).toBe(201);
    await first.context.close();

    const { context, page } = await signUpNewUser(app, 'slugphone', phone);
    await installAxe(context);
    const findings = new Findings();
    await startCode(page, 'Phone menu');
    const states: [string, string, string][] = [
      ['available', unique('Phone-Menu'), 'Available'],
      ['taken', taken, 'This short link is taken'],
    ];
    for (const [state, text, message] of states) {
      await shortLink(page).fill(text);
      await fieldMessage(page, message).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        phone.width,
      );
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction(
          (s) => document.documentElement.getAttribute('data-mantine-color-scheme') === s,
          scheme,
        );
        findings.add(`create ${state} ${scheme} 375px`, await audit(page));
        // In the middle of the window: the phone's bar of actions covers its bottom.
        await shortLink(page).evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await screenshot(page, `custom-slug-${state}-${scheme}-375`, { fullPage: false });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    // The dark desktop, once.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await shortLink(page).fill(unique('Dark-Menu'));
    await fieldMessage(page, 'Available').waitFor();
    findings.add('create available dark 1280px', await audit(page));
    await shortLink(page).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'custom-slug-available-dark-1280', { fullPage: false });
    expect(findings.count, findings.report()).toBe(0);
    await context.close();
  });
  // Last: the domain it adds is offered to every workspace of this server from then on.
  it('puts a code on a short domain the admin added: the domain answers its link at the root, and is no app', async () => {
    const domain = await addShortDomainAsAdmin(app, ADMIN_PASSWORD, 'go.example.test');

    const { context, page } = await signUpNewUser(app, 'slugdomain');
    await installAxe(context);
    const slug = unique('menu');
    await startCode(page, 'Menu on our domain');
    const prefix = await appPrefix(page);
    // The app's own address first, then the domain; the fixed part follows the choice.
    const select = page.getByRole('combobox', { name: 'Domain' });
    expect(await select.inputValue()).toBe(prefix);
    // The fixed part before the input (the select's list, drawn apart, has the same words).
    const form = page.getByRole('form', { name: 'Create QR code' });
    await form.getByText(prefix, { exact: true }).waitFor();
    await select.click();
    expect(await page.getByRole('option').allTextContents()).toEqual([prefix, 'go.example.test']);
    await page.getByRole('option', { name: 'go.example.test' }).click();
    expect(await select.inputValue()).toBe('go.example.test');
    await form.getByText('go.example.test/', { exact: true }).waitFor();
    await shortLink(page).fill(slug);
    await fieldMessage(page, 'Available').waitFor();

    const findings = new Findings();
    findings.add('create on a short domain 1280px', await audit(page));
    await shortLink(page).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'custom-slug-domain-1280', { fullPage: false });
    await page.setViewportSize(phone);
    await shortLink(page).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    findings.add('create on a short domain 375px', await audit(page));
    await screenshot(page, 'custom-slug-domain-375', { fullPage: false });
    expect(findings.count, findings.report()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    const code = (await listCodes(page)).find((c) => c.name === 'Menu on our domain')!;
    expect(code.domainId).toBe(domain.id);
    expect(code.shortUrl).toBe(`http://go.example.test/${slug}`);
    await page.goto(`/qr-details/${code.id}`);
    await page.getByText(`http://go.example.test/${slug}`, { exact: true }).waitFor();

    // The domain answers the link at its root, in any case; the app's own address keeps answering too.
    expect(await getOnHost('go.example.test', `/${slug}`)).toEqual([302, DESTINATION]);
    expect(await getOnHost('go.example.test:443', `/${slug.toUpperCase()}`)).toEqual([302, DESTINATION]);
    expect(await scan(page, `/r/${slug}`)).toEqual([302, DESTINATION]);
    // The app is not there.
    expect((await getOnHost('go.example.test', '/create'))[0]).toBe(404);

    // Scanned: the scans above are written in batches.
    await expect
      .poll(async () => {
        const analytics = await page.request.get(`/api/analytics/qr-codes/${code.id}`);
        return ((await analytics.json()) as { totalScans: number }).totalScans;
      })
      .toBeGreaterThan(0);

    // Editing starts from the code's domain; moving the scanned code back to the app's address asks first.
    await page.goto(`/edit-qr/${code.id}`);
    expect(await shortLink(page).inputValue()).toBe(slug);
    const editSelect = page.getByRole('combobox', { name: 'Domain' });
    expect(await editSelect.inputValue()).toBe('go.example.test');
    const editForm = page.getByRole('form', { name: 'Edit QR code' });
    await editForm.getByText('go.example.test/', { exact: true }).waitFor();
    await editSelect.click();
    await page.getByRole('option', { name: prefix }).click();
    await editForm.getByText(prefix, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change the short link?' });
    // The count of scans first (those above, as many as the batches have written), then the old links.
    await dialog
      .getByText(
        `Its old link http://go.example.test/${slug} will keep redirecting here, because it may already be ` +
          'printed. The domain go.example.test keeps answering while this workspace may use it, and ' +
          `http://${prefix}${slug} keeps working too.`,
      )
      .waitFor();
    await screenshot(page, 'custom-slug-domain-change-dialog-1280', { fullPage: false });
    await dialog.getByRole('button', { name: 'Change short link' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    const moved = (await listCodes(page)).find((c) => c.id === code.id)!;
    expect(moved.domainId).toBeNull();
    expect(moved.shortUrl).toBe(`http://${prefix}${slug}`);
    // The workspace may still use the domain: the printed link keeps answering there.
    expect(await getOnHost('go.example.test', `/${slug}`)).toEqual([302, DESTINATION]);
    await context.close();
  });
});
