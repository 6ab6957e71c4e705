import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeContent } from '../../src/qr/content';
import type { QrType } from '../../src/qr/qr-types';
import { composeMail } from '../../server/features/mail/layout';
import { renderLandingPage, renderNotFoundPage } from '../../server/features/redirect/landing-page';
import type { ScanLocale } from '../../server/features/redirect/landing/messages/index';
import { renderInactivePage, renderPasswordPage } from '../../server/features/redirect/landing/smart-pages';
import { audit, Findings } from './a11y';
import { desktop, launchBrowser, phone, screenshot } from './harness';

/**
 * The public pages a dynamic code's short link shows and the HTML mails: the same WCAG rules as the app,
 * in light and dark at both widths, plus a language and headings in order. The documents are the ones the
 * server sends (its render functions), loaded with setContent: no database or server needed.
 */
let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const landing: [string, QrType, Record<string, string>][] = [
  [
    'vcard',
    'vcard',
    {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 7946 0000',
      organization: 'Analytical Engines',
      title: 'Mathematician',
      website: 'https://example.com/ada',
    },
  ],
  ['wifi', 'wifi', { ssid: 'Café Guest', password: 'espresso-2026', encryption: 'WPA' }],
  [
    'event',
    'event',
    {
      title: 'Launch party',
      location: 'Main hall',
      description: 'Drinks and demos.',
      startDate: '2026-12-01T18:00',
      endDate: '2026-12-01T21:00',
      url: 'https://example.com/party',
    },
  ],
  ['text', 'text', { text: 'Welcome!\nThe menu is on the wall.' }],
  ['email', 'email', { email: 'hello@example.com', subject: 'Hello', body: 'A question about the menu.' }],
  ['sms', 'sms', { phone: '+15551234567', message: 'Table 4, please' }],
  ['phone', 'phone', { phone: '+15551234567' }],
];

const findings = new Findings();

/** Language, heading order (h1 first, no level skipped), then axe in both schemes at both widths. */
async function auditDocument(page: Page, label: string, html: string, shot = false, lang = 'en') {
  await page.setContent(html);
  const outline = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    headings: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])),
  }));
  expect(outline.lang, `${label}: <html lang>`).toBe(lang);
  expect(outline.headings[0], `${label}: the first heading is an h1`).toBe(1);
  outline.headings.forEach((level, i) => {
    if (i > 0)
      expect(level, `${label}: heading levels ${String(outline.headings)}`).toBeLessThanOrEqual(
        outline.headings[i - 1]! + 1,
      );
  });
  for (const width of [desktop, phone]) {
    await page.setViewportSize(width);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      findings.add(`${label} ${scheme} ${width.width}px`, await audit(page));
      // Nothing runs off the side, in any language.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${label} ${width.width}px: no sideways scroll`,
      ).toBeLessThanOrEqual(width.width);
      if (shot) await screenshot(page, `a11y-${label}-${scheme}-${width.width}`, { fullPage: false });
    }
  }
}

describe('landing pages and mails', () => {
  it('pass WCAG 2.2 AA with a language and headings in order', async () => {
    const page = await browser!.newPage({ viewport: desktop });
    for (const [label, type, fields] of landing) {
      const html = renderLandingPage({ type, content: encodeContent(type, fields), slug: 'abc123' });
      await auditDocument(page, `landing ${label}`, html, label === 'vcard');
    }
    await auditDocument(page, 'landing 404', renderNotFoundPage());

    const mail = composeMail(
      {
        to: 'ada@example.com',
        subject: 'Reset your password',
        greeting: 'Hello Ada,',
        paragraphs: ['Someone asked to reset the password of your QR Creator account.'],
        action: { label: 'Reset password', url: 'http://localhost:3000/reset-password?token=t' },
        footer: 'If it was not you, ignore this message.',
      },
      'http://localhost:3000',
    );
    await auditDocument(page, 'mail', mail.html ?? '', true);
    await page.close();
    expect(findings.count, findings.report()).toBe(0);
  });
});

describe('landing pages in the scanner’s language', () => {
  it('pass WCAG 2.2 AA in Arabic (right to left) and Japanese at both widths, nothing clipped', async () => {
    const page = await browser!.newPage({ viewport: desktop });
    for (const locale of ['ar', 'ja'] as ScanLocale[]) {
      for (const [label, type, fields] of landing) {
        const html = renderLandingPage(
          { type, content: encodeContent(type, fields), slug: 'abc123' },
          { locale },
        );
        await auditDocument(page, `${locale} landing ${label}`, html, label === 'wifi', locale);
        if (locale === 'ar')
          expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe('rtl');
      }
      await auditDocument(page, `${locale} landing 404`, renderNotFoundPage({ locale }), false, locale);
      await auditDocument(
        page,
        `${locale} password`,
        renderPasswordPage({ action: '/r/abc123', error: 'wrong' }, { locale }),
        true,
        locale,
      );
      await auditDocument(
        page,
        `${locale} paused`,
        renderInactivePage('paused', null, { locale }),
        false,
        locale,
      );
    }
    await page.close();
    expect(findings.count, findings.report()).toBe(0);
  });
});
