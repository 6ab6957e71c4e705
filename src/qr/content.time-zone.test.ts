import { describe, expect, it } from 'vitest';
import { decodeContent, describeContent, emptyFields, encodeContent, validatePayload } from './content';
import { canonicalTimeZone, timeZoneOffset } from './dates';
import { allContentFields, contentFields, hiddenContentFields } from './content-fields';
import { qrTypes } from './qr-types';
import { crlf, messages, parsed } from './content.test-helpers';

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
