import { MantineProvider } from '@mantine/core';
import { JSDOM } from 'jsdom';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ScanResult } from '../../client/features/scan-demo/ScanResult';
import { renderLandingPage } from '../../server/features/redirect/landing-page.js';
import {
  dialable,
  emailLink,
  formatEventRange,
  mailtoLink,
  phoneNumbersIn,
  smsLink,
  telLink,
} from './actions';
import { decodeContent, encodeContent } from './content';
import type { QrType } from './qr-types';

describe('telLink', () => {
  it('dials only dialable characters', () => {
    expect(telLink('+1 (555) 123-4567')).toBe('tel:+15551234567');
    expect(telLink('+44 20 7946 0958')).toBe('tel:+442079460958');
    expect(telLink('javascript:alert(1)')).toBeNull();
    expect(telLink('   ')).toBeNull();
    expect(telLink('call me')).toBeNull();
  });

  it('turns vanity letters into their keypad digits', () => {
    expect(telLink('1-800-FLOWERS')).toBe('tel:18003569377');
    expect(telLink('+1 800 go fedex')).toBe('tel:+18004633339');
  });

  it('keeps an extension apart as ;ext=, and * # , as a dialler reads them', () => {
    expect(telLink('+1 555 123 4567 ext. 89')).toBe('tel:+15551234567;ext=89');
    expect(telLink('555 123 4567 x12')).toBe('tel:5551234567;ext=12');
    expect(telLink('1-800-FLOWERS extension 3')).toBe('tel:18003569377;ext=3');
    expect(telLink('*31#5551234567')).toBe('tel:*31%235551234567');
    expect(telLink('5551234567,,2')).toBe('tel:5551234567,,2');
  });

  it('dialable: the number and the extension', () => {
    expect(dialable(' +1 555 0100 ext 4 ')).toEqual({ number: '+15550100', extension: '4' });
    expect(dialable('5550100')).toEqual({ number: '5550100', extension: '' });
    expect(dialable('ABC')).toBeNull();
  });
});

describe('smsLink', () => {
  it('builds sms: links with an encoded body after ?&', () => {
    expect(smsLink('+1 555 0100', 'Hi & bye')).toBe('sms:+15550100?&body=Hi%20%26%20bye');
    expect(smsLink('+1 555 0100', '')).toBe('sms:+15550100');
    expect(smsLink('', 'x')).toBeNull();
  });

  it('dials the number as telLink does: vanity letters as digits, no letters left', () => {
    expect(smsLink('1-800-FLOWERS', 'Hi')).toBe('sms:18003569377?&body=Hi');
    expect(smsLink('javascript:alert(1)', 'x')).toBeNull();
  });

  it('encodes line breaks and lone surrogates in the body', () => {
    expect(smsLink('5550100', 'a\nb')).toBe('sms:5550100?&body=a%0Ab');
    expect(smsLink('5550100', 'x\uD800')).toBe('sms:5550100?&body=x%EF%BF%BD');
  });
});

describe('mailtoLink and emailLink', () => {
  it('mailtoLink: a mailto: for a valid address only', () => {
    expect(mailtoLink(' ada@example.com ')).toBe('mailto:ada@example.com');
    expect(mailtoLink('a+b@example.com')).toBe('mailto:a+b@example.com');
    expect(mailtoLink('not an address')).toBeNull();
    expect(mailtoLink('')).toBeNull();
  });

  it('emailLink: uses a mailto: payload as it is, and builds one for other e-mail payloads', () => {
    const payload = encodeContent('email', { email: 'a@b.co', subject: 'Hi there', body: '' });
    expect(emailLink(payload, decodeContent('email', payload))).toBe(payload);
    const matmsg = 'MATMSG:TO:a@b.co;SUB:Hello;BODY:World;;';
    expect(emailLink(matmsg, decodeContent('email', matmsg))).toBe('mailto:a@b.co?subject=Hello&body=World');
  });

  it('emailLink: rebuilds a stored mailto: with a quote, bracket or space in it', () => {
    const stored = 'mailto:a@b.co?subject="hi"';
    expect(emailLink(stored, decodeContent('email', stored))).toBe('mailto:a@b.co?subject=%22hi%22');
  });
});

describe('phoneNumbersIn', () => {
  const first = (text: string) => phoneNumbersIn(text)[0]?.label ?? null;

  it.each([
    ['Call me at +1 (555) 123-4567 today', '+1 (555) 123-4567'],
    ['Hotline: 0800 123 456.', '0800 123 456'],
    ['tel:+4930123456', '+4930123456'],
    ['555.123.4567', '555.123.4567'],
    ['(555) 123-4567', '(555) 123-4567'],
  ])('finds it in %j', (text, phone) => expect(first(text)).toBe(phone));

  it.each([
    'Hello world',
    'Room 12, floor 3',
    'Meet on 2026-12-24',
    'See https://example.com/items/55512345678',
    'mail bob5551234567@example.com',
    'Order ABC5551234567',
    '12345678901234567890',
    'version 1.2345678',
  ])('finds none in %j', (text) => expect(phoneNumbersIn(text)).toEqual([]));

  it('gives up to three distinct numbers, each with its tel: href', () => {
    const text = 'Desk +1 555 123 4567, again +15551234567; fax 555-987-6543, 030 1234567 or 040 7654321';
    expect(phoneNumbersIn(text)).toEqual([
      { label: '+1 555 123 4567', href: 'tel:+15551234567' },
      { label: '555-987-6543', href: 'tel:5559876543' },
      { label: '030 1234567', href: 'tel:0301234567' },
    ]);
  });

  it('stays fast on long near-misses', () => {
    const start = performance.now();
    phoneNumbersIn(`${'1-'.repeat(2000)}x`);
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe('formatEventRange', () => {
  it('formats a range in words that do not depend on the viewer’s locale', () => {
    expect(formatEventRange('2026-12-24T18:00:00.000Z', '2026-12-24T20:00:00.000Z')).toBe(
      'Thu, 24 Dec 2026, 18:00 – 20:00 UTC',
    );
  });

  it('shows the start alone, and unreadable dates as they are', () => {
    expect(formatEventRange('2026-12-24T18:00:00.000Z', '')).toBe('Thu, 24 Dec 2026, 18:00 UTC');
    expect(formatEventRange('next friday', '')).toBe('next friday');
    expect(formatEventRange('', '')).toBe('');
  });

  it("shows the times in the event's own zone and names it", () => {
    expect(formatEventRange('2026-12-24T17:00:00.000Z', '2026-12-24T19:00:00.000Z', 'Europe/Berlin')).toBe(
      'Thu, 24 Dec 2026, 18:00 – 20:00 (Europe/Berlin)',
    );
    expect(formatEventRange('2026-12-24T17:00:00.000Z', '', 'America/New_York')).toBe(
      'Thu, 24 Dec 2026, 12:00 (America/New York)',
    );
  });
});

describe('the landing page and the scan demo build the same links', () => {
  const SCHEMES = /^(?:tel|sms|mailto):/i;

  /** The tel:, sms: and mailto: hrefs of a page, in document order. */
  function actionHrefs(html: string, scheme?: string): string[] {
    const doc = new JSDOM(html).window.document;
    return [...doc.querySelectorAll('a[href]')]
      .map((a) => a.getAttribute('href') ?? '')
      .filter((href) => SCHEMES.test(href) && (scheme === undefined || href.startsWith(scheme)));
  }

  const landing = (type: QrType, content: string) => renderLandingPage({ type, content, slug: 'abc1234' });
  const scanDemo = (type: QrType, content: string) =>
    renderToStaticMarkup(
      createElement(MantineProvider, null, createElement(ScanResult, { result: { type, content } })),
    );

  it('sms with a vanity number: one sms: href, ?&body= and keypad digits, on both', () => {
    const content = encodeContent('sms', { phone: '1-800-FLOWERS', message: 'Hi & bye' });
    const fromLanding = actionHrefs(landing('sms', content), 'sms:');
    const fromScanDemo = actionHrefs(scanDemo('sms', content), 'sms:');
    expect(fromLanding).toEqual(['sms:18003569377?&body=Hi%20%26%20bye']);
    expect(fromScanDemo).toEqual(fromLanding);
    const fields = decodeContent('sms', content);
    expect(smsLink(fields.phone ?? '', fields.message ?? '')).toBe(fromLanding[0]);
  });

  it.each<[QrType, string]>([
    ['sms', 'sms:+1 555 123 4567?body=See%20you'],
    ['phone', encodeContent('phone', { phone: '+1 555 123 4567 ext. 89' })],
    ['phone', encodeContent('phone', { phone: '1-800-FLOWERS' })],
    ['email', encodeContent('email', { email: 'ada@example.com', subject: 'Hi', body: 'A & B' })],
    ['email', 'MATMSG:TO:ada@example.com;SUB:Hi;BODY:Yo;;'],
    [
      'vcard',
      encodeContent('vcard', { firstName: 'Ada', phone: '0800 FLOWERS x7', email: 'ada@example.com' }),
    ],
    ['text', 'Call +1 (555) 123-4567 or 030 1234567, not 2026-12-24'],
  ])('%s %j: the same tel:, sms: and mailto: hrefs', (type, content) => {
    const fromLanding = actionHrefs(landing(type, content));
    expect(fromLanding.length).toBeGreaterThan(0);
    // The landing page's SMS page also offers Call; the scan demo's does not.
    const fromScanDemo = actionHrefs(scanDemo(type, content));
    expect(fromScanDemo).toEqual(
      type === 'sms' ? fromLanding.filter((h) => h.startsWith('sms:')) : fromLanding,
    );
  });
});
