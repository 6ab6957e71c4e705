import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit, go, settle } from './a11y';
import { desktop, phone, screenshot, signUpNewUser, withAppServer } from './harness';

/**
 * Issue 37: the screens in the user's language. A phone set to German opens the app in German; a new user
 * switches to Japanese, then Arabic, in Settings → Appearance, and finds no English on any page of the app,
 * the page right to left in Arabic, nothing wider than a phone, and no WCAG finding.
 */
const app = withAppServer();

/** The pages a new user can open (an own code's details and designer included). */
const PAGES = [
  '/',
  '/create',
  '/my-qr-codes',
  '/import',
  '/analytics',
  '/scan-demo',
  '/settings',
  '/profile',
  '/upgrade',
  '/integrations',
  '/invitations',
  '/qr-details/$id',
  '/edit-qr/$id',
];

/** Latin words that are no English to translate: names of the product, formats, standards and services. */
const NOT_ENGLISH = new Set(
  (
    'QR Creator PNG SVG PDF EPS JPEG WebP CSV JSON URL URLs API REST UTM vCard Wi-Fi WPA WEP UTF HTTP HTTPS ' +
    'http https www com example OpenAPI SDK Zapier Slack Google Sheets Plausible Matomo Umami Shlink Kutt ' +
    'YOURLS Bitly Dub nginx Caddy Netlify Markdown CMYK RGB DPI dpi iOS Android GitHub OIDC LDAP SSO TOTP ' +
    'English Deutsch Français Español Português Brasil Italiano Nederlands Polski New User Pro Premium ' +
    'Free Team Teams localhost Chrome Headless Linux Windows macOS Webhook Webhooks POST GET HMAC SHA ' +
    'Authorization Bearer Cookie RRGGBB api-key api token generate shlink csv sql txt SMS HMAC-SHA'
  ).split(' '),
);

/** Client-side (a11y.ts), then the time the router takes to swap the last page for the next one's code. */
async function goAndWait(page: Page, path: string) {
  await go(page, path);
  await page.waitForTimeout(500);
}

/** The Latin words a reader sees or hears on the page (text, labels, titles, placeholders) but `allowed`. */
async function englishOn(page: Page, allowed: string[]): Promise<string[]> {
  const words = await page.evaluate(() => {
    const texts = [document.body.innerText, document.title];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
      for (const name of ['aria-label', 'title', 'placeholder', 'alt'])
        texts.push(el.getAttribute(name) ?? '');
    // Addresses, links and colours are no words: left out before the words are read.
    const prose = texts
      .join('\n')
      .replace(/\b(?:https?:\/\/|localhost)\S*/g, ' ')
      .replace(/#[0-9a-f]{3,8}\b/gi, ' ');
    return prose.match(/[A-Za-z][A-Za-z'’-]*[A-Za-z]/g) ?? [];
  });
  const ok = new Set([...NOT_ENGLISH, ...allowed]);
  return [...new Set(words)].filter((word) => word.length > 2 && !ok.has(word));
}

/** Settings → Appearance: a language chosen, then saved with the tab's one button (Save Preferences). */
/**
 * Words cut off: an element whose own text is wider than its box, which hides the rest (overflow hidden or
 * an ellipsis). The user's own long values (links, addresses) may be cut on purpose; labels may not.
 */
async function clippedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (!own || el.offsetParent === null) continue;
      if (/https?:|localhost|@|\//.test(own)) continue;
      const style = getComputedStyle(el);
      // Words for screen readers only (Mantine's VisuallyHidden, a 1 px clipped box) are not cut off.
      if (el.clientWidth <= 2 || style.clip.startsWith('rect') || style.clipPath.startsWith('inset'))
        continue;
      const hides = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (hides && el.scrollWidth > el.clientWidth + 1) found.push(own.slice(0, 40));
    }
    return found;
  });
}

async function chooseLanguage(page: Page, tab: string, label: string, name: string) {
  await page.getByRole('tab', { name: tab }).click();
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name }).click();
  await page.getByRole('tabpanel').getByRole('button').last().click();
}

describe('the screens in the user’s language', () => {
  it('opens in German on a phone set to German, before anyone signs in', async () => {
    const context = await app.browser.newContext({
      baseURL: app.server.url,
      viewport: phone,
      locale: 'de-DE',
    });
    const page = await context.newPage();
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Anmelden' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'de',
      'ltr',
    ]);
    expect(await page.getByRole('button', { name: 'Log in' }).count()).toBe(0);
    await screenshot(page, 'i18n-auth-de-375');
    await context.close();
  });

  it('switches a new user to Japanese, then Arabic: no English on any page, right to left, phone-wide, 0 axe findings', async () => {
    const { context, page, username } = await signUpNewUser(app, 'lang', desktop);
    page.setDefaultTimeout(20_000);
    const created = await page.request.post('/api/qr-codes', {
      data: { name: 'Menu', type: 'url', content: 'https://example.com/menu', isDynamic: true },
    });
    expect(created.status()).toBe(201);
    const id = String(((await created.json()) as { id: number }).id);
    // The user's own words: their name (letters of 'lang<digits>') and their code's.
    const allowed = [username, 'lang', 'Menu', 'menu', `${username}@example.com`];

    await page.goto('/settings');
    await chooseLanguage(page, 'Appearance', 'Language', '日本語');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ja');
    // Kept for the account: a reload (and any other browser) opens in Japanese.
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ja');

    const check = async (language: string, tab: string) => {
      const found: string[] = [];
      const findings: string[] = [];
      for (const path of PAGES.map((p) => p.replace('$id', id))) {
        await page.setViewportSize(desktop);
        await goAndWait(page, path);
        await settle(page);
        const english = await englishOn(page, allowed);
        if (english.length) found.push(`${path}: ${english.join(', ')}`);
        await page.setViewportSize(phone);
        await settle(page);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > phone.width) findings.push(`${path}: ${width} px wide at 375`);
        for (const text of await clippedText(page)) findings.push(`${path} 375: "${text}" cut off`);
        for (const f of await audit(page)) findings.push(`${path} 375: ${f.rule} on ${f.target}`);
        await screenshot(page, `i18n-${language}${path.replace(/\W+/g, '-')}-375`, { fullPage: false });
      }
      expect(found, `English on the ${language} screens`).toEqual([]);
      expect(findings, `layout and WCAG in ${language}`).toEqual([]);
      await goAndWait(page, '/settings');
      await settle(page);
      return tab;
    };
    await check('ja', 'Appearance');

    await page.setViewportSize(desktop);
    // Settings → Appearance → Language, now in Japanese: found by place, their words read off the page.
    const appearance = await page.getByRole('tab').nth(2).innerText();
    await page.getByRole('tab', { name: appearance }).click();
    const languageLabel = await page.evaluate(
      () => document.querySelector('[data-language-select] label')?.textContent?.trim() ?? '',
    );
    expect(languageLabel).not.toBe('');
    await chooseLanguage(page, appearance, languageLabel, 'العربية');
    await expect
      .poll(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]))
      .toEqual(['ar', 'rtl']);
    await check('ar', appearance);
    await context.close();
  }, 240_000);
});
