import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { contentFields } from '../../../../../src/qr/content-fields.js';
import { encodeContent } from '../../../../../src/qr/content.js';
import { renderLandingPage, renderNotFoundPage } from '../../landing-page.js';
import { renderInactivePage, renderPasswordThrottledPage } from '../smart-pages.js';
import { directionOf, SCAN_LOCALES, scanLocaleOf, scanMessages, type ScanLocale } from './index.js';
import type { ScanMessages } from './messages.js';

const LOCALES = Object.keys(SCAN_LOCALES) as ScanLocale[];

/** Every message as [path, text], functions called with a marker for each placeholder. */
function leaves(m: unknown, path = ''): [string, string][] {
  if (typeof m === 'string') return [[path, m]];
  if (typeof m === 'function') return [[path, String((m as (x: unknown) => string)('⟦X⟧'))]];
  return Object.entries(m as object).flatMap(([key, value]) => leaves(value, path ? `${path}.${key}` : key));
}

describe('the scan pages’ languages', () => {
  it('picks the first language the scanner’s browser asks for that we have, by its primary subtag', () => {
    expect(scanLocaleOf('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(scanLocaleOf('de-AT')).toBe('de');
    expect(scanLocaleOf('pt-PT,pt;q=0.9')).toBe('pt-BR');
    expect(scanLocaleOf('zh-CN')).toBe('zh-CN');
    expect(scanLocaleOf('zh-TW,zh;q=0.9')).toBe('zh-CN');
    expect(scanLocaleOf('sv-SE, fr;q=0.5, en;q=0.4')).toBe('fr');
    expect(scanLocaleOf('en;q=0.5, ja')).toBe('ja');
    expect(scanLocaleOf('fr;q=0, de')).toBe('de');
    expect(scanLocaleOf('ar-EG')).toBe('ar');
    expect(scanLocaleOf('sv')).toBe('en');
    expect(scanLocaleOf('*')).toBe('en');
    expect(scanLocaleOf('')).toBe('en');
    expect(scanLocaleOf(undefined)).toBe('en');
    expect(scanLocaleOf('garbage;;;,,q=')).toBe('en');
  });

  it('has every message in every language, none empty, each placeholder used, and each one translated', () => {
    const english = new Map(leaves(SCAN_LOCALES.en));
    for (const locale of LOCALES) {
      const messages = leaves(SCAN_LOCALES[locale]);
      expect(
        messages.map(([path]) => path),
        locale,
      ).toEqual([...english.keys()]);
      for (const [path, text] of messages) {
        expect(text.trim(), `${locale} ${path}`).not.toBe('');
        const fn = path
          .split('.')
          .reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], SCAN_LOCALES[locale]);
        if (typeof fn === 'function') expect(text, `${locale} ${path} uses its placeholder`).toContain('⟦X⟧');
      }
      if (locale === 'en') continue;
      // A few words are the same in some languages (SMS, Contact, Password…); most must not be.
      const same = messages.filter(([path, text]) => english.get(path) === text);
      expect(same.length, `${locale} keeps in English: ${same.map(([p]) => p).join(', ')}`).toBeLessThan(
        messages.length / 10,
      );
    }
  });

  it('says how many minutes as each language counts them', () => {
    const throttled = (locale: ScanLocale, n: number) => scanMessages(locale).password.throttled(n);
    expect(throttled('en', 1)).toContain('1 minute.');
    expect(throttled('en', 2)).toContain('2 minutes.');
    expect(throttled('pl', 1)).toContain('1 minutę');
    expect(throttled('pl', 3)).toContain('3 minuty');
    expect(throttled('pl', 5)).toContain('5 minut.');
    expect(throttled('pl', 22)).toContain('22 minuty');
    expect(throttled('ar', 1)).toContain('دقيقة واحدة');
    expect(throttled('ar', 2)).toContain('دقيقتين');
    expect(throttled('ar', 3)).toContain('3 دقائق');
    expect(throttled('ar', 15)).toContain('15 دقيقة');
    for (const locale of LOCALES)
      for (const n of [3, 5, 12, 25]) expect(throttled(locale, n)).toContain(String(n));
  });

  it('in English, uses the designer’s own field labels', () => {
    const label = (type: keyof typeof contentFields, name: string) =>
      contentFields[type].find((f) => f.name === name)?.label;
    const m: ScanMessages = SCAN_LOCALES.en;
    expect([m.email.subject, m.email.message, m.sms.message]).toEqual([
      label('email', 'subject'),
      label('email', 'body'),
      label('sms', 'message'),
    ]);
    expect([m.wifi.security, m.wifi.password]).toEqual([
      label('wifi', 'encryption'),
      label('wifi', 'password'),
    ]);
    expect([m.contact.phone, m.contact.email, m.contact.website]).toEqual([
      label('vcard', 'phone'),
      label('vcard', 'email'),
      label('vcard', 'website'),
    ]);
    expect([m.event.location, m.event.description]).toEqual([
      label('event', 'location'),
      label('event', 'description'),
    ]);
  });
});

const page = (html: string) => new JSDOM(html).window.document;

describe('a scan page in the scanner’s language', () => {
  const wifi = encodeContent('wifi', { ssid: 'Café Lumière', encryption: 'WPA', password: 'croissant42' });

  it('shows a Wi-Fi code in German: lang, words, steps and the copy script’s words', () => {
    const doc = page(
      renderLandingPage({ type: 'wifi', content: wifi, slug: 'abc' }, { locale: 'de', nonce: 'bm9uY2U=' }),
    );
    expect(doc.documentElement.getAttribute('lang')).toBe('de');
    expect(doc.documentElement.getAttribute('dir')).toBe('ltr');
    expect(doc.querySelector('.k')?.textContent).toBe('WLAN');
    expect(doc.querySelector('h1')?.textContent).toBe('Café Lumière');
    expect([...doc.querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['Sicherheit', 'Passwort']);
    expect(doc.querySelector('#cp')?.textContent).toBe('Passwort kopieren');
    expect(doc.querySelector('.h h2')?.textContent).toBe('So verbinden Sie sich');
    expect(doc.querySelectorAll('.h li')[1]?.textContent).toBe('Wählen Sie das Netzwerk „Café Lumière“.');
    expect(doc.querySelector('script')?.textContent).toContain('"Kopiert"');
    expect(doc.querySelector('footer')?.textContent).toBe('Erstellt mit QR Creator');
    expect(doc.body.textContent).not.toMatch(/Copy password|How to connect|Security|Made with/);
  });

  it('writes Arabic right to left, the network name keeping its own direction', () => {
    const html = renderLandingPage({ type: 'wifi', content: wifi, slug: 'abc' }, { locale: 'ar' });
    const doc = page(html);
    expect(doc.documentElement.getAttribute('lang')).toBe('ar');
    expect(doc.documentElement.getAttribute('dir')).toBe('rtl');
    expect(doc.querySelector('.h h2')?.textContent).toBe('طريقة الاتصال');
    expect(html).toContain('unicode-bidi:plaintext');
    expect(html).toContain('padding-inline-start');
    expect(directionOf('ja')).toBe('ltr');
  });

  it('writes an event’s dates as the language does, in the event’s own zone', () => {
    const content = encodeContent('event', {
      title: 'Sommerfest',
      startDate: '2026-07-04T16:00:00.000Z',
      endDate: '2026-07-04T20:00:00.000Z',
      timeZone: 'Europe/Berlin',
    });
    const when = (locale: ScanLocale) =>
      page(renderLandingPage({ type: 'event', content, slug: 'e' }, { locale })).querySelector('dd')
        ?.textContent;
    expect(when('en')).toBe('Sat, 4 Jul 2026, 18:00 – 22:00 (Europe/Berlin)');
    expect(when('de')).toBe('Sa., 4. Juli 2026, 18:00–22:00 Uhr (Europe/Berlin)');
    expect(when('ja')).toBe('2026/7/4(土) 18時00分～22時00分 (Europe/Berlin)');
    expect(when('fr')).toContain('sam. 4 juil. 2026');
  });

  it('says not found, paused and too many tries in the scanner’s language', () => {
    expect(page(renderNotFoundPage({ locale: 'ja' })).querySelector('h1')?.textContent).toBe(
      'この QR コードは無効です',
    );
    expect(page(renderInactivePage('paused', null, { locale: 'es' })).querySelector('h1')?.textContent).toBe(
      'Este código QR está en pausa',
    );
    // The owner's own message is shown as written.
    expect(
      page(renderInactivePage('ended', 'Bis bald!', { locale: 'fr' })).querySelector('.t')?.textContent,
    ).toBe('Bis bald!');
    expect(page(renderPasswordThrottledPage(240, { locale: 'pl' })).querySelector('.t')?.textContent).toBe(
      'Zbyt wiele nieprawidłowych haseł. Spróbuj ponownie za 4 minuty.',
    );
  });
});
