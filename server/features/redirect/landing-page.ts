import { createHash } from 'node:crypto';
import { contentFields, wifiEncryptionOptions } from '../../../src/qr/content-fields.js';
import {
  canonicalTimeZone,
  decodeContent,
  encodeContent,
  isEmailAddress,
  isHttpUrl,
  isPhoneNumber,
  timeZoneOffset,
  type ContentFields,
} from '../../../src/qr/content.js';
import { normalizeQrType, type QrType } from '../../../src/qr/qr-types.js';

/**
 * The pages a dynamic code's public short link `/r/<slug>` shows for the types that do not redirect (text,
 * email, sms, phone, wifi, vcard, event; anything else as plain text), the 404 page, and the `.vcf` / `.ics`
 * files behind 'Save contact' and 'Add to calendar'. Pure functions: the route sends what they return.
 *
 * Each page heads with its content — the person, the network, the event, the number or address — and so does
 * its title: never with the code's name, which is the owner's own label and may say 'VCARD QR Code'.
 *
 * Safety: every value that comes from the user (every field) is HTML-escaped, and every href
 * is built here from a checked scheme (http(s): after `isHttpUrl`, mailto:, sms:, tel: from normalised
 * digits, or the page's own `/r/<slug>/…` paths), then escaped for a double-quoted attribute.
 * The only script is the Wi-Fi page's 'Copy password' helper; it carries the CSP nonce given in the options
 * (so does the inline style), and reads the password from the page, never from its own source.
 */

export interface LandingPageInput {
  type: QrType;
  /** The stored payload (see `encodeContent`). */
  content: string;
  /** The code's name, the owner's label: never shown (the page heads with the content). */
  name?: string;
  /** The short link's slug, for the `/r/<slug>/contact.vcf` and `/r/<slug>/event.ics` links. */
  slug: string;
}

export interface PageOptions {
  /**
   * The CSP nonce of this response (base64 / base64url). Put on the inline `<style>` and on the Wi-Fi page's
   * script, so a policy such as `script-src 'nonce-…'; style-src 'nonce-…'` allows exactly those.
   * Without one the tags carry no nonce (fine when the response sends no CSP).
   */
  nonce?: string;
}

export interface DownloadFile {
  body: string;
  /** Safe ASCII: `[a-z0-9-]+` and the extension, e.g. `ada-lovelace.vcf`. */
  filename: string;
}

export interface CalendarFileOptions {
  /** The code's slug: the event's UID is derived from it (stable across edits); otherwise from a content hash. */
  slug?: string;
  /** The DTSTAMP instant (default: now). */
  now?: Date;
}

// ---------------------------------------------------------------------------------------------------------
// Escaping and hrefs

const TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};

/** Text content: `& < > " ' \` =` as character references (`=` too, so no `onerror=` survives even as text). */
function esc(value: string): string {
  return value.replace(/[&<>"'`=]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

/** A value inside a double-quoted attribute (hrefs keep their `=` readable). */
function attr(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** encodeURIComponent throws on a lone surrogate. */
function percentEncode(value: string): string {
  return encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD'));
}

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

/**
 * A phone number as a dialler reads it: leading `+`, digits (vanity letters as their keypad digit), `*`, `#`
 * (as %23), `,` pauses; an extension apart. Null when it is not phone-like or has no digit.
 */
function dialable(phone: string): { number: string; extension: string } | null {
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

function telHref(phone: string): string | null {
  const d = dialable(phone);
  return d ? `tel:${d.number}${d.extension ? `;ext=${d.extension}` : ''}` : null;
}

/** `sms:<phone>?&body=<percent-encoded>`: the form both iOS and Android accept. */
function smsHref(phone: string, message: string): string | null {
  const d = dialable(phone);
  if (!d) return null;
  return message === '' ? `sms:${d.number}` : `sms:${d.number}?&body=${percentEncode(message)}`;
}

function mailtoHref(address: string): string | null {
  return isEmailAddress(address.trim()) ? encodeContent('email', { email: address.trim() }) : null;
}

/** The stored mailto: when it is one and has nothing an attribute or a mail client would choke on. */
function emailHref(content: string, fields: ContentFields): string {
  const trimmed = content.trim();
  // eslint-disable-next-line no-control-regex
  if (/^mailto:/i.test(trimmed) && !/[\s"'<>`\\\u0000-\u001f\u007f]/.test(trimmed)) return trimmed;
  return encodeContent('email', fields);
}

function link(href: string, text: string, external = false): string {
  return `<a href="${attr(href)}"${external ? ' rel="noopener nofollow ugc"' : ''}>${esc(text)}</a>`;
}

function button(href: string, text: string, secondary = false): string {
  return `<a class="b${secondary ? ' b2' : ''}" href="${attr(href)}">${esc(text)}</a>`;
}

/** `/r/<slug>/<file>`, the slug percent-encoded. */
function ownPath(slug: string, file: string): string {
  return `/r/${percentEncode(slug)}/${file}`;
}

// ---------------------------------------------------------------------------------------------------------
// Text: links and phone numbers

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/gi;
const PHONE_IN_TEXT = /(?<![\w@+.-])[+(]?\d[\d ().-]{5,22}\d(?![\w@])/g;

/** Trailing punctuation belongs to the sentence, and a `)` to the URL only when it closes one of its own. */
function trimUrl(url: string): string {
  let u = url;
  for (;;) {
    if (/[.,;:!?'"\]}]$/.test(u)) u = u.slice(0, -1);
    else if (u.endsWith(')') && u.split('(').length < u.split(')').length) u = u.slice(0, -1);
    else return u;
  }
}

/** Escaped text with its http(s) URLs as links. `javascript:` and every other scheme stay text. */
function linkify(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const start = match.index;
    if (start < last) continue;
    const url = trimUrl(match[0]);
    html += esc(text.slice(last, start));
    html += isHttpUrl(url) ? link(url, url, true) : esc(url);
    last = start + url.length;
  }
  return html + esc(text.slice(last));
}

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

/** Up to three distinct phone numbers in a text (outside its URLs), as written and as a tel: href. */
function phonesIn(text: string): { label: string; href: string }[] {
  const withoutUrls = text.replace(URL_IN_TEXT, (m) => ' '.repeat(m.length));
  const found: { label: string; href: string }[] = [];
  for (const match of withoutUrls.matchAll(PHONE_IN_TEXT)) {
    const label = match[0].trim();
    const href = plausiblePhone(label) ? telHref(label) : null;
    if (href && !found.some((f) => f.href === href)) found.push({ label, href });
    if (found.length === 3) break;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------------
// Dates

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

/**
 * 'Thu, 24 Dec 2026, 18:00 – 21:00 UTC', or in the event's own IANA zone 'Thu, 24 Dec 2026, 19:00 – 22:00
 * (Europe/Berlin)'; the end's day is named when it differs. UTC when the zone is blank or unknown.
 * Unreadable dates as given.
 */
export function formatEventRange(startIso: string, endIso: string, timeZone = ''): string {
  const zone = timeZone.trim() === '' ? null : canonicalTimeZone(timeZone);
  const suffix = zone === null || zone === 'UTC' ? ' UTC' : ` (${zone.replace(/_/g, ' ')})`;
  const start = wallClock(parseUtc(startIso), zone);
  const end = wallClock(parseUtc(endIso), zone);
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

// ---------------------------------------------------------------------------------------------------------
// Page shell

const CSS =
  ':root{color-scheme:light dark;--bg:#f3f4f6;--fg:#16181d;--mu:#5c6270;--cd:#fff;--bd:#dde1e6;--ac:#1864ab;--af:#fff}' +
  '@media(prefers-color-scheme:dark){:root{--bg:#121316;--fg:#e8eaed;--mu:#a0a6b1;--cd:#1d1f24;--bd:#343841;--ac:#74b9f7;--af:#0b1726}}' +
  '*{box-sizing:border-box}[hidden]{display:none!important}' +
  'body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;-webkit-text-size-adjust:100%}' +
  'main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem 1rem}' +
  '.k{margin:0;color:var(--mu);font-size:.8rem;font-weight:600;text-transform:uppercase;letter-spacing:.06em}' +
  'h1{margin:.2rem 0 1rem;font-size:1.5rem;line-height:1.25}h2{margin:0 0 .5rem;font-size:1.2rem;line-height:1.3}' +
  'h1,h2,dd,.t{overflow-wrap:anywhere}' +
  '.c{background:var(--cd);border:1px solid var(--bd);border-radius:12px;padding:1rem}' +
  'dl{margin:0}dt{color:var(--mu);font-size:.85rem}dd{margin:0 0 .75rem}dd:last-child{margin:0}' +
  '.t{margin:0;white-space:pre-wrap}.s{margin:-.25rem 0 .75rem;color:var(--mu)}' +
  '.p{font:1.1rem/1.4 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap}' +
  'a{color:var(--ac)}' +
  '.b{display:flex;align-items:center;justify-content:center;width:100%;min-height:3rem;margin-top:.75rem;padding:.7rem 1rem;' +
  'border:1px solid var(--ac);border-radius:10px;background:var(--ac);color:var(--af);font:inherit;font-weight:600;text-decoration:none;cursor:pointer}' +
  '.b2{background:none;color:var(--ac)}' +
  '.h{margin-top:1.25rem}.h h2{font-size:1rem}.h ol{margin:0;padding-left:1.25rem}' +
  'footer{padding:1.5rem 1rem;text-align:center;color:var(--mu);font-size:.8rem}';

const NONCE = /^[A-Za-z0-9+/_-]+={0,2}$/;

function nonceAttr(options: PageOptions): string {
  if (options.nonce === undefined) return '';
  if (!NONCE.test(options.nonce)) throw new TypeError('The CSP nonce must be base64 or base64url');
  return ` nonce="${attr(options.nonce)}"`;
}

interface Page {
  title: string;
  kicker: string;
  body: string;
  script?: string;
}

function renderPage(page: Page, options: PageOptions): string {
  const nonce = nonceAttr(options);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">' +
    '<meta name="color-scheme" content="light dark">' +
    `<title>${esc(page.title)}</title><style${nonce}>${CSS}</style></head><body><main>` +
    (page.kicker ? `<p class="k">${esc(page.kicker)}</p>` : '') +
    `<h1>${esc(page.title)}</h1>${page.body}</main><footer>Made with QR Creator</footer>` +
    (page.script ? `<script${nonce}>${page.script}</script>` : '') +
    '</body></html>'
  );
}

function label(type: QrType, name: string): string {
  return contentFields[type].find((f) => f.name === name)?.label ?? name;
}

/** `<dt>/<dd>` pairs of the non-empty values; `html` values are already markup. */
function details(rows: [string, string, 'text' | 'multiline' | 'html'][]): string {
  const items = rows
    .filter(([, value]) => value.trim() !== '')
    .map(([dt, value, kind]) => {
      const dd =
        kind === 'html' ? value : kind === 'multiline' ? `<span class="t">${esc(value)}</span>` : esc(value);
      return `<dt>${esc(dt)}</dt><dd>${dd}</dd>`;
    });
  return items.length > 0 ? `<dl>${items.join('')}</dl>` : '';
}

const card = (inner: string) => `<div class="c">${inner}</div>`;

// ---------------------------------------------------------------------------------------------------------
// Per type

/** Reads the password from the page (never from this source) and copies it; falls back to selecting it. */
const COPY_SCRIPT =
  "(function(){var b=document.getElementById('cp'),p=document.getElementById('pw');if(!b||!p)return;" +
  'b.hidden=false;function done(){b.textContent="Copied";setTimeout(function(){b.textContent="Copy password"},2000)}' +
  'function select(){var r=document.createRange(),s=window.getSelection();r.selectNodeContents(p);s.removeAllRanges();s.addRange(r);' +
  "try{if(document.execCommand('copy'))done()}catch(e){}}" +
  'b.onclick=function(){if(navigator.clipboard&&window.isSecureContext)navigator.clipboard.writeText(p.textContent).then(done,select);else select()}})()';

interface Body {
  kicker: string;
  /** The page's heading and title, from the content. */
  heading: string;
  body: string;
  script?: string;
}

/** The longest first line of a text that is taken as its heading. */
const TEXT_HEADING_MAX = 80;

/**
 * A text whose first line is short and followed by more heads with that line (the body shows the rest);
 * any other text heads with 'Message'. A line with a link stays in the body, where it is one.
 */
function textBody(text: string): Body {
  const calls = phonesIn(text)
    .map((p, i) => button(p.href, `Call ${p.label}`, i > 0))
    .join('');
  const lines = text.split(/\r\n|\r|\n/);
  const at = lines.findIndex((line) => line.trim() !== '');
  const first = (lines[at] ?? '').trim();
  const after = lines.slice(at + 1);
  const rest = after
    .slice(after.findIndex((line) => line.trim() !== ''))
    .join('\n')
    .trimEnd();
  const useFirst =
    first !== '' &&
    rest.trim() !== '' &&
    Array.from(first).length <= TEXT_HEADING_MAX &&
    !new RegExp(URL_IN_TEXT.source, 'i').test(first);
  const shown = useFirst ? rest : text;
  return {
    kicker: 'Text',
    heading: useFirst ? first : 'Message',
    body: card(`<p class="t">${linkify(shown)}</p>`) + calls,
  };
}

function emailBody(content: string, f: ContentFields): Body {
  const get = (k: string) => f[k] ?? '';
  const address = get('email').trim();
  return {
    kicker: 'Email',
    heading: address || 'Email',
    body:
      card(
        details([
          [label('email', 'subject'), get('subject'), 'text'],
          [label('email', 'body'), get('body'), 'multiline'],
        ]),
      ) + button(emailHref(content, f), 'Send email'),
  };
}

/** A card only when there is something in it. */
const cardOf = (inner: string) => (inner === '' ? '' : card(inner));

function smsBody(f: ContentFields): Body {
  const phone = f.phone ?? '';
  const message = f.message ?? '';
  const sms = smsHref(phone, message);
  const tel = telHref(phone);
  return {
    kicker: 'SMS',
    heading: phone.trim() || 'SMS',
    body:
      cardOf(details([[label('sms', 'message'), message, 'multiline']])) +
      (sms ? button(sms, 'Send SMS') : '') +
      (tel ? button(tel, 'Call', true) : ''),
  };
}

function phoneBody(f: ContentFields): Body {
  const phone = f.phone ?? '';
  const tel = telHref(phone);
  return { kicker: 'Phone', heading: phone.trim() || 'Phone', body: tel ? button(tel, 'Call') : '' };
}

function wifiBody(f: ContentFields): Body {
  const ssid = f.ssid ?? '';
  const open = f.encryption === 'nopass';
  const password = open ? '' : (f.password ?? '');
  const security = open
    ? 'None (open network)'
    : (wifiEncryptionOptions.find((o) => o.value === f.encryption)?.label ?? f.encryption ?? '');
  const passwordHtml =
    password === ''
      ? esc(open ? 'Not needed: the network is open' : 'No password given')
      : `<span class="p" id="pw">${esc(password)}</span>`;
  const steps = [
    'Open the Wi-Fi settings of your phone or computer.',
    `Pick the network “${ssid}”.`,
    open
      ? 'It is an open network: no password is needed.'
      : password === ''
        ? 'Enter the password if asked (ask the owner of the network).'
        : 'Enter the password shown above (Copy password, then paste it).',
  ];
  return {
    kicker: 'Wi-Fi network',
    heading: ssid.trim() || 'Wi-Fi network',
    body:
      card(
        details([
          [label('wifi', 'encryption'), security, 'text'],
          [label('wifi', 'password'), passwordHtml, 'html'],
        ]),
      ) +
      (password === '' ? '' : '<button class="b" type="button" id="cp" hidden>Copy password</button>') +
      `<div class="h"><h2>How to connect</h2><ol>${steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol></div>`,
    ...(password === '' ? {} : { script: COPY_SCRIPT }),
  };
}

function vcardBody(f: ContentFields, slug: string): Body {
  const get = (k: string) => (f[k] ?? '').trim();
  const fullName = [get('firstName'), get('lastName')].filter(Boolean).join(' ');
  // Without a name the organization is the heading, so the role line does not repeat it.
  const role = [get('title'), fullName ? get('organization') : ''].filter(Boolean).join(' · ');
  const tel = telHref(get('phone'));
  const mailto = mailtoHref(get('email'));
  const website = get('website');
  return {
    kicker: 'Contact',
    heading: fullName || get('organization') || 'Contact',
    body:
      card(
        (role ? `<p class="s">${esc(role)}</p>` : '') +
          details([
            [label('vcard', 'phone'), tel ? link(tel, get('phone')) : esc(get('phone')), 'html'],
            [label('vcard', 'email'), mailto ? link(mailto, get('email')) : esc(get('email')), 'html'],
            [
              label('vcard', 'website'),
              isHttpUrl(website) ? link(website, website, true) : esc(website),
              'html',
            ],
          ]),
      ) + button(ownPath(slug, 'contact.vcf'), 'Save contact'),
  };
}

function eventBody(f: ContentFields, slug: string): Body {
  const get = (k: string) => f[k] ?? '';
  return {
    kicker: 'Event',
    heading: get('title').trim() || 'Event',
    body:
      cardOf(
        details([
          ['When', formatEventRange(get('startDate'), get('endDate'), get('timeZone')), 'text'],
          [label('event', 'location'), get('location'), 'text'],
          [label('event', 'description'), get('description'), 'multiline'],
        ]),
      ) + button(ownPath(slug, 'event.ics'), 'Add to calendar'),
  };
}

function typeBody(type: QrType, content: string, slug: string): Body {
  const fields = decodeContent(type, content);
  switch (type) {
    case 'text':
      return textBody(content);
    case 'email':
      return emailBody(content, fields);
    case 'sms':
      return smsBody(fields);
    case 'phone':
      return phoneBody(fields);
    case 'wifi':
      return wifiBody(fields);
    case 'vcard':
      return vcardBody(fields, slug);
    case 'event':
      return eventBody(fields, slug);
    default:
      return { kicker: '', heading: 'QR code', body: card(`<p class="t">${esc(content)}</p>`) };
  }
}

/**
 * The landing page of a code whose type does not redirect: a small HTML5 document (inline CSS, light and
 * dark, noindex) headed and titled with its content — the contact's name (else organization), the Wi-Fi
 * network's SSID, the event's title, the phone number, the e-mail address, the SMS recipient, a text's short
 * first line (else 'Message') — never with the code's name; then the content and its action (Call, Send
 * email, Send SMS, Copy password, Save contact, Add to calendar). Event times are shown in the event's time
 * zone (X-WR-TIMEZONE), named, or in UTC. Throws a TypeError only for a malformed `options.nonce`.
 */
export function renderLandingPage(input: LandingPageInput, options: PageOptions = {}): string {
  const type = normalizeQrType(input.type);
  const { kicker, heading, body, script } = typeBody(type, input.content, input.slug);
  return renderPage({ title: heading, kicker, body, ...(script ? { script } : {}) }, options);
}

/** The 404 page of a short link that leads nowhere (unknown slug, deleted or static code). */
export function renderNotFoundPage(options: PageOptions = {}): string {
  return renderPage(
    {
      title: 'This QR code is not active',
      kicker: '',
      body: card('<p class="t">The link may be mistyped, or the code was deleted by its owner.</p>'),
    },
    options,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Files

const LINE_BREAK = /\r\n|\r|\n/;

function physicalLines(text: string): string[] {
  return text.split(LINE_BREAK).filter((line) => line.trim() !== '');
}

/** RFC 2426 / 5545 folding: at most 75 octets a line, never inside a character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = 75;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    if (octets + size > limit && current !== '') {
      parts.push(current);
      current = '';
      octets = 0;
      limit = 74; // after the leading space
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

function contentText(lines: string[]): string {
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** Lower-case ASCII words joined by '-', at most 60 characters; the fallback when nothing is left. */
function fileStem(value: string, fallback: string): string {
  const stem = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return stem || fallback;
}

function propertyName(line: string): string {
  const match = /^([^:;]*)/.exec(line);
  const name = match?.[1] ?? '';
  return name
    .slice(name.lastIndexOf('.') + 1)
    .trim()
    .toUpperCase();
}

function propertyValue(line: string): string {
  const colon = line.indexOf(':');
  return colon < 0
    ? ''
    : line
        .slice(colon + 1)
        .trim()
        .toUpperCase();
}

const isBegin = (line: string, component: string) =>
  propertyName(line) === 'BEGIN' && propertyValue(line) === component;

/**
 * The contact's `.vcf`: the stored vCard with CRLF line ends and folded lines (a payload that is not a vCard,
 * such as a MECARD, is rewritten as vCard 3.0). The file is named after the contact, e.g. `ada-lovelace.vcf`.
 */
export function contactFile(content: string): DownloadFile {
  let lines = physicalLines(content);
  if (!lines.some((line) => isBegin(line, 'VCARD'))) {
    lines = physicalLines(encodeContent('vcard', decodeContent('vcard', content)));
  }
  const body = contentText(lines);
  const f = decodeContent('vcard', body);
  const name = [f.firstName ?? '', f.lastName ?? ''].join(' ');
  return { body, filename: `${fileStem(name, 'contact')}.vcf` };
}

/** `YYYYMMDDTHHMMSSZ`. */
function compactUtc(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
}

const PRODID = 'PRODID:-//QR Creator//Landing page//EN';

/**
 * The event's `.ics`: the stored VCALENDAR/VEVENT (a bare VEVENT is wrapped; anything else is rebuilt from
 * its decoded fields) with what calendar apps require: VERSION:2.0, PRODID and METHOD:PUBLISH on the calendar,
 * UID and DTSTAMP on each event that lacks them. CRLF line ends, folded lines. Named after the event's title,
 * e.g. `launch-party.ics`.
 */
export function calendarFile(content: string, options: CalendarFileOptions = {}): DownloadFile {
  let lines = physicalLines(content);
  if (!lines.some((line) => isBegin(line, 'VEVENT'))) {
    lines = physicalLines(encodeContent('event', decodeContent('event', content)));
  }
  if (!lines.some((line) => isBegin(line, 'VCALENDAR'))) {
    lines = ['BEGIN:VCALENDAR', ...lines, 'END:VCALENDAR'];
  }
  const slug = (options.slug ?? '').replace(/[^A-Za-z0-9_-]/g, '');
  const uidBase = slug || createHash('sha256').update(content).digest('hex').slice(0, 32);
  const stamp = compactUtc(options.now ?? new Date());

  const out: string[] = [];
  const stack: { name: string; insertAt: number; uid: boolean; stamp: boolean }[] = [];
  let events = 0;
  let skipping = false;
  let done = false;

  const close = () => {
    const component = stack.pop();
    if (!component) return;
    if (component.name === 'VEVENT' && stack.length === 1) {
      const missing = [
        ...(component.uid ? [] : [`UID:${uidBase}${events > 0 ? `-${events + 1}` : ''}@qr-creator`]),
        ...(component.stamp ? [] : [`DTSTAMP:${stamp}`]),
      ];
      out.splice(component.insertAt, 0, ...missing);
      events++;
    }
    out.push(`END:${component.name}`);
    if (stack.length === 0) done = true;
  };

  for (const line of lines) {
    if (done) break;
    if (/^[ \t]/.test(line)) {
      if (!skipping && stack.length > 0) out.push(line);
      continue;
    }
    skipping = false;
    const name = propertyName(line);
    if (name === 'BEGIN') {
      const component = propertyValue(line);
      if (stack.length === 0 && component !== 'VCALENDAR') continue;
      out.push(`BEGIN:${component}`);
      stack.push({ name: component, insertAt: out.length, uid: false, stamp: false });
      if (stack.length === 1) out.push('VERSION:2.0', PRODID, 'METHOD:PUBLISH');
    } else if (name === 'END') {
      if (stack.length > 0) close();
    } else if (stack.length === 1 && ['VERSION', 'PRODID', 'METHOD'].includes(name)) {
      skipping = true; // ours replace them
    } else if (stack.length > 0) {
      const top = stack.at(-1)!;
      if (top.name === 'VEVENT' && name === 'UID') top.uid = true;
      if (top.name === 'VEVENT' && name === 'DTSTAMP') top.stamp = true;
      out.push(line);
    }
  }
  while (stack.length > 0) close();

  const body = contentText(out);
  return { body, filename: `${fileStem(decodeContent('event', body).title ?? '', 'event')}.ics` };
}
