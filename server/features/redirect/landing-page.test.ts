import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { decodeContent, encodeContent } from '../../../src/qr/content.js';
import type { QrType } from '../../../src/qr/qr-types.js';
import { formatEventRange } from '../../../src/qr/actions.js';
import { calendarFile, contactFile } from './landing/downloads.js';
import { renderLandingPage, renderNotFoundPage } from './landing-page.js';

const SLUG = 'abc1234';
const NONCE = 'r4nd0mN0nce+/==';

function page(type: QrType, fields: Record<string, string>, name = 'My code', nonce?: string) {
  const content = encodeContent(type, fields);
  const html = renderLandingPage({ type, content, name, slug: SLUG }, nonce ? { nonce } : {});
  return { html, doc: new JSDOM(html).window.document };
}

function buttons(doc: Document): { text: string; href: string | null }[] {
  return [...doc.querySelectorAll('a.b')].map((a) => ({ text: a.textContent, href: a.getAttribute('href') }));
}

const lines = (body: string) => body.split('\r\n');

describe('renderLandingPage: the document', () => {
  const { html, doc } = page('phone', { phone: '+1 555 123 4567' }, 'Front desk');

  it('is a small mobile-first HTML5 page: viewport, noindex, light/dark, the content as title, the footer', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(doc.querySelector('meta[name="viewport"]')?.getAttribute('content')).toContain(
      'width=device-width',
    );
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(html).toContain('prefers-color-scheme:dark');
    expect(doc.title).toBe('+1 555 123 4567');
    expect(doc.querySelector('h1')?.textContent).toBe('+1 555 123 4567');
    expect(html).not.toContain('Front desk');
    expect(doc.querySelector('footer')?.textContent).toBe('Made with QR Creator');
  });

  it('has inline CSS under 4 KB, no external resources and no script outside the Wi-Fi page', () => {
    const css = doc.querySelector('style')?.textContent ?? '';
    expect(Buffer.byteLength(css)).toBeLessThan(4096);
    expect(doc.querySelectorAll('link, img, iframe, script')).toHaveLength(0);
    expect(Buffer.byteLength(html)).toBeLessThan(8192);
  });

  it('never shows the code’s name, and puts the nonce on the style', () => {
    const { html: h, doc: d } = page('phone', { phone: '+15551234567' }, 'PHONE QR Code', NONCE);
    expect(d.title).toBe('+15551234567');
    expect(h).not.toContain('QR Code');
    expect(d.querySelector('style')?.getAttribute('nonce')).toBe(NONCE);
    expect(renderLandingPage({ type: 'phone', content: 'tel:+15551234567', slug: SLUG })).toBe(
      renderLandingPage({ type: 'phone', content: 'tel:+15551234567', name: 'Other', slug: SLUG }),
    );
  });

  it('refuses a nonce that is not base64', () => {
    expect(() =>
      renderLandingPage({ type: 'text', content: 'x', name: 'x', slug: SLUG }, { nonce: '"><script>' }),
    ).toThrow(TypeError);
  });
});

describe('renderLandingPage: per type', () => {
  it('text: heads with a short first line, keeps line breaks, links http(s) URLs, offers Call', () => {
    const rest = 'Call us: +1 (555) 123-4567\nMenu: https://example.com/menu?a=1&b=2.\nOpen 2026-12-24';
    const { doc } = page('text', { text: `Welcome!\n${rest}` });
    expect(doc.querySelector('h1')?.textContent).toBe('Welcome!');
    expect(doc.title).toBe('Welcome!');
    const p = doc.querySelector('.c .t');
    expect(p?.textContent).toBe(rest);
    const anchor = p?.querySelector('a');
    expect(anchor?.getAttribute('href')).toBe('https://example.com/menu?a=1&b=2');
    expect(anchor?.getAttribute('rel')).toBe('noopener nofollow ugc');
    expect(buttons(doc)).toEqual([{ text: 'Call +1 (555) 123-4567', href: 'tel:+15551234567' }]);
  });

  it('text: no Call button and no link without a phone number or an http(s) URL', () => {
    const { doc } = page('text', { text: 'ftp://example.com and javascript:alert(1), version 1.2345678' });
    expect(doc.querySelectorAll('a')).toHaveLength(0);
  });

  it('email: heads with the address, shows subject and body; Send email is the mailto payload', () => {
    const fields = { email: 'ada@example.com', subject: 'Hello there', body: 'Line 1\nLine 2 & more' };
    const { doc } = page('email', fields);
    expect(doc.querySelector('h1')?.textContent).toBe('ada@example.com');
    const dds = [...doc.querySelectorAll('dd')].map((d) => d.textContent);
    expect(dds).toEqual(['Hello there', 'Line 1\nLine 2 & more']);
    const href = encodeContent('email', fields);
    expect(buttons(doc)).toEqual([{ text: 'Send email', href }]);
    expect(decodeContent('email', href)).toEqual(fields);
  });

  it('email: a payload that is not a mailto (MATMSG) gets a re-encoded mailto href', () => {
    const html = renderLandingPage({
      type: 'email',
      content: 'MATMSG:TO:ada@example.com;SUB:Hi;BODY:Yo;;',
      name: 'Mail',
      slug: SLUG,
    });
    const doc = new JSDOM(html).window.document;
    expect(buttons(doc)[0]?.href).toBe('mailto:ada@example.com?subject=Hi&body=Yo');
  });

  it('sms: Send SMS is sms:<phone>?&body=<percent-encoded>, and Call is tel:', () => {
    const { doc } = page('sms', { phone: '+1 555-123-4567', message: 'Hi there & bye' });
    expect(buttons(doc)).toEqual([
      { text: 'Send SMS', href: 'sms:+15551234567?&body=Hi%20there%20%26%20bye' },
      { text: 'Call', href: 'tel:+15551234567' },
    ]);
    expect(doc.querySelector('h1')?.textContent).toBe('+1 555-123-4567');
    expect([...doc.querySelectorAll('dd')].map((d) => d.textContent)).toEqual(['Hi there & bye']);
  });

  it('sms: without a message the link carries no body', () => {
    const { doc } = page('sms', { phone: '5551234567', message: '' });
    expect(buttons(doc)[0]?.href).toBe('sms:5551234567');
  });

  it('phone: the number and Call (tel:), vanity letters and an extension dialled right', () => {
    expect(buttons(page('phone', { phone: '+44 20 7946 0958' }).doc)).toEqual([
      { text: 'Call', href: 'tel:+442079460958' },
    ]);
    expect(buttons(page('phone', { phone: '1-800-FLOWERS' }).doc)[0]?.href).toBe('tel:18003569377');
    expect(buttons(page('phone', { phone: '+1 555 123 4567 ext. 89' }).doc)[0]?.href).toBe(
      'tel:+15551234567;ext=89',
    );
  });

  it('wifi: network, security, the password and a Copy password button driven by the nonce’d script', () => {
    const { doc } = page(
      'wifi',
      { ssid: 'Cafe Guest', password: ' s3cret;"pw ', encryption: 'WPA' },
      'Wi',
      NONCE,
    );
    expect(doc.querySelector('h1')?.textContent).toBe('Cafe Guest');
    expect(doc.title).toBe('Cafe Guest');
    const dds = [...doc.querySelectorAll('dd')].map((d) => d.textContent);
    expect(dds).toEqual(['WPA/WPA2', ' s3cret;"pw ']);
    expect(doc.getElementById('pw')?.textContent).toBe(' s3cret;"pw ');
    const copy = doc.getElementById('cp');
    expect(copy?.tagName).toBe('BUTTON');
    expect(copy?.textContent).toBe('Copy password');
    const scripts = doc.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.getAttribute('nonce')).toBe(NONCE);
    expect(scripts[0]?.textContent).toContain('clipboard');
    expect(scripts[0]?.textContent).not.toContain('s3cret');
    expect(doc.querySelector('.h')?.textContent).toContain('Wi-Fi settings');
    expect(doc.querySelector('.h')?.textContent).toContain('“Cafe Guest”');
  });

  it('wifi: the copy button works in a browser-like DOM', async () => {
    const { html } = page('wifi', { ssid: 'Net', password: 'pa$$', encryption: 'WEP' }, 'Wi', NONCE);
    let copied = '';
    const dom = new JSDOM(html, {
      runScripts: 'dangerously',
      beforeParse(window) {
        Object.defineProperty(window, 'isSecureContext', { value: true });
        Object.defineProperty(window.navigator, 'clipboard', {
          value: { writeText: (t: string) => ((copied = t), Promise.resolve()) },
        });
      },
    });
    const button = dom.window.document.getElementById('cp') as HTMLButtonElement;
    expect(button.hidden).toBe(false);
    button.click();
    await new Promise((r) => setTimeout(r, 0));
    expect(copied).toBe('pa$$');
    expect(button.textContent).toBe('Copied');
    dom.window.close();
  });

  it('wifi: an open network says so, with no password, button or script', () => {
    const { doc } = page('wifi', { ssid: 'Lobby', password: 'ignored', encryption: 'nopass' }, 'Wi', NONCE);
    expect(doc.querySelector('main')?.textContent).toContain('None (open network)');
    expect(doc.querySelector('main')?.textContent).toContain('no password is needed');
    expect(doc.querySelector('main')?.textContent).not.toContain('ignored');
    expect(doc.getElementById('cp')).toBeNull();
    expect(doc.querySelectorAll('script')).toHaveLength(0);
  });

  it('vcard: a card with name, title, organization, phone, e-mail, website; Save contact → contact.vcf', () => {
    const fields = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 7946 0958',
      organization: 'Analytical Engines',
      title: 'Mathematician',
      website: 'https://ada.example.com',
    };
    const { html, doc } = page('vcard', fields, 'VCARD QR Code');
    expect(doc.querySelector('h1')?.textContent).toBe('Ada Lovelace');
    expect(doc.title).toBe('Ada Lovelace');
    expect(html).not.toContain('VCARD QR Code');
    expect(doc.querySelector('main')?.textContent.split('Ada Lovelace')).toHaveLength(2);
    expect(doc.querySelector('.c .s')?.textContent).toBe('Mathematician · Analytical Engines');
    const links = [...doc.querySelectorAll('dd a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['+44 20 7946 0958', 'tel:+442079460958'],
      ['ada@example.com', 'mailto:ada@example.com'],
      ['https://ada.example.com', 'https://ada.example.com'],
    ]);
    expect(doc.querySelector('dd a[href^="https:"]')?.getAttribute('rel')).toBe('noopener nofollow ugc');
    expect(buttons(doc)).toEqual([{ text: 'Save contact', href: `/r/${SLUG}/contact.vcf` }]);
  });

  it('event: title, a human date range, location, description; Add to calendar → event.ics', () => {
    const { doc } = page('event', {
      title: 'Launch party',
      location: 'Hall 1',
      description: 'Drinks\nand music',
      startDate: '2026-12-24T18:00:00.000Z',
      endDate: '2026-12-24T21:00:00.000Z',
    });
    expect(doc.querySelector('h1')?.textContent).toBe('Launch party');
    expect(doc.title).toBe('Launch party');
    // The title once, as the heading only.
    expect(doc.querySelector('main')?.textContent.split('Launch party')).toHaveLength(2);
    expect(doc.querySelector('h2')).toBeNull();
    const dds = [...doc.querySelectorAll('dd')].map((d) => d.textContent);
    expect(dds).toEqual(['Thu, 24 Dec 2026, 18:00 – 21:00 UTC', 'Hall 1', 'Drinks\nand music']);
    expect(buttons(doc)).toEqual([{ text: 'Add to calendar', href: `/r/${SLUG}/event.ics` }]);
  });

  it('formatEventRange: same day, several days, no end, unreadable', () => {
    expect(formatEventRange('2026-12-24T18:00:00.000Z', '2026-12-25T02:30:00.000Z')).toBe(
      'Thu, 24 Dec 2026, 18:00 – Fri, 25 Dec 2026, 02:30 UTC',
    );
    expect(formatEventRange('2026-12-24T18:00:00.000Z', '')).toBe('Thu, 24 Dec 2026, 18:00 UTC');
    expect(formatEventRange('soon', '')).toBe('soon');
  });

  it('formatEventRange: in the event’s zone, named; one date for one day; DST-aware; UTC otherwise', () => {
    const start = '2026-12-24T17:00:00.000Z';
    const end = '2026-12-24T19:00:00.000Z';
    expect(formatEventRange(start, end, 'Europe/Berlin')).toBe(
      'Thu, 24 Dec 2026, 18:00 – 20:00 (Europe/Berlin)',
    );
    // Late evening in New York is the next day in UTC.
    expect(formatEventRange('2026-07-04T01:30:00.000Z', '2026-07-04T03:00:00.000Z', 'America/New_York')).toBe(
      'Fri, 3 Jul 2026, 21:30 – 23:00 (America/New York)',
    );
    expect(formatEventRange(start, '2026-12-25T01:00:00.000Z', 'Asia/Tokyo')).toBe(
      'Fri, 25 Dec 2026, 02:00 – 10:00 (Asia/Tokyo)',
    );
    // Across the end of summer time: 01:00 UTC is 03:00 CEST, 02:00 UTC is 03:00 CET.
    expect(formatEventRange('2026-10-25T00:00:00.000Z', '2026-10-25T02:00:00.000Z', 'Europe/Berlin')).toBe(
      'Sun, 25 Oct 2026, 02:00 – 03:00 (Europe/Berlin)',
    );
    expect(formatEventRange(start, '', 'Asia/Kolkata')).toBe('Thu, 24 Dec 2026, 22:30 (Asia/Kolkata)');
    expect(formatEventRange('', end, 'Europe/Berlin')).toBe('Until Thu, 24 Dec 2026, 20:00 (Europe/Berlin)');
    expect(formatEventRange(start, end, 'Etc/UTC')).toBe('Thu, 24 Dec 2026, 17:00 – 19:00 UTC');
    expect(formatEventRange(start, end, 'Nowhere/Land')).toBe('Thu, 24 Dec 2026, 17:00 – 19:00 UTC');
    expect(formatEventRange(start, end, '')).toBe('Thu, 24 Dec 2026, 17:00 – 19:00 UTC');
  });

  it('event: the times in the zone of the payload, with the zone named', () => {
    const fields = {
      title: 'Carols',
      startDate: '2026-12-24T17:00:00.000Z',
      endDate: '2026-12-24T19:00:00.000Z',
    };
    const when = (extra: Record<string, string>) =>
      page('event', { ...fields, ...extra }).doc.querySelector('dd')?.textContent;
    expect(when({ timeZone: 'Europe/Berlin' })).toBe('Thu, 24 Dec 2026, 18:00 – 20:00 (Europe/Berlin)');
    expect(when({})).toBe('Thu, 24 Dec 2026, 17:00 – 19:00 UTC');
  });

  it('any other type: the content shown as text, not as a link', () => {
    const html = renderLandingPage({ type: 'url', content: 'https://example.com', name: 'L', slug: SLUG });
    const doc = new JSDOM(html).window.document;
    expect(doc.querySelector('h1')?.textContent).toBe('QR code');
    expect(doc.querySelector('.c .t')?.textContent).toBe('https://example.com');
    expect(doc.querySelectorAll('a')).toHaveLength(0);
  });

  it('encodes the slug in its own paths', () => {
    const html = renderLandingPage({
      type: 'vcard',
      content: encodeContent('vcard', { firstName: 'A' }),
      name: 'x',
      slug: 'a"b/c',
    });
    const doc = new JSDOM(html).window.document;
    expect(buttons(doc)[0]?.href).toBe('/r/a%22b%2Fc/contact.vcf');
  });
});

describe('renderLandingPage: the heading is the content, never the code’s name', () => {
  const heading = (type: QrType, fields: Record<string, string>) => {
    const { html, doc } = page(type, fields, `${type.toUpperCase()} QR Code`);
    expect(html).not.toContain('QR Code');
    expect(doc.title).toBe(doc.querySelector('h1')?.textContent);
    return doc.querySelector('h1')?.textContent;
  };

  it('vcard: the person, else the organization (not repeated in the role line), else Contact', () => {
    expect(heading('vcard', { firstName: 'Ada', lastName: '' })).toBe('Ada');
    const { doc } = page('vcard', { firstName: '', organization: 'Analytical Engines', title: 'Support' });
    expect(doc.querySelector('h1')?.textContent).toBe('Analytical Engines');
    expect(doc.querySelector('.c .s')?.textContent).toBe('Support');
    expect(heading('vcard', { firstName: '', lastName: '', organization: '', phone: '+15551234567' })).toBe(
      'Contact',
    );
  });

  it('wifi: the SSID; event: the title; email, sms, phone: the address or number', () => {
    expect(heading('wifi', { ssid: 'Lobby', encryption: 'nopass' })).toBe('Lobby');
    expect(heading('event', { title: 'Board meeting', startDate: '2026-12-24T18:00:00.000Z' })).toBe(
      'Board meeting',
    );
    expect(heading('email', { email: 'hello@example.com' })).toBe('hello@example.com');
    expect(heading('sms', { phone: '+1 555 123 4567', message: 'Hi' })).toBe('+1 555 123 4567');
    expect(heading('phone', { phone: '+1 555 123 4567' })).toBe('+1 555 123 4567');
  });

  it('falls back to the kind of content when the field is blank', () => {
    expect(heading('wifi', { ssid: '   ', encryption: 'nopass' })).toBe('Wi-Fi network');
    expect(heading('event', { title: '', startDate: '2026-12-24T18:00:00.000Z' })).toBe('Event');
    expect(heading('email', { email: '' })).toBe('Email');
  });

  it('text: a short first line followed by more; otherwise Message and the whole text', () => {
    expect(heading('text', { text: '\n  Opening hours  \n\nMon–Fri 9–17' })).toBe('Opening hours');
    const { doc } = page('text', { text: '\n  Opening hours  \n\nMon–Fri 9–17' });
    expect(doc.querySelector('.c .t')?.textContent).toBe('Mon–Fri 9–17');

    const whole = (text: string) => {
      const { doc: d } = page('text', { text });
      expect(d.querySelector('h1')?.textContent).toBe('Message');
      expect(d.querySelector('.c .t')?.textContent).toBe(text);
    };
    whole('Free coffee on Fridays');
    whole('Free coffee on Fridays\n   ');
    whole('See https://example.com/menu\nfor the menu');
    whole(`${'word '.repeat(20)}\nmore`);
  });
});

describe('renderLandingPage: user text is escaped and inert', () => {
  const XSS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>"];
  const hostile = (i: number) => XSS[i % XSS.length]!;
  const cases: [QrType, Record<string, string>][] = [
    [
      'text',
      { text: `${hostile(0)} ${hostile(1)} javascript:alert(1) https://x.example/"onmouseover=alert(1)` },
    ],
    ['email', { email: hostile(1), subject: hostile(0), body: hostile(2) }],
    ['sms', { phone: hostile(1), message: hostile(0) }],
    ['phone', { phone: 'javascript:alert(1)' }],
    [
      'wifi',
      { ssid: hostile(0), password: `${hostile(1)}</script><script>alert(2)</script>`, encryption: 'WPA' },
    ],
    [
      'vcard',
      {
        firstName: hostile(0),
        lastName: hostile(1),
        email: hostile(2),
        phone: hostile(1),
        organization: hostile(0),
        title: hostile(1),
        website: 'javascript:alert(1)',
      },
    ],
    [
      'event',
      {
        title: hostile(0),
        location: hostile(1),
        description: hostile(2),
        startDate: hostile(0),
        endDate: hostile(1),
      },
    ],
    ['url', { url: hostile(1) }],
  ];

  const headings: Partial<Record<QrType, string>> = {
    text: 'Message',
    email: hostile(1),
    sms: hostile(1),
    phone: 'javascript:alert(1)',
    wifi: hostile(0),
    vcard: `${hostile(0)} ${hostile(1)}`,
    event: hostile(0),
    url: 'QR code',
  };

  it.each(cases)('%s: no markup, handler or javascript: href from the user', (type, fields) => {
    const { html, doc } = page(type, fields, `<b>OWNER</b>${hostile(1)}`, NONCE);
    // Raw text checks.
    expect(html.replace(`<script nonce="${NONCE}">`, '')).not.toMatch(/<script/i);
    expect(html).not.toContain('onerror=');
    expect(html).not.toContain('onload=');
    expect(html).not.toMatch(/href="\s*javascript:/i);
    // Parsed: only our own elements and attributes.
    expect(doc.querySelectorAll('img, svg, iframe')).toHaveLength(0);
    for (const script of doc.querySelectorAll('script')) expect(script.getAttribute('nonce')).toBe(NONCE);
    for (const el of doc.querySelectorAll('*'))
      for (const a of el.getAttributeNames()) expect(a.startsWith('on'), `${el.tagName} ${a}`).toBe(false);
    for (const a of doc.querySelectorAll('[href]'))
      expect(a.getAttribute('href')).toMatch(/^(https?:\/\/|mailto:|sms:|tel:|\/r\/)/);
    // The text itself is shown, exactly; the code's name is not shown at all.
    expect(html).not.toContain('OWNER');
    expect(doc.title).toBe(headings[type]);
    expect(doc.querySelector('h1')?.textContent).toBe(headings[type]);
    expect(doc.querySelector('main')?.textContent).toContain(
      type === 'phone' ? 'javascript:alert(1)' : type === 'url' ? hostile(1) : hostile(0),
    );
  });

  it('keeps the stored mailto out of the href when it could break the attribute', () => {
    const html = renderLandingPage({
      type: 'email',
      content: 'mailto:a@b.co"onmouseover="alert(1)',
      name: 'x',
      slug: SLUG,
    });
    expect(html).not.toContain('"onmouseover');
    const doc = new JSDOM(html).window.document;
    expect(buttons(doc)[0]?.href).toMatch(/^mailto:a@b\.co%22onmouseover/);
  });
});

describe('renderNotFoundPage', () => {
  it('is a friendly noindex page that says the code is not active', () => {
    const html = renderNotFoundPage();
    const doc = new JSDOM(html).window.document;
    expect(doc.querySelector('h1')?.textContent).toBe('This QR code is not active');
    expect(doc.querySelector('main')?.textContent).toContain(
      'The link may be mistyped, or the code was deleted by its owner.',
    );
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(doc.querySelector('footer')?.textContent).toBe('Made with QR Creator');
  });
});

describe('contactFile', () => {
  const fields = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0958',
    organization: 'Analytical Engines, Ltd; London',
    title: 'Mathematician',
    website: 'https://ada.example.com',
  };

  it('is the vCard 3.0 payload with CRLF lines; it decodes back to the fields', () => {
    const { body, filename } = contactFile(encodeContent('vcard', fields));
    expect(filename).toBe('ada-lovelace.vcf');
    expect(body.startsWith('BEGIN:VCARD\r\nVERSION:3.0\r\n')).toBe(true);
    expect(body.endsWith('END:VCARD\r\n')).toBe(true);
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(decodeContent('vcard', body)).toEqual(fields);
  });

  it('folds long lines at 75 octets and still decodes', () => {
    const long = { ...fields, organization: 'Ünïcödé '.repeat(20).trim() };
    const { body } = contactFile(encodeContent('vcard', long));
    for (const line of lines(body)) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(decodeContent('vcard', body)).toEqual(long);
  });

  it('makes a safe ASCII filename, with a fallback', () => {
    const name = (first: string, last = '') =>
      contactFile(encodeContent('vcard', { firstName: first, lastName: last })).filename;
    expect(name('José', 'Núñez')).toBe('jose-nunez.vcf');
    expect(name('../../etc', '"passwd"')).toBe('etc-passwd.vcf');
    expect(name('李', '雷')).toBe('contact.vcf');
  });

  it('rewrites a MECARD as a vCard', () => {
    const { body, filename } = contactFile('MECARD:N:Lovelace,Ada;TEL:+15551234567;;');
    expect(body.startsWith('BEGIN:VCARD\r\n')).toBe(true);
    expect(filename).toBe('ada-lovelace.vcf');
    expect(decodeContent('vcard', body)).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+15551234567',
    });
  });
});

describe('calendarFile', () => {
  const fields = {
    title: 'Launch party',
    location: 'Hall 1, Main St.',
    description: 'Drinks; music\nand a long description '.repeat(4).trim(),
    startDate: '2026-12-24T18:00:00.000Z',
    endDate: '2026-12-24T21:00:00.000Z',
  };
  const now = new Date('2026-11-20T08:09:10.123Z');

  it('has PRODID, METHOD:PUBLISH, UID, DTSTAMP; CRLF and folded lines; decodes back to the fields', () => {
    const { body, filename } = calendarFile(encodeContent('event', fields), { slug: SLUG, now });
    expect(filename).toBe('launch-party.ics');
    const ls = lines(body);
    expect(ls[0]).toBe('BEGIN:VCALENDAR');
    expect(ls).toContain('VERSION:2.0');
    expect(ls.some((l) => /^PRODID:-\/\/.+\/\/EN$/.test(l))).toBe(true);
    expect(ls).toContain('METHOD:PUBLISH');
    expect(ls).toContain(`UID:${SLUG}@qr-creator`);
    expect(ls).toContain('DTSTAMP:20261120T080910Z');
    expect(ls.filter((l) => l.startsWith('PRODID:'))).toHaveLength(1);
    expect(body.endsWith('END:VEVENT\r\nEND:VCALENDAR\r\n')).toBe(true);
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of ls) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(decodeContent('event', body)).toEqual(fields);
  });

  it('derives a stable UID from a content hash without a slug, and stamps now by default', () => {
    const content = encodeContent('event', fields);
    const a = calendarFile(content).body;
    const b = calendarFile(content).body;
    const uid = (s: string) => /^UID:(.+)$/m.exec(s)?.[1];
    expect(uid(a)).toMatch(/^[0-9a-f]{32}@qr-creator\r?$/);
    expect(uid(a)).toBe(uid(b));
    expect(a).toMatch(/^DTSTAMP:\d{8}T\d{6}Z\r$/m);
  });

  it('keeps a foreign UID and DTSTAMP, replaces PRODID and METHOD, wraps a bare VEVENT', () => {
    const foreign = [
      'BEGIN:VCALENDAR',
      'PRODID:-//Other//EN',
      'VERSION:2.0',
      'METHOD:REQUEST',
      'BEGIN:VEVENT',
      'UID:keep-me@other',
      'DTSTAMP:20260101T000000Z',
      'SUMMARY:Board meeting',
      'DTSTART:20261224T180000Z',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:Reminder',
      'END:VALARM',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\n');
    const { body, filename } = calendarFile(foreign, { slug: SLUG, now });
    const ls = lines(body);
    expect(filename).toBe('board-meeting.ics');
    expect(ls.filter((l) => l.startsWith('UID:'))).toEqual(['UID:keep-me@other']);
    expect(ls.filter((l) => l.startsWith('DTSTAMP:'))).toEqual(['DTSTAMP:20260101T000000Z']);
    expect(ls.filter((l) => l.startsWith('PRODID:'))).toEqual(['PRODID:-//QR Creator//Landing page//EN']);
    expect(ls.filter((l) => l.startsWith('METHOD:'))).toEqual(['METHOD:PUBLISH']);
    expect(ls).toContain('BEGIN:VALARM');

    const bare = calendarFile('BEGIN:VEVENT\nSUMMARY:Bare\nDTSTART:20261224T180000Z\nEND:VEVENT', { now });
    expect(bare.body).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:/);
    expect(bare.body).toMatch(/\r\nUID:[0-9a-f]{32}@qr-creator\r\n/);
    expect(decodeContent('event', bare.body)).toMatchObject({
      title: 'Bare',
      startDate: '2026-12-24T18:00:00.000Z',
    });
  });

  it('keeps the calendar’s X-WR-TIMEZONE, and the event decodes back with its zone', () => {
    const zoned = { ...fields, timeZone: 'Europe/Berlin' };
    const { body } = calendarFile(encodeContent('event', zoned), { slug: SLUG, now });
    const ls = lines(body);
    expect(ls.slice(0, 5)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//QR Creator//Landing page//EN',
      'METHOD:PUBLISH',
      'X-WR-TIMEZONE:Europe/Berlin',
    ]);
    expect(ls).toContain('DTSTART:20261224T180000Z');
    expect(decodeContent('event', body)).toEqual(zoned);
  });

  it('falls back to event.ics when the title has no ASCII letters', () => {
    const content = encodeContent('event', { ...fields, title: '発表会' });
    expect(calendarFile(content, { now }).filename).toBe('event.ics');
  });
});
