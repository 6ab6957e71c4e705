// The whole story of a smart code (issue 29, items 3 and 4): a code with a password, an iPhone rule, a
// schedule, a scan limit and UTM parameters is scanned (the password form, an iPhone after the password,
// a computer); its details page then tells its settings, how much of its limit is used, where its scans
// went, and each scan's destination — at 1280 px in a table, at 375 px as cards that fit the screen — and
// passes the WCAG audit. The designer's "Test a scan" says the scanner first sees the password form.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { audit, Findings } from './a11y';
import { desktop, phone, screenshot, signUpNewUser, withAppServer } from './harness';

const app = withAppServer();

const HOME = 'https://example.com/spring';
const APP_STORE = 'https://apps.apple.com/app/id1';
const PASSWORD = 'correct horse';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Version/17.5 Mobile/15E148 Safari/604.1';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const DAY = 86_400_000;

/** A scan of the short link as a phone's browser sends it (redirects not followed: the network is closed). */
async function scan(page: Page, url: string, userAgent: string) {
  const res = await page.request.get(url, { headers: { 'user-agent': userAgent }, maxRedirects: 0 });
  return { status: res.status(), location: res.headers()['location'] };
}

/** Texts with each run of line breaks as one (a paragraph's innerText ends in two). */
const lines = (texts: string[]) => texts.map((t) => t.trim().replace(/\n+/g, '\n'));

describe('the whole story of a smart code', () => {
  it('details page: settings, limit used, scans per outcome, a Destination per scan at 1280 and 375 px; the tester tells the password form first', async () => {
    const { context, page } = await signUpNewUser(app, 'story', desktop);
    const now = Date.now();
    const created = await page.request.post('/api/qr-codes', {
      data: {
        name: 'Spring app',
        type: 'url',
        content: HOME,
        isDynamic: true,
        password: PASSWORD,
        redirectOptions: {
          timeZone: 'Europe/Paris',
          rules: [{ label: 'App Store', conditions: [{ kind: 'os', os: ['ios'] }], destination: APP_STORE }],
          activeFrom: new Date(now - DAY).toISOString(),
          activeUntil: new Date(now + 30 * DAY).toISOString(),
          maxScans: 100,
          utm: { source: 'qr', campaign: 'spring' },
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const code = (await created.json()) as QrCode;
    const shortUrl = code.shortUrl!;

    // A first scan gets the password form; the right password; then an iPhone and a computer are served.
    expect((await scan(page, shortUrl, IPHONE)).status).toBe(200);
    const unlocked = await page.request.post(shortUrl, {
      form: { password: PASSWORD },
      headers: { origin: new URL(shortUrl).origin, 'user-agent': IPHONE },
    });
    expect(unlocked.status()).toBe(200);
    expect((await scan(page, shortUrl, IPHONE)).location).toBe(
      `${APP_STORE}?utm_source=qr&utm_campaign=spring`,
    );
    expect((await scan(page, shortUrl, WINDOWS)).location).toBe(`${HOME}?utm_source=qr&utm_campaign=spring`);

    await page.goto(`/qr-details/${code.id}`);
    const story = page.getByRole('region', { name: 'Smart redirect' });
    await story.waitFor();
    const fact = (name: string) => story.locator(`[data-fact="${name}"] dd`);
    expect(await story.locator('[data-status]').innerText()).toBe('ACTIVE');
    expect(await story.getByText('Password on').count()).toBe(1);
    expect(await fact('rules').innerText()).toBe(`App Store: Operating system is iOS → ${APP_STORE}`);
    expect(await fact('default').innerText()).toBe(HOME);
    expect(await fact('schedule').innerText()).toMatch(/^From .+ until .+ \(Europe\/Paris\)$/);
    await expect.poll(() => fact('limit').innerText()).toMatch(/^2 of 100 scans used/);
    expect(await fact('password').innerText()).toBe('On: a scanner enters it before the destination opens.');
    expect(await fact('utm').innerText()).toBe('utm_source=qr, utm_campaign=spring');
    // The password itself is shown nowhere.
    expect(await page.locator('body').innerText()).not.toContain(PASSWORD);

    const outcomes = story.getByRole('table', { name: 'Where scans went' });
    await outcomes.waitFor();
    const rows = await outcomes
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          [...tr.querySelectorAll('td')].map((td) =>
            (td as HTMLElement).innerText.trim().replace(/\n+/g, '\n'),
          ),
        ),
      );
    expect(rows).toEqual([
      [`Rule 1 (App Store)\n${APP_STORE}`, '1'],
      [`Default\n${HOME}`, '1'],
      ['Password form', '1'],
    ]);

    // Scan History: newest first, each scan with where it went.
    const history = page.getByRole('table', { name: 'Scan history' });
    const headers = await history.locator('thead th').allInnerTexts();
    expect(headers).toEqual(['Time', 'Device', 'Location', 'IP Address', 'Destination']);
    expect(lines(await history.locator('[data-destination]').allInnerTexts())).toEqual([
      `Default\n${HOME}`,
      `Rule 1 (App Store)\n${APP_STORE}`,
      'Password form',
    ]);
    await screenshot(page, 'smart-story-details-1280');

    const findings = new Findings();
    findings.add('details 1280', await audit(page));

    // At 375 px the history is a list of cards that fits the screen: nothing cut off, no page scroll.
    await page.setViewportSize(phone);
    const list = page.getByRole('list', { name: 'Scan history' });
    await list.waitFor();
    expect(await list.getByRole('listitem').count()).toBe(3);
    expect(lines([await list.locator('[data-destination]').first().innerText()])).toEqual([
      `Default\n${HOME}`,
    ]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const card of await list.getByRole('listitem').all()) {
      const box = (await card.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
    }
    findings.add('details 375', await audit(page));
    await screenshot(page, 'smart-story-details-375');
    expect(findings.count, findings.report()).toBe(0);

    // The designer's tester follows the server: the password form first, then the rule.
    await page.setViewportSize(desktop);
    await page.goto(`/edit-qr/${code.id}`);
    const section = page.getByRole('region', { name: 'Smart redirect' });
    const control = section.getByRole('button', { name: /^Test a scan/ });
    await control.click();
    await expect.poll(() => control.getAttribute('aria-expanded')).toBe('true');
    const result = section.getByRole('status', { name: 'Test result' });
    await expect
      .poll(() => result.textContent())
      .toMatch(
        /^An iPhone.* first sees the password form; after the right password, it goes to https:\/\/apps\.apple\.com\/app\/id1\?utm_source=qr&utm_campaign=spring \(rule 1, App Store\)\.$/,
      );
    expect(await section.locator('[data-scan-result]').getAttribute('data-scan-result')).toBe('password');
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'smart-story-tester-1280', { fullPage: false });
    await page.setViewportSize(phone);
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'smart-story-tester-375', { fullPage: false });
    await context.close();
  });
});
