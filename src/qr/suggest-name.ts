import { withHttps } from './bare-url';
import { normalizeQrType } from './qr-types';
import { QR_NAME_MAX } from './qr.schema';

/** A name taken from free text keeps about this many characters, then '…' ('Free coffee on Fridays…'). */
export const TEXT_NAME_MAX = 40;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** One line, single spaces, no control characters. */
function oneLine(value: string | undefined): string {
  return (value ?? '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * At most `limit` UTF-16 units (what the name schema counts), '…' included when shortened: cut at the last
 * space when there is one in the second half (trailing punctuation dropped), never inside a surrogate pair.
 */
function shorten(value: string, limit: number): string {
  if (value.length <= limit) return value;
  let cut = limit - 1;
  const space = value.lastIndexOf(' ', cut);
  if (space >= limit / 2) cut = space;
  else if (/[\uD800-\uDBFF]/.test(value.charAt(cut - 1))) cut -= 1;
  return `${value.slice(0, cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

/**
 * The host of an http(s) URL as typed (a bare `example.com/menu` too), lower-case, without `www.`, user
 * info or port; Unicode hosts stay Unicode. Null when the value is not such a URL.
 */
function hostOf(value: string): string | null {
  const typed = withHttps(value.trim());
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  // Read the host from the text itself: URL would answer an IDN host as punycode (xn--…).
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\\]*)/i.exec(typed)?.[1] ?? '';
  let host = authority.slice(authority.lastIndexOf('@') + 1);
  if (!host.startsWith('[')) host = host.replace(/:\d*$/, '');
  host = host.replace(/\.$/, '').toLowerCase();
  if (host === '' || /\s/.test(host)) host = url.hostname;
  const bare = host.replace(/^www\./, '');
  return bare === '' ? null : bare;
}

/** The first line of a text with something in it. */
function firstLine(text: string | undefined): string {
  return (
    (text ?? '')
      .split(/\r\n|\r|\n|\u2028|\u2029/)
      .map(oneLine)
      .find((line) => line !== '') ?? ''
  );
}

function suggestion(type: string, f: Record<string, string | undefined>): string {
  const field = (name: string) => oneLine(f[name]);
  switch (normalizeQrType(type)) {
    case 'url':
    case 'social':
    case 'pdf':
    case 'video':
    case 'image':
      return field('title') || (hostOf(f.url ?? '') ?? '');
    case 'email':
      return field('email') || field('subject');
    case 'text':
      return shorten(firstLine(f.text), TEXT_NAME_MAX + 1);
    case 'sms':
    case 'phone':
      return field('phone');
    case 'wifi':
      return field('ssid') && `Wi-Fi ${field('ssid')}`;
    case 'vcard':
      return [field('firstName'), field('lastName')].filter(Boolean).join(' ') || field('organization');
    case 'event':
      return field('title');
  }
}

/**
 * A short name for a new code, taken from its content (the designer's form fields, see `contentFields`):
 * url, social, pdf, video and image → the title if given, else the URL's host without `www.` ('example.com'
 * for `https://www.example.com/menu` or a bare `example.com/menu`); email → the address, else the subject;
 * text → its first line, shortened to its first words (40 characters at most, then '…'); sms and phone → the
 * number; wifi → 'Wi-Fi <SSID>'; vcard → first and last name, else the organization; event → the
 * title. One line, at most `QR_NAME_MAX` characters. Null when the content gives nothing usable (blank
 * fields, a URL that is not http(s)). Unknown type → url.
 */
export function suggestQrName(type: string, fields: Record<string, string | undefined>): string | null {
  const name = shorten(suggestion(type, fields), QR_NAME_MAX);
  return name === '' ? null : name;
}
