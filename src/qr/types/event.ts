import { canonicalTimeZone, compactUtc, fromIcalDate, pad, parseIsoDateTime, timeZoneOffset } from '../dates';
import { escapeText, unescapeText } from '../text';
import { joinParts, type ContentFields, type FieldsIn, type QrTypeCodec } from './codec';
import { firstValues, parseContentLines, type ContentLine } from './content-lines';

/** An iCalendar VEVENT with UTC times; the event's `timeZone` is the calendar's `X-WR-TIMEZONE`. */
function encodeEvent(f: FieldsIn): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0'];
  // The times stay UTC (every reader agrees on the instant); the zone says where they are meant to be read.
  const timeZone = (f.timeZone ?? '').trim();
  if (timeZone) lines.push(`X-WR-TIMEZONE:${escapeText(timeZone)}`);
  lines.push('BEGIN:VEVENT', `SUMMARY:${escapeText(f.title ?? '')}`);
  if (f.location) lines.push(`LOCATION:${escapeText(f.location)}`);
  if (f.description) lines.push(`DESCRIPTION:${escapeText(f.description)}`);
  const start = compactUtc(f.startDate ?? '');
  if (start) lines.push(`DTSTART:${start}`);
  const end = compactUtc(f.endDate ?? '');
  if (end) lines.push(`DTEND:${end}`);
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return lines.join('\r\n');
}

/** A VEVENT, in a VCALENDAR or bare; the hidden `timeZone` only when the calendar has an X-WR-TIMEZONE. */
function decodeEvent(payload: string): ContentFields {
  const lines = parseContentLines(payload);
  const blank = { title: '', location: '', description: '', startDate: '', endDate: '' };
  const isEvent = lines.some(
    (l) => (l.name === 'BEGIN' && l.value.trim().toUpperCase() === 'VEVENT') || l.name === 'DTSTART',
  );
  if (!isEvent) return { ...blank, title: payload.trim() };
  // Only the event's own properties: a VALARM inside it has a DESCRIPTION too.
  const own: ContentLine[] = [];
  const open: string[] = [];
  let timeZone = '';
  for (const line of lines) {
    if (line.name === 'BEGIN') open.push(line.value.trim().toUpperCase());
    else if (line.name === 'END') open.pop();
    else if (open.length === 0 || open.at(-1) === 'VEVENT') own.push(line);
    // The calendar's zone (X-WR-TIMEZONE is a calendar property, outside the VEVENT).
    if (line.name === 'X-WR-TIMEZONE' && !timeZone && (open.length === 0 || open.at(-1) === 'VCALENDAR'))
      timeZone = unescapeText(line.value).trim();
  }
  const p = firstValues(own, ['SUMMARY', 'LOCATION', 'DESCRIPTION', 'DTSTART', 'DTEND']);
  const text = (name: string) => unescapeText(p.get(name)?.value ?? '');
  const date = (name: string) => {
    const value = p.get(name)?.value;
    return value === undefined ? '' : fromIcalDate(value);
  };
  return {
    title: text('SUMMARY'),
    location: text('LOCATION'),
    description: text('DESCRIPTION'),
    startDate: date('DTSTART'),
    endDate: date('DTEND'),
    ...(timeZone ? { timeZone } : {}),
  };
}

/** '2026-12-24 18:00 UTC', or in the event's own zone: '2026-12-24 19:00 Europe/Berlin'. */
function formatWhen(iso: string, timeZone: string): string {
  const instant = parseIsoDateTime(iso);
  if (!instant) return iso;
  const offset = timeZone ? timeZoneOffset(instant, timeZone) : null;
  const date = offset === null ? instant : new Date(instant.getTime() + offset);
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const zone = offset === null ? 'UTC' : (canonicalTimeZone(timeZone) ?? timeZone);
  return `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} ${zone}`;
}

/**
 * event: title, place, description, start and end (canonical UTC by the common datetime rule), and the hidden
 * `timeZone` the app fills.
 */
export const eventCodec: QrTypeCodec = {
  fields: {
    // The hidden zone must be a known IANA zone, stored in the zone's own spelling.
    timeZone: {
      check: (value, label) => {
        const zone = canonicalTimeZone(value);
        return zone !== null
          ? { value: zone }
          : { message: `${label} must be a known IANA time zone, such as Europe/Berlin` };
      },
    },
  },
  refine: (object) =>
    object.refine((v) => !v.startDate || !v.endDate || Date.parse(v.endDate) >= Date.parse(v.startDate), {
      message: 'End date must be after the start date',
      path: ['endDate'],
      // Compare only two readable dates, even when another field (the title) is missing.
      when: (payload) =>
        !payload.issues.some((i) => i.path?.[0] === 'startDate' || i.path?.[0] === 'endDate'),
    }),
  encode: encodeEvent,
  decode: decodeEvent,
  describe: (f) => {
    const start = f.startDate ?? '';
    return joinParts(f.title ?? '', start ? formatWhen(start, f.timeZone ?? '') : '');
  },
};
