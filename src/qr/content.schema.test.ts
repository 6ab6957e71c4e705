import { describe, expect, it } from 'vitest';
import { emptyFields, PAYLOAD_MAX, validatePayload } from './content';
import { qrTypes, type QrType } from './qr-types';
import { crlf, messages, parsed } from './content.test-helpers';

describe('contentFieldsSchema: messages of the field rules', () => {
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
