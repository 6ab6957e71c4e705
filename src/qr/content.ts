import { z } from 'zod';
import { allContentFields, contentFields, DEFAULT_WIFI_ENCRYPTION, type FieldDef } from './content-fields';
import { normalizeQrType, qrTypeLabels, type QrType } from './qr-types';

/**
 * The content of one code, by field name (see `contentFields`). The stored `content` is the payload string
 * that `encodeContent` builds from these; `decodeContent` reads it back for the edit form and the scan demo.
 *
 * Round trip: for every type `t` and every `x` output by `contentFieldsSchema(t)`,
 * `decodeContent(t, encodeContent(t, x))` deep-equals `x`, except that pdf, video and image carry only the
 * url in their payload (decode answers `title: ''`; a title is kept beside the payload, not in it).
 * Hidden fields (the event's `timeZone`) are present only when set: the schema drops them when blank and
 * decode answers them only when the payload carries them (read a missing one as '').
 */
export type ContentFields = Record<string, string>;

/** The longest payload the server stores (a QR code holds less than 3 kB anyway). */
export const PAYLOAD_MAX = 4000;

export type PayloadCheck =
  { ok: true; fields: ContentFields } | { ok: false; message: string; field?: string };

// ---------------------------------------------------------------------------------------------------------
// Text helpers

/** A lone surrogate cannot be percent-encoded (encodeURIComponent throws) nor stored as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const LINE_BREAK = /\r\n|\r|\n/g;

function wellFormed(value: string): string {
  return value.replace(LONE_SURROGATE, '\uFFFD');
}

function unixNewlines(value: string): string {
  return value.replace(LINE_BREAK, '\n');
}

function percentEncode(value: string): string {
  return encodeURIComponent(wellFormed(value));
}

function percentDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Backslash escapes of WIFI: and MECARD:, where `\x` always stands for `x`. */
function unescapeBackslash(value: string): string {
  return value.replace(/\\([\s\S])/g, '$1');
}

/** vCard (RFC 2426) and iCalendar (RFC 5545) TEXT escaping. */
function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, '\\$&').replace(LINE_BREAK, '\\n');
}

/** URI and phone values are not TEXT: only what would break the line or the escaping is escaped. */
function escapeUriValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(LINE_BREAK, '\\n');
}

function unescapeText(value: string): string {
  return value.replace(/\\([\s\S])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** Splits on `separator` where it is not escaped by a backslash; the pieces keep their escapes. */
function splitUnescaped(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    if (c === '\\') {
      current += value.slice(i, i + 2);
      i++;
    } else if (c === separator) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

/** `KEY:value;KEY:value;;` as in WIFI:, MECARD: and MATMSG:. Keys upper-cased, first one wins, values raw. */
function parseSegments(body: string): Map<string, string> {
  const segments = new Map<string, string>();
  for (const segment of splitUnescaped(body, ';')) {
    const colon = segment.indexOf(':');
    if (colon <= 0) continue;
    const key = segment.slice(0, colon).trim().toUpperCase();
    if (!segments.has(key)) segments.set(key, segment.slice(colon + 1));
  }
  return segments;
}

function stripPrefix(payload: string, prefix: RegExp): string | null {
  const match = prefix.exec(payload);
  return match ? payload.slice(match[0].length) : null;
}

// ---------------------------------------------------------------------------------------------------------
// Field checks

const emailSchema = z.email();
const PHONE = /^[0-9A-Za-z+()\-./*#,; ]+$/;

/** An absolute http(s) URL without whitespace: never javascript:, data:, file: or any other scheme. */
export function isHttpUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (!/^https?:\/\/[^\s/?#]/i.test(value) || /[\s\u0000-\u001f\u007f]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function isEmailAddress(value: string): boolean {
  return emailSchema.safeParse(value).success;
}

/** Digits with the usual punctuation; letters for vanity numbers and extensions. Never `:` (SMSTO's separator). */
export function isPhoneNumber(value: string): boolean {
  return PHONE.test(value) && /\d/.test(value);
}

function utcDate(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date;
}

function validDate(date: Date): Date | null {
  const year = date.getUTCFullYear();
  return Number.isFinite(date.getTime()) && year >= 0 && year <= 9999 ? date : null;
}

function dateFromParts(y: string, mo: string, d: string, h = '0', mi = '0', s = '0'): Date | null {
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

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/i;

/**
 * An ISO 8601 date-time with a zone (`Z` or `±hh:mm`) as a UTC instant at whole seconds, or null.
 * Parsed by hand: `Date.parse` differs between engines and rolls 30 February over into March.
 */
function parseIsoDateTime(value: string): Date | null {
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

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

// An IANA name ('Europe/Berlin', 'UTC', 'Etc/GMT+5'), never an offset such as '+01:00' that newer engines
// accept too: calendar apps read X-WR-TIMEZONE as a zone name.
const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function offsetFormat(timeZone: string): Intl.DateTimeFormat | null {
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

const UTC_NAMES = new Set(['UTC', 'ETC/UTC', 'GMT', 'ETC/GMT']);

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

const GMT_OFFSET = /^GMT(?:([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/;

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
function compactUtc(value: string): string | null {
  const date = parseIsoDateTime(value.trim());
  if (!date) return null;
  return (
    `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`
  );
}

const ICAL_DATE = /^(\d{4})-?(\d{2})-?(\d{2})(?:T(\d{2}):?(\d{2})(?::?(\d{2}))?(?:\.\d+)?Z?)?$/i;

/** DATE or DATE-TIME; floating and TZID times are read as UTC (best effort); unreadable values stay as they are. */
function fromIcalDate(value: string): string {
  const m = ICAL_DATE.exec(value.trim());
  const date = m ? dateFromParts(m[1]!, m[2]!, m[3]!, m[4], m[5], m[6]) : null;
  return date ? date.toISOString() : value.trim();
}

// ---------------------------------------------------------------------------------------------------------
// Schema

/** Wi-Fi credentials are kept exactly as typed: a leading or trailing space there is part of the secret. */
function isVerbatim(type: QrType, name: string): boolean {
  return type === 'wifi' && (name === 'ssid' || name === 'password');
}

function isTimeZoneField(type: QrType, name: string): boolean {
  return type === 'event' && name === 'timeZone';
}

function orList(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function fieldSchema(type: QrType, def: FieldDef): z.ZodType<string> {
  const { label } = def;
  const verbatim = isVerbatim(type, def.name);
  return z.preprocess(
    (input) => (input === undefined || input === null ? '' : input),
    z.string({ error: `${label} must be text` }).transform((input, ctx) => {
      const fail = (message: string) => {
        ctx.addIssue({ code: 'custom', message, input });
        return z.NEVER;
      };
      const value = verbatim ? wellFormed(input) : unixNewlines(wellFormed(input)).trim();
      if (value.trim() === '') return def.required ? fail(`${label} is required`) : value;
      if (value.length > def.maxLength) return fail(`${label} must be at most ${def.maxLength} characters`);
      if (def.kind === 'datetime') return canonicalDateTime(value) ?? fail(`${label} must be a valid date`);
      if (isTimeZoneField(type, def.name)) {
        return (
          canonicalTimeZone(value) ?? fail(`${label} must be a known IANA time zone, such as Europe/Berlin`)
        );
      }
      if (def.kind === 'select') {
        const options = def.options ?? [];
        const option = options.find((o) => o.value.toLowerCase() === value.toLowerCase());
        return option ? option.value : fail(`${label} must be ${orList(options.map((o) => o.label))}`);
      }
      // §5: optional fields are not checked beyond their length.
      if (!def.required) return value;
      if (def.kind === 'url' && !isHttpUrl(value)) return fail('Must be a valid URL');
      if (def.kind === 'email' && !isEmailAddress(value)) return fail('Must be a valid email address');
      if (def.kind === 'tel' && !isPhoneNumber(value)) return fail('Must be a valid phone number');
      return value;
    }),
  );
}

/** Hidden fields are optional and left out of the content when blank. */
function dropBlankHidden(type: QrType): (value: ContentFields) => ContentFields {
  const hidden = allContentFields(type)
    .filter((def) => def.hidden)
    .map((def) => def.name);
  return (value) => {
    const out = { ...value };
    for (const name of hidden) if (out[name] === '') delete out[name];
    return out;
  };
}

function buildSchema(type: QrType): z.ZodType<ContentFields> {
  const shape: Record<string, z.ZodType<string>> = {};
  for (const def of allContentFields(type)) shape[def.name] = fieldSchema(type, def);
  const object = z.object(shape);
  if (type === 'event') {
    return object
      .refine((v) => !v.startDate || !v.endDate || Date.parse(v.endDate) >= Date.parse(v.startDate), {
        message: 'End date must be after the start date',
        path: ['endDate'],
        // Compare only two readable dates, even when another field (the title) is missing.
        when: (payload) =>
          !payload.issues.some((i) => i.path?.[0] === 'startDate' || i.path?.[0] === 'endDate'),
      })
      .transform(dropBlankHidden(type));
  }
  if (type === 'wifi') {
    // An open network has no password, and its payload carries none.
    return object.transform((v) => (v.encryption === 'nopass' ? { ...v, password: '' } : v));
  }
  return object;
}

const schemas = new Map<QrType, z.ZodType<ContentFields>>();

/**
 * The content form of a type (unknown → url). Required fields must be non-blank ('{label} is required');
 * required url fields absolute http(s) ('Must be a valid URL'), required e-mail fields valid ('Must be a valid
 * email address'), required phone fields phone-like ('Must be a valid phone number'); optional fields are only
 * length-checked. Output: every field present, trimmed, line breaks as `\n`, datetimes canonical UTC at whole
 * seconds; Wi-Fi SSID and password untrimmed, and no password for an open network. Unknown keys are dropped.
 * Hidden fields: the event's optional `timeZone` must be a known IANA zone ('Time zone must be a known IANA
 * time zone, such as Europe/Berlin'), comes out in the zone's own spelling, and is left out when blank.
 */
export function contentFieldsSchema(type: string): z.ZodType<ContentFields> {
  const t = normalizeQrType(type);
  let schema = schemas.get(t);
  if (!schema) {
    schema = buildSchema(t);
    schemas.set(t, schema);
  }
  return schema;
}

/** A blank form of the type: every input field '', except Wi-Fi security 'WPA' (no hidden fields). */
export function emptyFields(type: string): ContentFields {
  const t = normalizeQrType(type);
  return Object.fromEntries(
    contentFields[t].map((def) => [
      def.name,
      t === 'wifi' && def.name === 'encryption' ? DEFAULT_WIFI_ENCRYPTION : '',
    ]),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Encode

type FieldsIn = Partial<ContentFields>;

function wifiEncryption(value: string): string {
  const v = value.trim().toUpperCase();
  if (v === 'WEP') return 'WEP';
  if (v === 'NOPASS' || v === 'NONE' || v === 'OPEN') return 'nopass';
  return DEFAULT_WIFI_ENCRYPTION;
}

function encodeEmail(f: FieldsIn): string {
  // Valid addresses need no escaping; anything else must not break out of the address part.
  const address = percentEncode(f.email ?? '')
    .replace(/%40/g, '@')
    .replace(/%2B/g, '+');
  const query = (['subject', 'body'] as const)
    .filter((key) => (f[key] ?? '') !== '')
    // RFC 6068: line breaks in a mailto are %0D%0A.
    .map((key) => `${key}=${percentEncode((f[key] ?? '').replace(LINE_BREAK, '\r\n'))}`);
  return `mailto:${address}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

function escapeWifi(value: string): string {
  return value.replace(/[\\;,:"]/g, '\\$&');
}

function encodeWifi(f: FieldsIn): string {
  const encryption = wifiEncryption(f.encryption ?? '');
  const password = f.password ?? '';
  const passwordPart = encryption !== 'nopass' && password !== '' ? `P:${escapeWifi(password)};` : '';
  return `WIFI:T:${encryption};S:${escapeWifi(f.ssid ?? '')};${passwordPart};`;
}

function encodeVcard(f: FieldsIn): string {
  const first = f.firstName ?? '';
  const last = f.lastName ?? '';
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${escapeText(last)};${escapeText(first)};;;`,
    `FN:${escapeText([first, last].filter(Boolean).join(' '))}`,
  ];
  const optional: [string, string | undefined, (v: string) => string][] = [
    ['TEL', f.phone, escapeUriValue],
    ['EMAIL', f.email, escapeText],
    ['ORG', f.organization, escapeText],
    ['TITLE', f.title, escapeText],
    ['URL', f.website, escapeUriValue],
  ];
  for (const [name, value, escape] of optional) if (value) lines.push(`${name}:${escape(value)}`);
  lines.push('END:VCARD');
  return lines.join('\r\n');
}

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

/**
 * The payload a phone camera understands: the plain url or text; `mailto:` (RFC 6068); `SMSTO:phone:message`;
 * `WIFI:T:…;S:…;P:…;;`; vCard 3.0; an iCalendar VEVENT (UTC times, the event's `timeZone` as the calendar's
 * `X-WR-TIMEZONE`); `tel:`. Values are used as given (validate first).
 * Unknown type → url.
 */
export function encodeContent(type: string, fields: FieldsIn): string {
  const t = normalizeQrType(type);
  switch (t) {
    case 'text':
      return fields.text ?? '';
    case 'email':
      return encodeEmail(fields);
    case 'sms':
      return `SMSTO:${fields.phone ?? ''}:${fields.message ?? ''}`;
    case 'wifi':
      return encodeWifi(fields);
    case 'vcard':
      return encodeVcard(fields);
    case 'event':
      return encodeEvent(fields);
    case 'phone':
      return `tel:${fields.phone ?? ''}`;
    case 'url':
    case 'social':
    case 'pdf':
    case 'video':
    case 'image':
      return fields.url ?? '';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Decode

function parseQuery(query: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = percentDecode(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
    const value = eq < 0 ? '' : unixNewlines(percentDecode(pair.slice(eq + 1)));
    if (!params.has(key)) params.set(key, value);
  }
  return params;
}

function decodeEmail(payload: string): ContentFields {
  const p = payload.trim();
  const mailto = stripPrefix(p, /^mailto:/i);
  if (mailto !== null) {
    const q = mailto.indexOf('?');
    const params = parseQuery(q < 0 ? '' : mailto.slice(q + 1));
    const address = percentDecode(q < 0 ? mailto : mailto.slice(0, q));
    return {
      email: address || (params.get('to') ?? ''),
      subject: params.get('subject') ?? '',
      body: params.get('body') ?? '',
    };
  }
  const matmsg = stripPrefix(p, /^matmsg:/i);
  if (matmsg !== null) {
    const s = parseSegments(matmsg);
    const get = (key: string) => unixNewlines(unescapeBackslash(s.get(key) ?? ''));
    return { email: get('TO'), subject: get('SUB'), body: get('BODY') };
  }
  return { email: p, subject: '', body: '' };
}

function decodeSms(payload: string): ContentFields {
  const p = payload.trimStart();
  const splitAtColon = (rest: string): ContentFields => {
    const colon = rest.indexOf(':');
    return colon < 0
      ? { phone: rest.trim(), message: '' }
      : { phone: rest.slice(0, colon), message: rest.slice(colon + 1) };
  };
  const smsto = stripPrefix(p, /^(?:sms|mms)to:/i);
  if (smsto !== null) return splitAtColon(smsto);
  const sms = stripPrefix(p, /^sms:/i);
  if (sms !== null) {
    // RFC 5724 `sms:+1555?body=…` or the older `SMS:+1555:message`.
    const q = sms.indexOf('?');
    const colon = sms.indexOf(':');
    if (q >= 0 && (colon < 0 || q < colon)) {
      return {
        phone: percentDecode(sms.slice(0, q)),
        message: parseQuery(sms.slice(q + 1)).get('body') ?? '',
      };
    }
    return splitAtColon(sms);
  }
  const tel = stripPrefix(p, /^tel:/i);
  return { phone: (tel ?? p).trim(), message: '' };
}

/** A WIFI: value: escapes removed, and the quotes some generators put around hex-like values. */
function wifiValue(raw: string): string {
  const quoted = /^"([\s\S]*)"$/.exec(raw);
  if (quoted && !/(^|[^\\])(\\\\)*\\$/.test(quoted[1]!)) return unescapeBackslash(quoted[1]!);
  return unescapeBackslash(raw);
}

function decodeWifi(payload: string): ContentFields {
  const body = stripPrefix(payload.trimStart(), /^wifi:/i);
  if (body === null) return { ssid: payload.trim(), password: '', encryption: DEFAULT_WIFI_ENCRYPTION };
  const s = parseSegments(body);
  const password = wifiValue(s.get('P') ?? '');
  const type = unescapeBackslash(s.get('T') ?? '').trim();
  return {
    ssid: wifiValue(s.get('S') ?? ''),
    password,
    // Without a T segment, a password implies WPA (as most scanners read it).
    encryption: type === '' ? (password === '' ? 'nopass' : DEFAULT_WIFI_ENCRYPTION) : wifiEncryption(type),
  };
}

interface ContentLine {
  name: string;
  params: string[];
  value: string;
}

const QUOTED_PRINTABLE = /(^|;)(ENCODING=)?QUOTED-PRINTABLE(;|:|$)/i;

/** vCard 2.1 QUOTED-PRINTABLE, read as UTF-8 (or as Latin-1 when the bytes are not UTF-8). */
function decodeQuotedPrintable(value: string): string {
  const hex = /=([0-9A-Fa-f]{2})/g;
  let percent = '';
  for (const part of wellFormed(value).split(/(=[0-9A-Fa-f]{2})/)) {
    percent += /^=[0-9A-Fa-f]{2}$/.test(part) ? `%${part.slice(1)}` : encodeURIComponent(part);
  }
  try {
    return decodeURIComponent(percent);
  } catch {
    return value.replace(hex, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** Content lines of a vCard or iCalendar text: unfolded (RFC folding and QP soft breaks), names upper-cased. */
function parseContentLines(payload: string): ContentLine[] {
  const logical: string[] = [];
  for (const line of payload.split(LINE_BREAK)) {
    const last = logical.length - 1;
    const previous = logical[last];
    if (previous !== undefined && /^[ \t]/.test(line)) {
      logical[last] = previous + line.slice(1);
    } else if (
      previous !== undefined &&
      previous.endsWith('=') &&
      QUOTED_PRINTABLE.test(previous.slice(0, previous.indexOf(':') + 1))
    ) {
      logical[last] = previous.slice(0, -1) + line;
    } else {
      logical.push(line);
    }
  }
  const lines: ContentLine[] = [];
  for (const line of logical) {
    let colon = -1;
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line.charAt(i);
      if (c === '"') quoted = !quoted;
      else if (c === ':' && !quoted) {
        colon = i;
        break;
      }
    }
    if (colon <= 0) continue;
    const [rawName = '', ...params] = line.slice(0, colon).split(';');
    // `item1.EMAIL` → EMAIL (Apple's property groups).
    const name = rawName
      .slice(rawName.lastIndexOf('.') + 1)
      .trim()
      .toUpperCase();
    let value = line.slice(colon + 1);
    if (params.some((p) => /^(ENCODING=)?QUOTED-PRINTABLE$/i.test(p.trim())))
      value = decodeQuotedPrintable(value);
    lines.push({ name, params, value });
  }
  return lines;
}

function firstValues(lines: ContentLine[], names: string[]): Map<string, ContentLine> {
  const found = new Map<string, ContentLine>();
  for (const line of lines)
    if (names.includes(line.name) && !found.has(line.name)) found.set(line.name, line);
  return found;
}

function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const space = fullName.lastIndexOf(' ');
  return space < 0
    ? { firstName: fullName, lastName: '' }
    : { firstName: fullName.slice(0, space), lastName: fullName.slice(space + 1) };
}

function decodeVcard(payload: string): ContentFields {
  const blank = {
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    organization: '',
    title: '',
    website: '',
  };
  const mecard = stripPrefix(payload.trimStart(), /^mecard:/i);
  if (mecard !== null) {
    const s = parseSegments(mecard);
    const get = (key: string) => unixNewlines(unescapeBackslash(s.get(key) ?? ''));
    const [last = '', first] = splitUnescaped(s.get('N') ?? '', ',').map(unescapeBackslash);
    return {
      ...blank,
      ...(first === undefined ? { firstName: last } : { firstName: first, lastName: last }),
      email: get('EMAIL'),
      phone: get('TEL'),
      organization: get('ORG'),
      title: get('TITLE'),
      website: get('URL'),
    };
  }
  const lines = parseContentLines(payload);
  if (!lines.some((l) => l.name === 'BEGIN' && l.value.trim().toUpperCase() === 'VCARD')) {
    return { ...blank, firstName: payload.trim() };
  }
  const p = firstValues(lines, ['N', 'FN', 'TEL', 'EMAIL', 'ORG', 'TITLE', 'URL']);
  const text = (name: string) => unescapeText(p.get(name)?.value ?? '');
  const [family = '', given = '', additional = ''] = splitUnescaped(p.get('N')?.value ?? '', ';').map(
    unescapeText,
  );
  const name =
    given || family
      ? { firstName: [given, additional].filter(Boolean).join(' '), lastName: family }
      : splitFullName(text('FN').trim());
  const tel = p.get('TEL');
  // vCard 4: TEL;VALUE=uri:tel:+1…
  const phone =
    tel && tel.params.some((x) => /^VALUE=uri$/i.test(x.trim()))
      ? text('TEL').replace(/^tel:/i, '')
      : text('TEL');
  return {
    ...name,
    email: text('EMAIL'),
    phone,
    organization: splitUnescaped(p.get('ORG')?.value ?? '', ';')
      .map(unescapeText)
      .filter(Boolean)
      .join(', '),
    title: text('TITLE'),
    website: text('URL'),
  };
}

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

/**
 * The fields of a payload, every input field of the type present; a hidden field (the event's `timeZone`,
 * from `X-WR-TIMEZONE`) only when the payload has it. Reads other generators' payloads too (any WIFI
 * segment order, quoted values; `mailto:` with cc/to; `MATMSG:`; `SMSTO:`, `SMS:`, `sms:…?body=`; vCard 2.1–4
 * with extra lines, groups, folding and quoted-printable; `MECARD:`; bare VEVENTs; any prefix case). A payload
 * that is not of the type gives a best effort (the whole payload in the main field) for the schema to judge.
 */
export function decodeContent(type: string, payload: string): ContentFields {
  const t = normalizeQrType(type);
  switch (t) {
    case 'text':
      return { text: payload };
    case 'email':
      return decodeEmail(payload);
    case 'sms':
      return decodeSms(payload);
    case 'wifi':
      return decodeWifi(payload);
    case 'vcard':
      return decodeVcard(payload);
    case 'event':
      return decodeEvent(payload);
    case 'phone': {
      const p = payload.trim();
      return { phone: stripPrefix(p, /^tel:/i) ?? p };
    }
    case 'url':
    case 'social':
      return { url: payload.trim() };
    case 'pdf':
    case 'video':
    case 'image':
      return { url: payload.trim(), title: '' };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Server check and summaries

/**
 * The server's check of a stored payload: at most PAYLOAD_MAX characters, then decoded and validated with
 * the type's schema (so url-like types refuse javascript:, data:, file: and any non-http(s) URL).
 * `fields` is the normalised content; `field` names the failing field when there is one.
 */
export function validatePayload(type: string, payload: string): PayloadCheck {
  if (payload.length > PAYLOAD_MAX) {
    return { ok: false, message: `Content must be at most ${PAYLOAD_MAX} characters` };
  }
  const result = contentFieldsSchema(type).safeParse(decodeContent(type, payload));
  if (result.success) return { ok: true, fields: result.data };
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  return {
    ok: false,
    message: issue?.message ?? 'Content is invalid',
    ...(typeof field === 'string' ? { field } : {}),
  };
}

const SUMMARY_MAX = 80;

function oneLine(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > SUMMARY_MAX ? `${chars.slice(0, SUMMARY_MAX - 1).join('')}…` : flat;
}

function joinParts(...parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join(' — ');
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

/** A one-line summary for lists, e.g. 'Wi-Fi: MyNet (WPA)', 'Email: a@b.c — Hello'. */
export function describeContent(type: string, payload: string): string {
  const t = normalizeQrType(type);
  const f = decodeContent(t, payload);
  const get = (name: string) => f[name] ?? '';
  let summary: string;
  switch (t) {
    case 'text':
      summary = get('text');
      break;
    case 'email':
      summary = joinParts(get('email'), get('subject'));
      break;
    case 'sms':
      summary = joinParts(get('phone'), get('message'));
      break;
    case 'wifi': {
      const encryption = get('encryption');
      summary = `${get('ssid')} (${encryption === 'nopass' ? 'open' : encryption})`;
      break;
    }
    case 'vcard': {
      const name = [get('firstName'), get('lastName')].filter(Boolean).join(' ');
      summary = get('organization') ? `${name} (${get('organization')})` : name;
      break;
    }
    case 'event':
      summary = joinParts(
        get('title'),
        get('startDate') ? formatWhen(get('startDate'), get('timeZone')) : '',
      );
      break;
    case 'phone':
      summary = get('phone');
      break;
    default:
      summary = get('url');
  }
  return `${qrTypeLabels[t]}: ${oneLine(summary) || '(empty)'}`;
}
