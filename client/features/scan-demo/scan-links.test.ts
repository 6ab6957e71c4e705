import { describe, expect, it } from 'vitest';
import { decodeContent, encodeContent } from '../../../src/qr/content';
import { findPhoneNumber, formatEventRange, mailtoHref, parseQrId, smsHref, telHref } from './scan-links';

describe('parseQrId', () => {
  it.each([
    ['12', 12],
    [' 7 ', 7],
    ['2147483647', 2147483647],
  ])('%j → %j', (input, id) => expect(parseQrId(input)).toBe(id));

  it.each(['', '   ', 'abc', '12a', '-3', '1.5', '1e3', '0', '2147483648', '+4', '99999999999999999999'])(
    'refuses %j',
    (input) => expect(parseQrId(input)).toBeNull(),
  );
});

describe('findPhoneNumber', () => {
  it.each([
    ['Call me at +1 (555) 123-4567 today', '+1 (555) 123-4567'],
    ['Hotline: 0800 123 456.', '0800 123 456'],
    ['tel:+4930123456', '+4930123456'],
    ['555.123.4567', '555.123.4567'],
    ['(555) 123-4567', '(555) 123-4567'],
  ])('finds it in %j', (text, phone) => expect(findPhoneNumber(text)).toBe(phone));

  it.each([
    'Hello world',
    'Room 12, floor 3',
    'Meet on 2026-12-24',
    'See https://example.com/items/55512345678',
    'mail bob5551234567@example.com',
    'Order ABC5551234567',
    '12345678901234567890',
  ])('finds none in %j', (text) => expect(findPhoneNumber(text)).toBeNull());

  it('stays fast on long near-misses', () => {
    const start = performance.now();
    findPhoneNumber(`${'1-'.repeat(2000)}x`);
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe('hrefs', () => {
  it('dials only dialable characters', () => {
    expect(telHref('+1 (555) 123-4567')).toBe('tel:+15551234567');
    expect(telHref('javascript:alert(1)')).toBe('tel:javascriptalert1');
    expect(telHref('   ')).toBeNull();
  });

  it('builds sms: links with an encoded body', () => {
    expect(smsHref('+1 555 0100', 'Hi & bye')).toBe('sms:+15550100?body=Hi%20%26%20bye');
    expect(smsHref('+1 555 0100', '')).toBe('sms:+15550100');
    expect(smsHref('', 'x')).toBeNull();
  });

  it('uses a mailto: payload as it is, and builds one for other e-mail payloads', () => {
    const payload = encodeContent('email', { email: 'a@b.co', subject: 'Hi there', body: '' });
    expect(mailtoHref(payload, decodeContent('email', payload))).toBe(payload);
    const matmsg = 'MATMSG:TO:a@b.co;SUB:Hello;BODY:World;;';
    expect(mailtoHref(matmsg, decodeContent('email', matmsg))).toBe('mailto:a@b.co?subject=Hello&body=World');
    expect(mailtoHref('mailto:', decodeContent('email', 'mailto:'))).toBeNull();
  });
});

describe('formatEventRange', () => {
  it('formats a range in the given locale', () => {
    const text = formatEventRange('2026-12-24T18:00:00.000Z', '2026-12-24T20:00:00.000Z', 'en-US');
    expect(text).toMatch(/Dec 24, 2026/);
    expect(text).toMatch(/–/);
  });

  it('shows the start alone, and unreadable dates as they are', () => {
    expect(formatEventRange('2026-12-24T18:00:00.000Z', '', 'en-US')).toMatch(/Dec 24, 2026/);
    expect(formatEventRange('next friday', '', 'en-US')).toBe('next friday');
    expect(formatEventRange('', '', 'en-US')).toBe('');
  });

  it("shows the times in the event's own zone and names it", () => {
    const text = formatEventRange(
      '2026-12-24T17:00:00.000Z',
      '2026-12-24T19:00:00.000Z',
      'en-US',
      'Europe/Berlin',
    );
    expect(text).toMatch(/6:00\s*(PM)?\s*–\s*8:00/);
    expect(text).toMatch(/8:00\s*PM/);
    expect(text).toMatch(/\(Europe\/Berlin\)$/);
    expect(formatEventRange('2026-12-24T17:00:00.000Z', '', 'en-US', 'America/New_York')).toMatch(
      /12:00\s*PM \(America\/New York\)$/,
    );
  });
});
