import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  contentFieldsSchema,
  decodeContent,
  describeContent,
  emptyFields,
  encodeContent,
  PAYLOAD_MAX,
  timeZoneOffset,
  validatePayload,
  type ContentFields,
} from './content';
import { allContentFields, contentFields, hiddenContentFields } from './content-fields';
import { qrTypes, type QrType } from './qr-types';

const crlf = (...lines: string[]) => lines.join('\r\n');

function messages(type: string, input: unknown): string[] {
  const result = contentFieldsSchema(type).safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
}

function parsed(type: string, input: unknown): ContentFields {
  return contentFieldsSchema(type).parse(input);
}

describe('contentFields (§3, §5)', () => {
  const names: Record<QrType, string[]> = {
    url: ['url'],
    email: ['email', 'subject', 'body'],
    text: ['text'],
    sms: ['phone', 'message'],
    wifi: ['ssid', 'password', 'encryption'],
    vcard: ['firstName', 'lastName', 'email', 'phone', 'organization', 'title', 'website'],
    event: ['title', 'location', 'description', 'startDate', 'endDate'],
    social: ['url'],
    pdf: ['url', 'title'],
    video: ['url', 'title'],
    image: ['url', 'title'],
    phone: ['phone'],
  };
  const required: Record<QrType, string[]> = {
    url: ['url'],
    email: ['email'],
    text: ['text'],
    sms: ['phone'],
    wifi: ['ssid', 'encryption'],
    vcard: ['firstName'],
    event: ['title', 'startDate'],
    social: ['url'],
    pdf: ['url'],
    video: ['url'],
    image: ['url'],
    phone: ['phone'],
  };

  it.each(qrTypes)('%s has the fields of §3 and the required fields of §5', (type) => {
    const defs = contentFields[type];
    expect(defs.map((d) => d.name)).toEqual(names[type]);
    expect(defs.filter((d) => d.required).map((d) => d.name)).toEqual(required[type]);
    for (const def of defs) {
      expect(def.label).not.toBe('');
      expect(def.maxLength).toBeGreaterThanOrEqual(200);
    }
  });

  it('gives url fields 2048 characters and text 2000', () => {
    expect(contentFields.url[0]?.maxLength).toBe(2048);
    expect(contentFields.text[0]?.maxLength).toBe(2000);
  });

  it('offers WPA/WPA2, WEP and None for Wi-Fi security', () => {
    const encryption = contentFields.wifi.find((d) => d.name === 'encryption');
    expect(encryption?.kind).toBe('select');
    expect(encryption?.options).toEqual([
      { value: 'WPA', label: 'WPA/WPA2' },
      { value: 'WEP', label: 'WEP' },
      { value: 'nopass', label: 'None' },
    ]);
  });

  it('uses datetime inputs for the event dates', () => {
    expect(contentFields.event.filter((d) => d.kind === 'datetime').map((d) => d.name)).toEqual([
      'startDate',
      'endDate',
    ]);
  });
});

describe('emptyFields', () => {
  it('is every field blank, except Wi-Fi security WPA', () => {
    expect(emptyFields('wifi')).toEqual({ ssid: '', password: '', encryption: 'WPA' });
    expect(emptyFields('email')).toEqual({ email: '', subject: '', body: '' });
    expect(emptyFields('pdf')).toEqual({ url: '', title: '' });
  });

  it('treats an unknown type as url', () => {
    expect(emptyFields('carrier-pigeon')).toEqual({ url: '' });
  });
});

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

describe('decodeContent: payloads of other generators', () => {
  const cases: [string, QrType, string, ContentFields][] = [
    [
      'WIFI fields in another order, lowercase, hidden flag',
      'wifi',
      'wifi:s:Home;p:secret;t:WPA2;h:true;;',
      { ssid: 'Home', password: 'secret', encryption: 'WPA' },
    ],
    [
      'WIFI with quoted values',
      'wifi',
      'WIFI:T:WEP;S:"MyNet";P:"0123456789";;',
      { ssid: 'MyNet', password: '0123456789', encryption: 'WEP' },
    ],
    [
      'WIFI without T, with password',
      'wifi',
      'WIFI:S:Net;P:pw;;',
      { ssid: 'Net', password: 'pw', encryption: 'WPA' },
    ],
    [
      'WIFI without T or password',
      'wifi',
      'WIFI:S:Net;;',
      { ssid: 'Net', password: '', encryption: 'nopass' },
    ],
    ['WIFI T:None', 'wifi', 'WIFI:T:None;S:Net;;', { ssid: 'Net', password: '', encryption: 'nopass' }],
    ['WIFI WPA3/SAE', 'wifi', 'WIFI:T:SAE;S:Net;P:x;;', { ssid: 'Net', password: 'x', encryption: 'WPA' }],
    [
      'WIFI without the final ;;',
      'wifi',
      String.raw`WIFI:S:a\;b;T:WPA;P:c\\`,
      { ssid: 'a;b', password: 'c\\', encryption: 'WPA' },
    ],
    [
      'mailto with cc, uppercase scheme and key',
      'email',
      'MAILTO:a@b.co?cc=c@d.co&Subject=Hi%20there&body=l1%0D%0Al2',
      { email: 'a@b.co', subject: 'Hi there', body: 'l1\nl2' },
    ],
    [
      'mailto with the address in to=',
      'email',
      'mailto:?to=a%40b.co&subject=x',
      { email: 'a@b.co', subject: 'x', body: '' },
    ],
    [
      'mailto with a bad escape',
      'email',
      'mailto:a@b.co?subject=100%',
      { email: 'a@b.co', subject: '100%', body: '' },
    ],
    [
      'MATMSG',
      'email',
      'MATMSG:TO:a@b.co;SUB:Hello\\; you;BODY:Text;;',
      { email: 'a@b.co', subject: 'Hello; you', body: 'Text' },
    ],
    ['bare e-mail address', 'email', ' a@b.co ', { email: 'a@b.co', subject: '', body: '' }],
    ['smsto: lowercase', 'sms', 'smsto:+1555:Hi: you', { phone: '+1555', message: 'Hi: you' }],
    ['SMS: with colon', 'sms', 'SMS:+1555:Hello', { phone: '+1555', message: 'Hello' }],
    [
      'sms: URI with body (RFC 5724)',
      'sms',
      'sms:+1555?body=Hello%20there',
      { phone: '+1555', message: 'Hello there' },
    ],
    ['sms: URI without body', 'sms', 'sms:+1555', { phone: '+1555', message: '' }],
    ['MMSTO', 'sms', 'MMSTO:+1555:Pic', { phone: '+1555', message: 'Pic' }],
    ['SMSTO without message', 'sms', 'SMSTO:+1555', { phone: '+1555', message: '' }],
    ['a bare number as sms', 'sms', '+1 555 123', { phone: '+1 555 123', message: '' }],
    ['TEL: uppercase', 'phone', 'TEL:+1555', { phone: '+1555' }],
    ['a bare number as phone', 'phone', ' +1555 ', { phone: '+1555' }],
    [
      'vCard with extra lines, parameters, groups, LF endings and folding',
      'vcard',
      [
        'begin:vcard',
        'version:3.0',
        'PRODID:-//Apple Inc.//iPhone OS 17//EN',
        'N:Doe;John;Q.;Dr.;',
        'FN:Dr. John Q. Doe',
        'ORG:Acme;Sales',
        'TEL;TYPE=CELL,VOICE:+1 555 0100',
        'TEL;TYPE=WORK:+1 555 0199',
        'item1.EMAIL;type=INTERNET;type=pref:john@',
        ' acme.example',
        'ADR;TYPE=WORK:;;1 Main St;Springfield;;;US',
        'NOTE:Likes\\, commas',
        'item2.URL:https://acme.example',
        'END:VCARD',
      ].join('\n'),
      {
        firstName: 'John Q.',
        lastName: 'Doe',
        email: 'john@acme.example',
        phone: '+1 555 0100',
        organization: 'Acme, Sales',
        title: '',
        website: 'https://acme.example',
      },
    ],
    [
      'vCard 2.1 quoted-printable with a soft line break',
      'vcard',
      crlf(
        'BEGIN:VCARD',
        'VERSION:2.1',
        'N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=',
        '=C3=BCrgen',
        'TEL;CELL:0170 123',
        'END:VCARD',
      ),
      {
        firstName: 'Jürgen',
        lastName: 'Müller',
        email: '',
        phone: '0170 123',
        organization: '',
        title: '',
        website: '',
      },
    ],
    [
      'vCard 4 with only FN and a tel: URI',
      'vcard',
      crlf(
        'BEGIN:VCARD',
        'VERSION:4.0',
        'FN:Grace Hopper',
        'TEL;VALUE=uri;TYPE=cell:tel:+1-555-0101',
        'END:VCARD',
      ),
      {
        firstName: 'Grace',
        lastName: 'Hopper',
        email: '',
        phone: '+1-555-0101',
        organization: '',
        title: '',
        website: '',
      },
    ],
    [
      'MECARD',
      'vcard',
      'MECARD:N:Doe,Jane;TEL:+1555;EMAIL:jane@x.io;URL:https\\://x.io;;',
      {
        firstName: 'Jane',
        lastName: 'Doe',
        email: 'jane@x.io',
        phone: '+1555',
        organization: '',
        title: '',
        website: 'https://x.io',
      },
    ],
    [
      'bare VEVENT with an alarm, folded lines, a DATE start and floating end',
      'event',
      [
        'BEGIN:VEVENT',
        'UID:123@example',
        'DTSTAMP:20260101T000000Z',
        'SUMMARY:Long ',
        ' title',
        'DTSTART;VALUE=DATE:20261224',
        'DTEND:20261225T101500',
        'LOCATION;LANGUAGE=en:Town hall',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'DESCRIPTION:Reminder',
        'END:VALARM',
        'END:VEVENT',
      ].join('\r\n'),
      {
        title: 'Long title',
        location: 'Town hall',
        description: '',
        startDate: '2026-12-24T00:00:00.000Z',
        endDate: '2026-12-25T10:15:00.000Z',
      },
    ],
    ['url with spaces around', 'url', '  https://x.io/a  ', { url: 'https://x.io/a' }],
    ['not a WIFI payload', 'wifi', 'MyNet', { ssid: 'MyNet', password: '', encryption: 'WPA' }],
    [
      'not an event',
      'event',
      'Party',
      { title: 'Party', location: '', description: '', startDate: '', endDate: '' },
    ],
  ];

  it.each(cases)('%s', (_name, type, payload, fields) => {
    expect(decodeContent(type, payload)).toEqual(fields);
  });
});

describe('contentFieldsSchema: §5 messages', () => {
  const blankMessages: Record<QrType, string[]> = {
    url: ['url: URL is required'],
    email: ['email: Email is required'],
    text: ['text: Text is required'],
    sms: ['phone: Phone number is required'],
    wifi: ['ssid: Network name (SSID) is required'],
    vcard: ['firstName: First name is required'],
    event: ['title: Title is required', 'startDate: Start date is required'],
    social: ['url: Profile URL is required'],
    pdf: ['url: PDF URL is required'],
    video: ['url: Video URL is required'],
    image: ['url: Image URL is required'],
    phone: ['phone: Phone number is required'],
  };

  it.each(qrTypes)('%s: an empty form names each required field', (type) => {
    expect(messages(type, emptyFields(type))).toEqual(blankMessages[type]);
  });

  it.each(qrTypes)('%s: whitespace and missing keys count as empty', (type) => {
    const blank = Object.fromEntries(Object.keys(emptyFields(type)).map((k) => [k, ' \n\t ']));
    expect(messages(type, blank)).toEqual([
      ...blankMessages[type],
      ...(type === 'wifi' ? ['encryption: Security is required'] : []),
    ]);
    expect(messages(type, {})).toEqual(
      type === 'wifi' ? [...blankMessages.wifi, 'encryption: Security is required'] : blankMessages[type],
    );
  });

  it('names the field when a value is not text', () => {
    expect(messages('url', { url: 42 })).toEqual(['url: URL must be text']);
  });

  const unsafeUrls = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'javascript://example.com/%0Aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ftp://example.com/a',
    'mailto:a@b.co',
    'example.com',
    '//example.com',
    'http://',
    'https:///path',
    'https://exa mple.com',
    'https://example.com/a b',
    'https://example.com/\u0000',
    'http://[::1',
  ];
  const urlTypes = ['url', 'social', 'pdf', 'video', 'image'] as const;

  it.each(urlTypes.flatMap((type) => unsafeUrls.map((url) => [type, url] as const)))(
    '%s refuses %j: Must be a valid URL',
    (type, url) => {
      expect(messages(type, { url })).toEqual(['url: Must be a valid URL']);
      expect(validatePayload(type, url)).toEqual({ ok: false, message: 'Must be a valid URL', field: 'url' });
    },
  );

  it.each([
    'https://example.com',
    'HTTP://EXAMPLE.COM/A?b=1#c',
    'http://localhost:8080/x',
    'https://münchen.de/straße',
  ])('accepts the http(s) URL %s', (url) => {
    expect(messages('url', { url })).toEqual([]);
  });

  it('refuses an invalid e-mail address', () => {
    expect(messages('email', { email: 'not-an-email' })).toEqual(['email: Must be a valid email address']);
    expect(messages('email', { email: 'a@b' })).toEqual(['email: Must be a valid email address']);
  });

  it('refuses a required phone that is not a phone number', () => {
    expect(messages('sms', { phone: '+1:555' })).toEqual(['phone: Must be a valid phone number']);
    expect(messages('phone', { phone: 'call me' })).toEqual(['phone: Must be a valid phone number']);
    expect(messages('phone', { phone: '1-800-FLOWERS' })).toEqual([]);
  });

  it('does not check optional fields beyond their length', () => {
    expect(
      messages('vcard', { firstName: 'A', email: 'nope', phone: 'x:y', website: 'javascript:1' }),
    ).toEqual([]);
    expect(messages('email', { email: 'a@b.co', subject: ';,:\\"', body: '&?#' })).toEqual([]);
  });

  it('limits lengths with a message naming the field', () => {
    expect(messages('url', { url: `https://x.io/${'a'.repeat(2040)}` })).toEqual([
      'url: URL must be at most 2048 characters',
    ]);
    expect(messages('text', { text: 'a'.repeat(2001) })).toEqual([
      'text: Text must be at most 2000 characters',
    ]);
    expect(messages('text', { text: 'a'.repeat(2000) })).toEqual([]);
    expect(messages('vcard', { firstName: 'A', title: 'a'.repeat(201) })).toEqual([
      'title: Job title must be at most 200 characters',
    ]);
  });

  it('refuses an end before the start', () => {
    const event = { title: 'T', startDate: '2026-12-24T18:00:00.000Z' };
    expect(messages('event', { ...event, endDate: '2026-12-24T17:59:59.000Z' })).toEqual([
      'endDate: End date must be after the start date',
    ]);
    expect(messages('event', { ...event, endDate: '2026-12-24T18:00:00.000Z' })).toEqual([]);
    expect(messages('event', { ...event, title: '', endDate: '2026-12-24T17:00:00.000Z' })).toEqual([
      'title: Title is required',
      'endDate: End date must be after the start date',
    ]);
  });

  it('refuses dates that do not parse', () => {
    for (const startDate of [
      'tomorrow',
      '2026-02-30T10:00:00Z',
      '2026-12-24T25:00:00Z',
      '2026-12-24T18:00',
    ]) {
      expect(messages('event', { title: 'T', startDate })).toEqual([
        'startDate: Start date must be a valid date',
      ]);
    }
    expect(messages('event', { title: 'T', startDate: '2026-12-24T18:00:00Z', endDate: 'soon' })).toEqual([
      'endDate: End date must be a valid date',
    ]);
  });

  it('refuses an unknown Wi-Fi security', () => {
    expect(messages('wifi', { ssid: 'Net', encryption: 'WPA9' })).toEqual([
      'encryption: Security must be WPA/WPA2, WEP or None',
    ]);
  });
});

describe('contentFieldsSchema: normalisation', () => {
  it('trims, unifies line breaks and drops unknown keys', () => {
    expect(
      parsed('email', { email: ' a@b.co ', subject: ' Hi ', body: ' a\r\nb\rc ', isAdmin: true }),
    ).toEqual({
      email: 'a@b.co',
      subject: 'Hi',
      body: 'a\nb\nc',
    });
  });

  it('fills missing optional fields with empty strings', () => {
    expect(parsed('vcard', { firstName: 'Ada' })).toEqual({
      firstName: 'Ada',
      lastName: '',
      email: '',
      phone: '',
      organization: '',
      title: '',
      website: '',
    });
  });

  it('stores datetimes in UTC at whole seconds', () => {
    expect(
      parsed('event', {
        title: 'T',
        startDate: '2026-12-24T00:30:15.750+01:00',
        endDate: '2026-12-24T00:31Z',
      }),
    ).toEqual({
      title: 'T',
      location: '',
      description: '',
      startDate: '2026-12-23T23:30:15.000Z',
      endDate: '2026-12-24T00:31:00.000Z',
    });
  });

  it('keeps Wi-Fi credentials exactly as typed, and drops the password of an open network', () => {
    expect(parsed('wifi', { ssid: ' Net ', password: ' pass ', encryption: 'wpa' })).toEqual({
      ssid: ' Net ',
      password: ' pass ',
      encryption: 'WPA',
    });
    expect(parsed('wifi', { ssid: 'Net', password: 'x', encryption: 'nopass' })).toEqual({
      ssid: 'Net',
      password: '',
      encryption: 'nopass',
    });
  });
});

describe('validatePayload', () => {
  it('answers the normalised fields of a valid payload', () => {
    expect(validatePayload('wifi', 'WIFI:T:WPA;S:Home;P:secret;;')).toEqual({
      ok: true,
      fields: { ssid: 'Home', password: 'secret', encryption: 'WPA' },
    });
    expect(validatePayload('pdf', 'https://x.io/a.pdf')).toEqual({
      ok: true,
      fields: { url: 'https://x.io/a.pdf', title: '' },
    });
  });

  it(`refuses a payload over ${PAYLOAD_MAX} characters`, () => {
    expect(validatePayload('text', 'a'.repeat(PAYLOAD_MAX + 1))).toEqual({
      ok: false,
      message: 'Content must be at most 4000 characters',
    });
    expect(validatePayload('text', 'a'.repeat(PAYLOAD_MAX)).ok).toBe(false); // the Text field allows 2000
  });

  it('names the failing field', () => {
    expect(validatePayload('email', 'mailto:nobody')).toEqual({
      ok: false,
      message: 'Must be a valid email address',
      field: 'email',
    });
    expect(validatePayload('sms', 'SMSTO::Hello')).toEqual({
      ok: false,
      message: 'Phone number is required',
      field: 'phone',
    });
    expect(
      validatePayload(
        'event',
        crlf('BEGIN:VEVENT', 'SUMMARY:T', 'DTSTART:20261224T180000Z', 'DTEND:20261224T170000Z', 'END:VEVENT'),
      ),
    ).toEqual({ ok: false, message: 'End date must be after the start date', field: 'endDate' });
    expect(validatePayload('text', '   ')).toEqual({ ok: false, message: 'Text is required', field: 'text' });
  });
});

describe('describeContent', () => {
  const cases: [string, string, string][] = [
    ['wifi', 'WIFI:T:WPA;S:MyNet;P:x;;', 'Wi-Fi: MyNet (WPA)'],
    ['wifi', 'WIFI:T:nopass;S:Cafe;;', 'Wi-Fi: Cafe (open)'],
    ['url', 'https://example.com', 'URL: https://example.com'],
    ['unknown', 'https://example.com', 'URL: https://example.com'],
    ['email', 'mailto:a@b.co?subject=Hello%20you', 'Email: a@b.co — Hello you'],
    ['sms', 'SMSTO:+1555:Hi\nthere', 'SMS: +1555 — Hi there'],
    [
      'vcard',
      encodeContent('vcard', { firstName: 'Ada', lastName: 'Lovelace', organization: 'AE' }),
      'vCard: Ada Lovelace (AE)',
    ],
    [
      'event',
      encodeContent('event', { title: 'Carols', startDate: '2026-12-24T18:00:00.000Z' }),
      'Event: Carols — 2026-12-24 18:00 UTC',
    ],
    ['phone', 'tel:+1555', 'Phone: +1555'],
    ['pdf', 'https://x.io/a.pdf', 'PDF: https://x.io/a.pdf'],
    ['text', '', 'Text: (empty)'],
  ];

  it.each(cases)('%s %j → %s', (type, payload, summary) => {
    expect(describeContent(type, payload)).toBe(summary);
  });

  it('stays on one line and short', () => {
    const summary = describeContent('text', `${'word '.repeat(100)}\n😀`);
    expect(summary).not.toMatch(/\n/);
    expect(Array.from(summary).length).toBeLessThanOrEqual(90);
    expect(summary.endsWith('…')).toBe(true);
  });
});

describe('the event time zone (hidden field, X-WR-TIMEZONE)', () => {
  const event = {
    title: 'Carols',
    location: '',
    description: '',
    startDate: '2026-12-24T17:00:00.000Z',
    endDate: '2026-12-24T19:00:00.000Z',
  };

  it('is a hidden, optional field of the event only, not one of the form inputs', () => {
    expect(hiddenContentFields.event?.map((d) => [d.name, d.hidden, d.required])).toEqual([
      ['timeZone', true, false],
    ]);
    expect(contentFields.event.some((d) => d.name === 'timeZone')).toBe(false);
    expect(allContentFields('event').map((d) => d.name)).toEqual([
      'title',
      'location',
      'description',
      'startDate',
      'endDate',
      'timeZone',
    ]);
    for (const type of qrTypes.filter((t) => t !== 'event'))
      expect(hiddenContentFields[type]).toBeUndefined();
    expect(emptyFields('event')).not.toHaveProperty('timeZone');
  });

  it('is written as a calendar-level X-WR-TIMEZONE line; the times stay UTC', () => {
    expect(encodeContent('event', { ...event, timeZone: 'Europe/Berlin' })).toBe(
      crlf(
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'X-WR-TIMEZONE:Europe/Berlin',
        'BEGIN:VEVENT',
        'SUMMARY:Carols',
        'DTSTART:20261224T170000Z',
        'DTEND:20261224T190000Z',
        'END:VEVENT',
        'END:VCALENDAR',
      ),
    );
    expect(encodeContent('event', { ...event, timeZone: '  ' })).not.toContain('X-WR-TIMEZONE');
  });

  it('round-trips through the schema, the payload and the server check', () => {
    const x = parsed('event', { ...event, timeZone: 'America/New_York' });
    expect(x).toEqual({ ...event, timeZone: 'America/New_York' });
    const payload = encodeContent('event', x);
    expect(decodeContent('event', payload)).toEqual(x);
    expect(validatePayload('event', payload)).toEqual({ ok: true, fields: x });
    expect(parsed('event', x)).toEqual(x);
  });

  it('is left out when blank or missing, and decoded only when the payload has it', () => {
    expect(parsed('event', { ...event, timeZone: '' })).toEqual(event);
    expect(parsed('event', { ...event, timeZone: '   ' })).toEqual(event);
    expect(parsed('event', event)).toEqual(event);
    expect(decodeContent('event', encodeContent('event', event))).not.toHaveProperty('timeZone');
  });

  it('stores the zone in its own spelling', () => {
    expect(parsed('event', { ...event, timeZone: ' europe/berlin ' }).timeZone).toBe('Europe/Berlin');
    expect(parsed('event', { ...event, timeZone: 'UTC' }).timeZone).toBe('UTC');
    expect(canonicalTimeZone('asia/tokyo')).toBe('Asia/Tokyo');
    // Never an older name some engines resolve to (Asia/Calcutta); every name of UTC is UTC.
    expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
    expect(canonicalTimeZone('Nowhere/Land')).toBeNull();
  });

  it.each(['Mars/Olympus_Mons', 'Berlin', '+01:00', 'Europe/Berlin;x', 'Europe/Berlin\nX-EVIL:1'])(
    'refuses the unknown zone %j, naming the field',
    (timeZone) => {
      expect(messages('event', { ...event, timeZone })).toEqual([
        'timeZone: Time zone must be a known IANA time zone, such as Europe/Berlin',
      ]);
    },
  );

  it('refuses a stored payload with an unknown zone', () => {
    const payload = encodeContent('event', event).replace(
      'VERSION:2.0',
      'VERSION:2.0\r\nX-WR-TIMEZONE:Nowhere/Land',
    );
    expect(validatePayload('event', payload)).toEqual({
      ok: false,
      message: 'Time zone must be a known IANA time zone, such as Europe/Berlin',
      field: 'timeZone',
    });
  });

  it("reads other calendars' X-WR-TIMEZONE, but not one inside the event or an alarm", () => {
    const calendar = (...inner: string[]) =>
      crlf('BEGIN:VCALENDAR', 'PRODID:-//Other//EN', ...inner, 'END:VCALENDAR');
    const vevent = ['BEGIN:VEVENT', 'SUMMARY:Standup', 'DTSTART:20260105T080000Z', 'END:VEVENT'];
    expect(decodeContent('event', calendar(...vevent, 'x-wr-timezone: Europe/Paris ')).timeZone).toBe(
      'Europe/Paris',
    );
    expect(decodeContent('event', calendar('X-WR-TIMEZONE:Asia/Tokyo', ...vevent)).timeZone).toBe(
      'Asia/Tokyo',
    );
    expect(
      decodeContent('event', calendar('BEGIN:VEVENT', 'X-WR-TIMEZONE:Asia/Tokyo', ...vevent.slice(1))),
    ).not.toHaveProperty('timeZone');
  });

  it('gives the offset of a zone at an instant, daylight saving time included', () => {
    expect(timeZoneOffset(new Date('2026-12-24T17:00:00Z'), 'Europe/Berlin')).toBe(3_600_000);
    expect(timeZoneOffset(new Date('2026-07-01T12:00:00Z'), 'Europe/Berlin')).toBe(7_200_000);
    expect(timeZoneOffset(new Date('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(-4 * 3_600_000);
    expect(timeZoneOffset(new Date('2026-07-01T12:00:00Z'), 'Asia/Kathmandu')).toBe(5.75 * 3_600_000);
    expect(timeZoneOffset(new Date('2026-07-01T12:00:00Z'), 'UTC')).toBe(0);
    expect(timeZoneOffset(new Date('2026-07-01T12:00:00Z'), 'Nowhere/Land')).toBeNull();
  });

  it('is how describeContent shows the start', () => {
    expect(describeContent('event', encodeContent('event', { ...event, timeZone: 'Europe/Berlin' }))).toBe(
      'Event: Carols — 2026-12-24 18:00 Europe/Berlin',
    );
    expect(describeContent('event', encodeContent('event', event))).toBe(
      'Event: Carols — 2026-12-24 17:00 UTC',
    );
  });
});
