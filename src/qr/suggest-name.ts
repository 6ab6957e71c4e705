import { withHttps } from './bare-url';
import { normalizeQrType } from './qr-types';
import { QR_NAME_MAX } from './qr.schema';

/** Longest suggestion taken from free text ('Free coffee on Fridays…'). */
const TEXT_WORDS_MAX = 40;

const clean = (value: string | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();

/** The first words of a text, cut on a word boundary with '…' past `max` characters. */
function firstWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : text.slice(0, max)).replace(/[\s,.;:!?-]+$/, '')}…`;
}

/**
 * 'https://www.cafe-luna.com/menu' → 'cafe-luna.com' (also for a bare 'cafe-luna.com/menu'). The host is
 * taken as typed, so an international name stays readable ('bücher.de', not 'xn--bcher-kva.de').
 */
function hostOf(url: string): string | null {
  try {
    new URL(withHttps(url)); // only a URL that parses gives a name
  } catch {
    return null;
  }
  const host = /^(?:[a-z][a-z0-9+.-]*:)?(?:\/\/)?(?:[^/?#@\s]*@)?([^/?#:\s]+)/i.exec(url.trim())?.[1];
  return host ? host.toLowerCase().replace(/^www\./, '') : null;
}

/**
 * A name for a new code taken from what it holds — the link's title or host, the address, the first words
 * of a text, the number, the network's SSID, the person, the event — so nobody ends up with five codes called
 * 'URL QR Code'. Null when the content gives nothing to go by.
 */
export function suggestQrName(
  type: string,
  fields: Readonly<Record<string, string | undefined>>,
): string | null {
  const f = (name: string) => clean(fields[name]);
  let name: string;
  switch (normalizeQrType(type)) {
    case 'email':
      name = f('email') || f('subject');
      break;
    case 'text':
      name = firstWords(f('text'), TEXT_WORDS_MAX);
      break;
    case 'sms':
    case 'phone':
      name = f('phone');
      break;
    case 'wifi':
      name = f('ssid') && `Wi-Fi ${f('ssid')}`;
      break;
    case 'vcard':
      name = [f('firstName'), f('lastName')].filter(Boolean).join(' ') || f('organization');
      break;
    case 'event':
      name = f('title');
      break;
    default: // url, social, pdf, video, image
      name = f('title') || (f('url') ? (hostOf(f('url')) ?? '') : '');
  }
  return name ? name.slice(0, QR_NAME_MAX) : null;
}
