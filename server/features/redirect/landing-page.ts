import { decodeContent } from '../../../src/qr/content.js';
import { normalizeQrType, type QrType } from '../../../src/qr/qr-types.js';
import { emailBody, phoneBody, smsBody, vcardBody } from './landing/contact-bodies.js';
import { eventBody } from './landing/event-body.js';
import { card, esc, renderPage, type Body, type PageOptions } from './landing/html.js';
import { plainBody, textBody } from './landing/text-body.js';
import { wifiBody } from './landing/wifi-body.js';
import { scanMessages, type ScanLocale } from './landing/messages/index.js';

/**
 * The pages a dynamic code's public short link `/r/<slug>` shows for the types that do not redirect (text,
 * email, sms, phone, wifi, vcard, event; anything else as plain text), the 404 page, and (in `./landing/downloads.ts`) the
 * `.vcf` / `.ics` files behind 'Save contact' and 'Add to calendar'. Pure functions: the route sends what they return.
 *
 * Each page heads with its content — the person, the network, the event, the number or address — and so does
 * its title: never with the code's name, which is the owner's own label and may say 'VCARD QR Code'.
 *
 * Safety: every value that comes from the user (every field) is HTML-escaped, and every href
 * is built from a checked scheme (http(s): after `isHttpUrl`, mailto:, sms:, tel: from normalised
 * digits — see `src/qr/actions.ts`, shared with the scan simulator — or the page's own `/r/<slug>/…` paths),
 * then escaped for a double-quoted attribute.
 * The only script is the Wi-Fi page's 'Copy password' helper; it carries the CSP nonce given in the options
 * (so does the inline style), and reads the password from the page, never from its own source.
 *
 * This module is the entry point; the parts live in `./landing/`: the HTML shell (`html.ts`), one body
 * renderer per type or family of types (`text-body.ts`, `contact-bodies.ts`, `wifi-body.ts`,
 * `event-body.ts`) and the downloads (`downloads.ts`).
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

function typeBody(type: QrType, content: string, slug: string, locale: ScanLocale): Body {
  const fields = decodeContent(type, content);
  const m = scanMessages(locale);
  switch (type) {
    case 'text':
      return textBody(content, m);
    case 'email':
      return emailBody(content, fields, m);
    case 'sms':
      return smsBody(fields, m);
    case 'phone':
      return phoneBody(fields, m);
    case 'wifi':
      return wifiBody(fields, m);
    case 'vcard':
      return vcardBody(fields, slug, m);
    case 'event':
      return eventBody(fields, slug, m, locale);
    default:
      return plainBody(content, m);
  }
}

/**
 * The landing page of a code whose type does not redirect: a small HTML5 document (inline CSS, light and
 * dark, noindex) headed and titled with its content — the contact's name (else organization), the Wi-Fi
 * network's SSID, the event's title, the phone number, the e-mail address, the SMS recipient, a text's short
 * first line (else 'Message') — never with the code's name; then the content and its action (Call, Send
 * email, Send SMS, Copy password, Save contact, Add to calendar). Event times are shown in the event's time
 * zone (X-WR-TIMEZONE), named, or in UTC. In the scanner's language (`options.locale`). Throws a TypeError only for a malformed `options.nonce`.
 */
export function renderLandingPage(input: LandingPageInput, options: PageOptions = {}): string {
  const type = normalizeQrType(input.type);
  return renderPage(typeBody(type, input.content, input.slug, options.locale ?? 'en'), options);
}

/** The 404 page of a short link that leads nowhere (unknown slug, deleted or static code). */
export function renderNotFoundPage(options: PageOptions = {}): string {
  const { notFound } = scanMessages(options.locale);
  return renderPage(
    { heading: notFound.heading, kicker: '', body: card(`<p class="t">${esc(notFound.text)}</p>`) },
    options,
  );
}
