import { describe, expect, it } from 'vitest';
import { decodeContent, encodeContent, validatePayload, type ContentFields } from './content';
import { type QrType } from './qr-types';
import { crlf, messages } from './content.test-helpers';

describe('encodeContent: exact payloads', () => {
  const cases: [string, QrType, ContentFields, string][] = [
    ['url as given', 'url', { url: 'https://example.com/a?b=1#c' }, 'https://example.com/a?b=1#c'],
    ['text as given', 'text', { text: 'Hello, world;\nline 2' }, 'Hello, world;\nline 2'],
    ['social url', 'social', { url: 'https://instagram.com/me' }, 'https://instagram.com/me'],
    ['pdf: only the url', 'pdf', { url: 'https://x.io/a.pdf', title: 'Menu' }, 'https://x.io/a.pdf'],
    ['video: only the url', 'video', { url: 'https://youtu.be/abc', title: 'Clip' }, 'https://youtu.be/abc'],
    ['image: only the url', 'image', { url: 'https://x.io/p.jpg', title: 'Pic' }, 'https://x.io/p.jpg'],
    ['email address only', 'email', { email: 'a@b.co', subject: '', body: '' }, 'mailto:a@b.co'],
    [
      'email subject with & ? # spaces and accents',
      'email',
      { email: 'a@b.co', subject: 'Tom & Jerry? #1 café', body: '' },
      'mailto:a@b.co?subject=Tom%20%26%20Jerry%3F%20%231%20caf%C3%A9',
    ],
    [
      'email body only, line break as %0D%0A',
      'email',
      { email: 'a@b.co', subject: '', body: 'Hi,\nSee you' },
      'mailto:a@b.co?body=Hi%2C%0D%0ASee%20you',
    ],
    [
      'email subject and body',
      'email',
      { email: 'first.last+tag@mail.example.org', subject: 'Ünïcödé 😀 100%+', body: 'x' },
      'mailto:first.last+tag@mail.example.org?subject=%C3%9Cn%C3%AFc%C3%B6d%C3%A9%20%F0%9F%98%80%20100%25%2B&body=x',
    ],
    [
      'sms with message',
      'sms',
      { phone: '+15551234567', message: 'Hi: there' },
      'SMSTO:+15551234567:Hi: there',
    ],
    ['sms without message', 'sms', { phone: '+1 555 123', message: '' }, 'SMSTO:+1 555 123:'],
    [
      'wifi escaping \\ ; , : "',
      'wifi',
      { ssid: 'a;b,c:d\\"e', password: 'p@ss;w,rd', encryption: 'WPA' },
      String.raw`WIFI:T:WPA;S:a\;b\,c\:d\\\"e;P:p@ss\;w\,rd;;`,
    ],
    [
      'wifi WEP',
      'wifi',
      { ssid: 'Home', password: '12345', encryption: 'WEP' },
      'WIFI:T:WEP;S:Home;P:12345;;',
    ],
    [
      'wifi open network: no P',
      'wifi',
      { ssid: 'Cafe', password: 'ignored', encryption: 'nopass' },
      'WIFI:T:nopass;S:Cafe;;',
    ],
    [
      'wifi empty password: no P',
      'wifi',
      { ssid: 'Lab', password: '', encryption: 'WPA' },
      'WIFI:T:WPA;S:Lab;;',
    ],
    [
      'wifi default security WPA',
      'wifi',
      { ssid: 'Lab', password: 'pw', encryption: '' },
      'WIFI:T:WPA;S:Lab;P:pw;;',
    ],
    [
      'vcard with every field',
      'vcard',
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '+44 20 7946 0958',
        organization: 'Analytical Engines',
        title: 'Programmer',
        website: 'https://ada.example.com',
      },
      crlf(
        'BEGIN:VCARD',
        'VERSION:3.0',
        'N:Lovelace;Ada;;;',
        'FN:Ada Lovelace',
        'TEL:+44 20 7946 0958',
        'EMAIL:ada@example.com',
        'ORG:Analytical Engines',
        'TITLE:Programmer',
        'URL:https://ada.example.com',
        'END:VCARD',
      ),
    ],
    [
      'vcard name with comma, semicolon and newline; empty lines omitted',
      'vcard',
      {
        firstName: 'Anne; Marie',
        lastName: 'Smith, Jr.\nPhD',
        email: '',
        phone: '',
        organization: 'A\\B, Inc.',
        title: '',
        website: '',
      },
      crlf(
        'BEGIN:VCARD',
        'VERSION:3.0',
        String.raw`N:Smith\, Jr.\nPhD;Anne\; Marie;;;`,
        String.raw`FN:Anne\; Marie Smith\, Jr.\nPhD`,
        String.raw`ORG:A\\B\, Inc.`,
        'END:VCARD',
      ),
    ],
    [
      'event crossing midnight in UTC, text escaped',
      'event',
      {
        title: 'New Year, party; bring: snacks',
        location: 'Main St. 1\\2',
        description: 'Line 1\nLine 2',
        startDate: '2026-12-31T22:30:00.000Z',
        endDate: '2027-01-01T01:15:00.000Z',
      },
      crlf(
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'BEGIN:VEVENT',
        String.raw`SUMMARY:New Year\, party\; bring: snacks`,
        String.raw`LOCATION:Main St. 1\\2`,
        String.raw`DESCRIPTION:Line 1\nLine 2`,
        'DTSTART:20261231T223000Z',
        'DTEND:20270101T011500Z',
        'END:VEVENT',
        'END:VCALENDAR',
      ),
    ],
    [
      'event without end, location or description; milliseconds dropped',
      'event',
      { title: 'Carols', location: '', description: '', startDate: '2026-12-24T18:00:00.999Z', endDate: '' },
      crlf(
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'BEGIN:VEVENT',
        'SUMMARY:Carols',
        'DTSTART:20261224T180000Z',
        'END:VEVENT',
        'END:VCALENDAR',
      ),
    ],
    ['phone', 'phone', { phone: '+15551234567' }, 'tel:+15551234567'],
  ];

  it.each(cases)('%s', (_name, type, fields, payload) => {
    expect(encodeContent(type, fields)).toBe(payload);
  });

  it.each(cases.filter(([, type]) => !['pdf', 'video', 'image'].includes(type) && type !== 'wifi'))(
    'decodes back: %s',
    (_name, type, fields, payload) => {
      const expected =
        type === 'event' ? { ...fields, startDate: fields.startDate?.replace(/\.\d{3}Z$/, '.000Z') } : fields;
      expect(decodeContent(type, payload)).toEqual(expected);
    },
  );

  it('decodes pdf, video and image to the url with an empty title (the title is not in the payload)', () => {
    for (const type of ['pdf', 'video', 'image']) {
      expect(decodeContent(type, 'https://x.io/f')).toEqual({ url: 'https://x.io/f', title: '' });
    }
  });

  it('decodes the escaped Wi-Fi SSID and password', () => {
    expect(decodeContent('wifi', String.raw`WIFI:T:WPA;S:a\;b\,c\:d\\\"e;P:p@ss\;w\,rd;;`)).toEqual({
      ssid: 'a;b,c:d\\"e',
      password: 'p@ss;w,rd',
      encryption: 'WPA',
    });
  });

  it('writes vCard and iCalendar lines with CRLF only', () => {
    const payload = encodeContent('vcard', { firstName: 'A\r\nB', lastName: 'C\rD' });
    expect(payload.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(payload).toContain(String.raw`N:C\nD;A\nB;;;`);
  });

  it('treats an unknown type as url', () => {
    expect(encodeContent('hologram', { url: 'https://x.io' })).toBe('https://x.io');
    expect(decodeContent('hologram', ' https://x.io ')).toEqual({ url: 'https://x.io' });
    expect(messages('hologram', { url: 'javascript:alert(1)' })).toEqual(['url: Must be a valid URL']);
    expect(validatePayload('', 'https://x.io')).toEqual({ ok: true, fields: { url: 'https://x.io' } });
  });
});
