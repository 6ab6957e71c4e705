import { phoneNumbersIn, URL_IN_TEXT } from '../../../../src/qr/actions.js';
import { isHttpUrl } from '../../../../src/qr/field-checks.js';
import { button, card, esc, link, type Body } from './html.js';
import type { ScanMessages } from './messages/index.js';

/** The longest first line of a text that is taken as its heading. */
const TEXT_HEADING_MAX = 80;

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

/**
 * A text whose first line is short and followed by more heads with that line (the body shows the rest);
 * any other text heads with 'Message'. A line with a link stays in the body, where it is one. Each phone
 * number the text mentions (up to three) gets a Call button.
 */
export function textBody(text: string, m: ScanMessages): Body {
  const calls = phoneNumbersIn(text)
    .map((p, i) => button(p.href, m.text.call(p.label), i > 0))
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
    kicker: m.text.kicker,
    heading: useFirst ? first : m.text.heading,
    body: card(`<p class="t">${linkify(shown)}</p>`) + calls,
  };
}

/** Any type without a page of its own: the content as plain text, never as a link. */
export function plainBody(content: string, m: ScanMessages): Body {
  return { kicker: '', heading: m.qrCode, body: card(`<p class="t">${esc(content)}</p>`) };
}
