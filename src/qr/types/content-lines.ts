/** Content lines of vCard and iCalendar payloads, shared by the vcard and event codecs (not a QR type). */

import { LINE_BREAK, wellFormed } from '../text';

export interface ContentLine {
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
export function parseContentLines(payload: string): ContentLine[] {
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

/** The first line of each of `names`. */
export function firstValues(lines: ContentLine[], names: string[]): Map<string, ContentLine> {
  const found = new Map<string, ContentLine>();
  for (const line of lines)
    if (names.includes(line.name) && !found.has(line.name)) found.set(line.name, line);
  return found;
}
