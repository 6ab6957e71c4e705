import { describe, expect, it } from 'vitest';
import { QR_NAME_MAX } from './qr.schema';
import { suggestQrName, TEXT_NAME_MAX } from './suggest-name';

describe('suggestQrName', () => {
  it.each([
    ['url', { url: 'https://www.cafe-luna.com/menu?table=4' }, 'cafe-luna.com'],
    ['url', { url: 'cafe-luna.com/menu' }, 'cafe-luna.com'],
    ['url', { url: 'https://Shop.Example.COM:8443/a' }, 'shop.example.com'],
    ['url', { url: 'https://bücher.de/neu' }, 'bücher.de'],
    ['social', { url: 'https://social.example/@cafe' }, 'social.example'],
    ['pdf', { url: 'https://example.com/menu.pdf', title: 'Winter menu' }, 'Winter menu'],
    ['email', { email: 'hello@example.com', subject: 'Booking' }, 'hello@example.com'],
    ['email', { email: '', subject: 'Booking' }, 'Booking'],
    ['text', { text: 'Free coffee on Fridays' }, 'Free coffee on Fridays'],
    [
      'text',
      { text: 'Show this code at the counter for a free coffee with any breakfast before ten' },
      'Show this code at the counter for a free…',
    ],
    ['sms', { phone: '+1 555 123 4567', message: 'hi' }, '+1 555 123 4567'],
    ['phone', { phone: '+15557654321' }, '+15557654321'],
    ['wifi', { ssid: '  Cafe   Guest ', password: 'x', encryption: 'WPA' }, 'Wi-Fi Cafe Guest'],
    ['vcard', { firstName: 'Ada', lastName: 'Lovelace', organization: 'Engines' }, 'Ada Lovelace'],
    ['vcard', { firstName: '', lastName: '', organization: 'Engines Ltd' }, 'Engines Ltd'],
    ['event', { title: 'Launch party', startDate: '2026-12-24T18:00' }, 'Launch party'],
    ['unknown-type', { url: 'https://example.org' }, 'example.org'],
  ])('%s %j → %j', (type, fields, expected) => {
    expect(suggestQrName(type, fields)).toBe(expected);
  });

  it.each([
    ['url', { url: '' }],
    ['url', { url: 'not a url' }],
    ['url', { url: 'exa' }],
    ['wifi', { ssid: '', encryption: 'WPA' }],
    ['vcard', { firstName: ' ', lastName: '' }],
    ['text', { text: '   ' }],
    ['event', {}],
  ])('gives nothing for %s %j', (type, fields) => {
    expect(suggestQrName(type, fields)).toBeNull();
  });

  it('never suggests more than a name may hold', () => {
    expect(suggestQrName('event', { title: 'x'.repeat(300) })).toHaveLength(100);
  });

  describe('links (url, social, pdf, video, image)', () => {
    it.each([
      ['http://www.example.com', 'example.com'],
      ['https://WWW.Example.com/', 'example.com'],
      ['example.com/menu', 'example.com'],
      ['www.example.com', 'example.com'],
      ['  https://example.com/a b  ', 'example.com'],
      ['https://user:secret@shop.example.com:8443/cart?x=1#top', 'shop.example.com'],
      ['https://example.com./x', 'example.com'],
      ['https://www2.example.com', 'www2.example.com'],
      ['https://xn--bcher-kva.de/', 'xn--bcher-kva.de'],
      ['münchen.de/stadtplan', 'münchen.de'],
      ['https://例え.テスト/パス', '例え.テスト'],
      ['https://192.168.1.10:8080/admin', '192.168.1.10'],
    ])('url %j → %j', (url, expected) => {
      expect(suggestQrName('url', { url })).toBe(expected);
    });

    it.each([
      'javascript:alert(1)',
      'mailto:ada@example.com',
      'ftp://files.example.com/a',
      'data:text/html,hi',
      'https://',
      'localhost:3000',
      'exa mple.com',
      '   ',
    ])('an unusable URL %j gives nothing', (url) => {
      expect(suggestQrName('url', { url })).toBeNull();
      expect(suggestQrName('social', { url })).toBeNull();
    });

    it.each(['pdf', 'video', 'image'])('%s: the title first (one line, trimmed), else the host', (type) => {
      expect(suggestQrName(type, { url: 'https://cdn.example.com/f', title: '  Spring\n  flyer ' })).toBe(
        'Spring flyer',
      );
      expect(suggestQrName(type, { url: 'https://cdn.example.com/f', title: '   ' })).toBe('cdn.example.com');
      expect(suggestQrName(type, { url: 'nope', title: 'Menu' })).toBe('Menu');
      expect(suggestQrName(type, { url: 'nope', title: '' })).toBeNull();
    });

    it('missing fields are blank', () => {
      expect(suggestQrName('url', {})).toBeNull();
      expect(suggestQrName('url', { url: undefined })).toBeNull();
    });
  });

  describe('text', () => {
    it('takes the first line with something in it', () => {
      expect(suggestQrName('text', { text: '\n  Welcome!\r\nCall us on +1 555 123 4567' })).toBe('Welcome!');
    });

    it(`cuts a long line on a word boundary, ${TEXT_NAME_MAX} characters at most before the '…'`, () => {
      const name = suggestQrName('text', {
        text: 'Happy hour every Friday, with free snacks, live music and more',
      })!;
      expect(name).toBe('Happy hour every Friday, with free…');
      expect(name.length).toBeLessThanOrEqual(TEXT_NAME_MAX + 1);
    });

    it('drops punctuation before the ellipsis', () => {
      expect(suggestQrName('text', { text: 'Opening hours Monday to Friday, 9-17: closed on Sundays' })).toBe(
        'Opening hours Monday to Friday, 9-17…',
      );
    });

    it('cuts one long word, never inside an emoji', () => {
      expect(suggestQrName('text', { text: 'x'.repeat(80) })).toBe(`${'x'.repeat(TEXT_NAME_MAX)}…`);
      const emoji = suggestQrName('text', { text: '😀'.repeat(40) })!;
      expect(emoji.endsWith('…')).toBe(true);
      expect(emoji).not.toMatch(/[\uD800-\uDBFF]…$/);
      expect(emoji.length).toBeLessThanOrEqual(TEXT_NAME_MAX + 1);
    });

    it('keeps a text of exactly the limit whole', () => {
      const text = 'a'.repeat(TEXT_NAME_MAX);
      expect(suggestQrName('text', { text })).toBe(text);
    });
  });

  describe('the other types', () => {
    it('email: the address trimmed, else the subject, else nothing', () => {
      expect(suggestQrName('email', { email: '  ada@example.com ', subject: 'Hi' })).toBe('ada@example.com');
      expect(suggestQrName('email', { email: ' ', subject: ' Booking\nrequest ' })).toBe('Booking request');
      expect(suggestQrName('email', { email: '', subject: '', body: 'Only a body' })).toBeNull();
    });

    it('sms and phone: the number, not the message', () => {
      expect(suggestQrName('sms', { phone: '', message: 'Hello' })).toBeNull();
      expect(suggestQrName('phone', { phone: ' +44 20 7946 0958 ' })).toBe('+44 20 7946 0958');
    });

    it('wifi: the SSID, whatever the password', () => {
      expect(suggestQrName('wifi', { ssid: 'Home', password: 'secret', encryption: 'nopass' })).toBe(
        'Wi-Fi Home',
      );
      expect(suggestQrName('wifi', { ssid: '   ', password: 'secret' })).toBeNull();
    });

    it('vcard: the first name alone, the last name alone, then the organization', () => {
      expect(suggestQrName('vcard', { firstName: 'Ada', lastName: '' })).toBe('Ada');
      expect(suggestQrName('vcard', { firstName: '', lastName: 'Lovelace', organization: 'AE' })).toBe(
        'Lovelace',
      );
      expect(suggestQrName('vcard', { organization: '  ', email: 'a@b.co', phone: '+1555' })).toBeNull();
    });

    it('event: the title, one line', () => {
      expect(suggestQrName('event', { title: ' Launch\nparty ', location: 'Hall 1' })).toBe('Launch party');
      expect(suggestQrName('event', { title: '', location: 'Hall 1', description: 'x' })).toBeNull();
    });
  });

  describe('the cap', () => {
    it.each([
      ['vcard', { firstName: 'A'.repeat(150), lastName: 'B'.repeat(150) }],
      ['wifi', { ssid: 'S'.repeat(200) }],
      ['pdf', { url: 'https://x.io', title: 'word '.repeat(60) }],
      ['email', { email: `${'a'.repeat(240)}@example.com` }],
      ['event', { title: '👍🏽'.repeat(60) }],
    ])(`%s: at most ${QR_NAME_MAX} characters, ending in '…'`, (type, fields) => {
      const name = suggestQrName(type, fields)!;
      expect(name.length).toBeLessThanOrEqual(QR_NAME_MAX);
      expect(name.endsWith('…')).toBe(true);
      expect(name).not.toMatch(/[\uD800-\uDBFF]…$/);
      expect(name).toBe(name.trim());
    });

    it('a long title is cut on a word boundary', () => {
      expect(suggestQrName('pdf', { url: 'https://x.io', title: 'word '.repeat(60) })).toBe(
        `${'word '.repeat(19)}word…`,
      );
    });
  });
});
