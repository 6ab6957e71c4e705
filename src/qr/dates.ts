/** Dates and time zones of event payloads: ISO parsing, canonical forms, zone offsets, iCalendar forms. */

export function utcDate(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date;
}

export function validDate(date: Date): Date | null {
  const year = date.getUTCFullYear();
  return Number.isFinite(date.getTime()) && year >= 0 && year <= 9999 ? date : null;
}

export function dateFromParts(y: string, mo: string, d: string, h = '0', mi = '0', s = '0'): Date | null {
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = utcDate(year, month, day, hour, minute, second);
  return date.getUTCDate() === day ? date : null;
}

export const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/i;

/**
 * An ISO 8601 date-time with a zone (`Z` or `±hh:mm`) as a UTC instant at whole seconds, or null.
 * Parsed by hand: `Date.parse` differs between engines and rolls 30 February over into March.
 */
export function parseIsoDateTime(value: string): Date | null {
  const m = ISO_DATETIME.exec(value);
  if (!m) return null;
  const local = dateFromParts(m[1]!, m[2]!, m[3]!, m[4], m[5], m[6]);
  if (!local) return null;
  if (m[7]) return validDate(local);
  const offsetHours = Number(m[9]);
  const offsetMinutes = Number(m[10]);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const sign = m[8] === '-' ? -1 : 1;
  return validDate(new Date(local.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000));
}

/** The canonical form every datetime field is stored in: `2026-12-24T18:00:00.000Z`. */
export function canonicalDateTime(value: string): string | null {
  return parseIsoDateTime(value.trim())?.toISOString() ?? null;
}

export const pad = (n: number, width = 2) => String(n).padStart(width, '0');

// An IANA name ('Europe/Berlin', 'UTC', 'Etc/GMT+5'), never an offset such as '+01:00' that newer engines
// accept too: calendar apps read X-WR-TIMEZONE as a zone name.
export const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;
export const offsetFormats = new Map<string, Intl.DateTimeFormat>();

export function offsetFormat(timeZone: string): Intl.DateTimeFormat | null {
  if (!TIME_ZONE_NAME.test(timeZone)) return null;
  // Zone names are case-insensitive: one entry per known zone, however a request spells it.
  const key = timeZone.toLowerCase();
  let format = offsetFormats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    } catch {
      return null; // RangeError: not a zone this engine knows
    }
    offsetFormats.set(key, format);
  }
  return format;
}

export const UTC_NAMES = new Set(['UTC', 'ETC/UTC', 'GMT', 'ETC/GMT']);

/**
 * A known IANA zone in its own spelling ('europe/berlin' → 'Europe/Berlin'; any name of UTC → 'UTC'), or null.
 * Other names are kept as given: engines resolve some to older ones ('Asia/Kolkata' → 'Asia/Calcutta').
 */
export function canonicalTimeZone(value: string): string | null {
  const zone = value.trim();
  const resolved = offsetFormat(zone)?.resolvedOptions().timeZone;
  if (resolved === undefined) return null;
  if (UTC_NAMES.has(resolved.toUpperCase())) return 'UTC';
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

export const GMT_OFFSET = /^GMT(?:([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/;

/**
 * The zone's offset from UTC at that instant in milliseconds (Berlin in winter: 3 600 000), or null for an
 * unknown zone. Add it to the instant and read the UTC fields to get the wall-clock time there.
 */
export function timeZoneOffset(date: Date, timeZone: string): number | null {
  const format = offsetFormat(timeZone.trim());
  if (!format || !Number.isFinite(date.getTime())) return null;
  const name = format.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const m = GMT_OFFSET.exec(name);
  if (!m) return null;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * ((Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 60 + Number(m[4] ?? 0)) * 1000;
}

/** `YYYYMMDDTHHMMSSZ` (RFC 5545 UTC form). */
export function compactUtc(value: string): string | null {
  const date = parseIsoDateTime(value.trim());
  if (!date) return null;
  return (
    `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`
  );
}

export const ICAL_DATE = /^(\d{4})-?(\d{2})-?(\d{2})(?:T(\d{2}):?(\d{2})(?::?(\d{2}))?(?:\.\d+)?Z?)?$/i;

/** DATE or DATE-TIME; floating and TZID times are read as UTC (best effort); unreadable values stay as they are. */
export function fromIcalDate(value: string): string {
  const m = ICAL_DATE.exec(value.trim());
  const date = m ? dateFromParts(m[1]!, m[2]!, m[3]!, m[4], m[5], m[6]) : null;
  return date ? date.toISOString() : value.trim();
}
