// Pure helpers of the scan demo: the ID check, the phone number a text mentions, and the hrefs of the
// action buttons (tel:, sms:, mailto:). Every href is built from a fixed scheme, never from a scheme the
// scanned content chose, except a `mailto:` payload, which already is one.
import { encodeContent, type ContentFields } from '../../../src/qr/content';

/** The largest id the server accepts (a 32-bit integer). */
const MAX_ID = 2_147_483_647;

export const INVALID_ID_MESSAGE = 'Please enter a valid QR code ID';

/** A QR code ID as typed (digits only, surrounding spaces allowed) → the number, or null. */
export function parseQrId(value: string): number | null {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const id = Number(trimmed);
  return Number.isSafeInteger(id) && id > 0 && id <= MAX_ID ? id : null;
}

/**
 * A phone-like run in free text: 7 to 15 digits with spaces, dots, dashes, slashes or brackets between
 * them, optionally after `+` or `tel:`. Not inside a word, a link, an e-mail address or a longer number,
 * and not an ISO date.
 */
const PHONE_IN_TEXT =
  /(?<![\w@/=?&#%.:+-])(?:tel:)?(\+?\(?\d(?:[ \t().\-/]?\d|[ \t]?[().\-/][ \t]?\d)+)(?![\w@%])/gi;

export function findPhoneNumber(text: string): string | null {
  for (const match of text.matchAll(PHONE_IN_TEXT)) {
    const candidate = match[1] ?? '';
    const digits = candidate.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    if (/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/.test(candidate)) continue;
    if (/^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$/.test(candidate)) continue;
    return candidate;
  }
  return null;
}

/** The dialable part of a number: digits, `+`, `*`, `#`, pause characters and vanity letters. */
function dialable(phone: string): string {
  return phone.replace(/[^0-9A-Za-z+*#,;]/g, '');
}

export function telHref(phone: string): string | null {
  const number = dialable(phone);
  return /\d/.test(number) ? `tel:${number}` : null;
}

/** RFC 5724: `sms:+15551234567?body=…`. */
export function smsHref(phone: string, message: string): string | null {
  const number = dialable(phone);
  if (!/\d/.test(number)) return null;
  return message ? `sms:${number}?body=${encodeURIComponent(message)}` : `sms:${number}`;
}

/**
 * The payload itself when it is a `mailto:` link (as this app stores e-mail codes); otherwise one built from
 * the decoded fields (a `MATMSG:` or bare address payload). Null without an address.
 */
export function mailtoHref(content: string, fields: ContentFields): string | null {
  if (!fields.email?.trim()) return null;
  const payload = content.trim();
  // eslint-disable-next-line no-control-regex
  if (/^mailto:/i.test(payload) && !/[\s\u0000-\u001f\u007f]/.test(payload)) return payload;
  return encodeContent('email', fields);
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function readDate(value: string): Date | null {
  if (!DATE_TIME.test(value)) return null;
  const date = new Date(value);
  return Number.isFinite(date.getTime()) ? date : null;
}

/**
 * 'Dec 24, 2026, 6:00 PM – 8:00 PM' in the viewer's locale and time zone. Dates the decoder could not
 * read are shown as they are. Empty when there is no start.
 */
export function formatEventRange(
  startDate: string,
  endDate: string,
  locale?: string,
  timeZone?: string,
): string {
  const start = readDate(startDate);
  const end = readDate(endDate);
  const zone = timeZone?.trim() || undefined;
  let format: Intl.DateTimeFormat;
  try {
    // In the event's own zone, named, when the code carries one (as its landing page shows it).
    format = new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
      ...(zone ? { timeZone: zone } : {}),
    });
  } catch {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  }
  const named = (text: string) => (zone && text ? `${text} (${zone.replace(/_/g, ' ')})` : text);
  const startText = start ? format.format(start) : startDate.trim();
  if (!endDate.trim()) return named(startText);
  if (start && end && end.getTime() >= start.getTime()) return named(format.formatRange(start, end));
  const endText = end ? format.format(end) : endDate.trim();
  return named(startText ? `${startText} – ${endText}` : endText);
}
