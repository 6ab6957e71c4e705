import { describe, expect, it } from 'vitest';
import { suggestQrName } from './suggest-name';

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
});
