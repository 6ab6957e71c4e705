/**
 * The actions a scanned payload offers, built once for both places that show them: the landing page of a
 * dynamic code (server) and the scan simulator (client). tel:, sms: and mailto: hrefs from a fixed scheme and
 * normalised values, the phone numbers a text mentions, and an event's date range in words.
 *
 * Isomorphic: plain string and `Intl` work, no Node or DOM API. Every href returned here is built from one of
 * the schemes above, never from a scheme the payload chose (except a stored `mailto:` payload, which already
 * is one, and only when it has nothing an attribute or a mail client would choke on).
 */
import { encodeContent, type ContentFields } from './content';
import { canonicalTimeZone, timeZoneOffset } from './dates';
import { isEmailAddress, isPhoneNumber } from './field-checks';
import { percentEncode } from './text';

// ---------------------------------------------------------------------------------------------------------
// Phone numbers

const KEYPAD: Record<string, string> = {};
for (const [digit, letters] of Object.entries({
  2: 'abc',
  3: 'def',
  4: 'ghi',
  5: 'jkl',
  6: 'mno',
  7: 'pqrs',
  8: 'tuv',
  9: 'wxyz',
}))
  for (const letter of letters) KEYPAD[letter] = digit;

const EXTENSION = /^(.*\d.*?)\s*(?:;\s*ext=|ext\.?|extension|x)\s*(\d+)$/i;

export interface DialableNumber {
  /** `+`, digits, `*`, `%23` (for `#`) and `,` pauses: ready for a tel: or sms: href. */
  number: string;
  /** The extension's digits, or ''. */
  extension: string;
}

/**
 * A phone number as a dialler reads it: leading `+`, digits (vanity letters as their keypad digit), `*`, `#`
 * (as %23), `,` pauses; an extension ('ext. 89', 'x89', ';ext=89') apart. Null when it is not phone-like
 * or has no digit.
 */
export function dialable(phone: string): DialableNumber | null {
  const value = phone.trim();
  if (!isPhoneNumber(value)) return null;
  const ext = EXTENSION.exec(value);
  const main = ext ? ext[1]! : value;
  let number = main.startsWith('+') ? '+' : '';
  for (const c of main.toLowerCase()) {
    if (/\d/.test(c) || c === '*' || c === ',') number += c;
    else if (c === '#') number += '%23';
    else if (KEYPAD[c]) number += KEYPAD[c];
  }
  return /\d/.test(number) ? { number, extension: ext ? ext[2]! : '' } : null;
}

/** `tel:<number>` with `;ext=<digits>` when the number has an extension; null when it is not dialable. */
export function telLink(phone: string): string | null {
  const d = dialable(phone);
  return d ? `tel:${d.number}${d.extension ? `;ext=${d.extension}` : ''}` : null;
}

/**
 * `sms:<number>?&body=<percent-encoded>`: the form both iOS and Android accept (the `&` keeps older iOS
 * from reading the body as part of the number); without a message no body. Null when the number is not
 * dialable.
 */
export function smsLink(phone: string, message: string): string | null {
  const d = dialable(phone);
  if (!d) return null;
  return message === '' ? `sms:${d.number}` : `sms:${d.number}?&body=${percentEncode(message)}`;
}

// ---------------------------------------------------------------------------------------------------------
// E-mail

/** `mailto:<address>` for a valid address (as a contact's e-mail links), else null. */
export function mailtoLink(address: string): string | null {
  return isEmailAddress(address.trim()) ? encodeContent('email', { email: address.trim() }) : null;
}

/**
 * 'Send email' of an e-mail payload: the stored `mailto:` when it is one and has no whitespace, quote,
 * angle bracket, backtick, backslash or control character; otherwise one built from the decoded fields
 * (a `MATMSG:` or bare address payload).
 */
export function emailLink(content: string, fields: ContentFields): string {
  const trimmed = content.trim();
  // eslint-disable-next-line no-control-regex
  if (/^mailto:/i.test(trimmed) && !/[\s"'<>`\\\u0000-\u001f\u007f]/.test(trimmed)) return trimmed;
  return encodeContent('email', fields);
}

// ---------------------------------------------------------------------------------------------------------
// Phone numbers in a text

/** An http(s) URL in free text (trailing punctuation included: trim it before use). */
export const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/gi;
const PHONE_IN_TEXT = /(?<![\w@+.-])[+(]?\d[\d ().-]{5,22}\d(?![\w@])/g;

/** The most numbers a text offers to call. */
const MAX_PHONES_IN_TEXT = 3;

function plausiblePhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  if (digits < 7 || digits > 15) return false;
  // Dates and decimals are not numbers to call.
  if (/^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$|^\d+\.\d+$/.test(candidate))
    return false;
  // Parentheses only as a balanced group, as in '(555) 123-4567'.
  if (!/^[^()]*(?:\([^()]*\)[^()]*)?$/.test(candidate)) return false;
  return /^[+(]/.test(candidate) || /[ ().-]/.test(candidate) || digits >= 10;
}

export interface PhoneInText {
  /** The number as the text writes it. */
  label: string;
  /** Its tel: href. */
  href: string;
}

/**
 * Up to three distinct phone numbers in a text (outside its URLs, not inside a word, an e-mail address or a
 * longer number; not a date or a decimal), as written and as a tel: href.
 */
export function phoneNumbersIn(text: string): PhoneInText[] {
  const withoutUrls = text.replace(URL_IN_TEXT, (m) => ' '.repeat(m.length));
  const found: PhoneInText[] = [];
  for (const match of withoutUrls.matchAll(PHONE_IN_TEXT)) {
    const label = match[0].trim();
    const href = plausiblePhone(label) ? telLink(label) : null;
    if (href && !found.some((f) => f.href === href)) found.push({ label, href });
    if (found.length === MAX_PHONES_IN_TEXT) break;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------------
// Event dates

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z$/;

function parseUtc(value: string): Date | null {
  if (!ISO_UTC.test(value.trim())) return null;
  const date = new Date(value.trim());
  return Number.isFinite(date.getTime()) ? date : null;
}

const two = (n: number) => String(n).padStart(2, '0');

function dayOf(d: Date): string {
  return `${WEEKDAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

function timeOf(d: Date): string {
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/** The instant moved by the zone's offset then, so that its UTC fields read as the wall clock there. */
function wallClock(instant: Date | null, timeZone: string | null): Date | null {
  if (!instant || !timeZone) return instant;
  return new Date(instant.getTime() + (timeZoneOffset(instant, timeZone) ?? 0));
}

/** How a page other than the English one writes an event's dates (the short link's pages, by the scanner's language). */
export interface EventRangeWords {
  /** A BCP 47 tag: days and times as `Intl` writes them there. */
  locale: string;
  /** 'Until <end>' in that language. */
  until: (end: string) => string;
}

/** Day and time together as a locale writes them (UTC fields: the instants are already moved to the wall clock). */
const localDateTime = (locale: string) =>
  new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  });

/**
 * 'Thu, 24 Dec 2026, 18:00 – 21:00 UTC', or in the event's own IANA zone 'Thu, 24 Dec 2026, 19:00 – 22:00
 * (Europe/Berlin)'; the end's day is named when it differs. UTC when the zone is blank or unknown.
 * Unreadable dates as given; '' without either date. The same words whatever the viewer's locale, unless
 * `words` names one (the short link's pages in the scanner's language: 'Do., 24. Dez. 2026, 19:00 …').
 */
export function formatEventRange(
  startIso: string,
  endIso: string,
  timeZone = '',
  words?: EventRangeWords,
): string {
  const zone = timeZone.trim() === '' ? null : canonicalTimeZone(timeZone);
  const suffix = zone === null || zone === 'UTC' ? ' UTC' : ` (${zone.replace(/_/g, ' ')})`;
  const start = wallClock(parseUtc(startIso), zone);
  const end = wallClock(parseUtc(endIso), zone);
  if (words) {
    // The locale's own way with a range: one day named once, its separator, its hour words.
    const format = localDateTime(words.locale);
    if (!start) {
      if (end && !startIso.trim()) return words.until(`${format.format(end)}${suffix}`);
      return [startIso.trim(), endIso.trim()].filter(Boolean).join(' – ');
    }
    if (!end) return `${format.format(start)}${suffix}${endIso.trim() ? ` – ${endIso.trim()}` : ''}`;
    return `${format.formatRange(start, end)}${suffix}`;
  }
  if (!start) {
    const parts = [startIso.trim(), endIso.trim()].filter(Boolean);
    if (end && !startIso.trim()) return `Until ${dayOf(end)}, ${timeOf(end)}${suffix}`;
    return parts.join(' – ');
  }
  const from = `${dayOf(start)}, ${timeOf(start)}`;
  if (!end) return endIso.trim() ? `${from}${suffix} – ${endIso.trim()}` : `${from}${suffix}`;
  if (end.getTime() === start.getTime()) return `${from}${suffix}`;
  const sameDay = dayOf(start) === dayOf(end);
  return `${from} – ${sameDay ? '' : `${dayOf(end)}, `}${timeOf(end)}${suffix}`;
}
