/** Text helpers the payload encoders and decoders share: escaping, splitting, percent-encoding. */

/** A lone surrogate cannot be percent-encoded (encodeURIComponent throws) nor stored as UTF-8. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const LINE_BREAK = /\r\n|\r|\n/g;

export function wellFormed(value: string): string {
  return value.replace(LONE_SURROGATE, '\uFFFD');
}

export function unixNewlines(value: string): string {
  return value.replace(LINE_BREAK, '\n');
}

export function percentEncode(value: string): string {
  return encodeURIComponent(wellFormed(value));
}

export function percentDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Backslash escapes of WIFI: and MECARD:, where `\x` always stands for `x`. */
export function unescapeBackslash(value: string): string {
  return value.replace(/\\([\s\S])/g, '$1');
}

/** vCard (RFC 2426) and iCalendar (RFC 5545) TEXT escaping. */
export function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, '\\$&').replace(LINE_BREAK, '\\n');
}

/** URI and phone values are not TEXT: only what would break the line or the escaping is escaped. */
export function escapeUriValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(LINE_BREAK, '\\n');
}

export function unescapeText(value: string): string {
  return value.replace(/\\([\s\S])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** Splits on `separator` where it is not escaped by a backslash; the pieces keep their escapes. */
export function splitUnescaped(value: string, separator: string): string[] {
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
export function parseSegments(body: string): Map<string, string> {
  const segments = new Map<string, string>();
  for (const segment of splitUnescaped(body, ';')) {
    const colon = segment.indexOf(':');
    if (colon <= 0) continue;
    const key = segment.slice(0, colon).trim().toUpperCase();
    if (!segments.has(key)) segments.set(key, segment.slice(colon + 1));
  }
  return segments;
}

export function stripPrefix(payload: string, prefix: RegExp): string | null {
  const match = prefix.exec(payload);
  return match ? payload.slice(match[0].length) : null;
}

/** A URI query (`a=1&b=2`): keys decoded and lower-cased, values decoded with `\n` breaks; first one wins. */
export function parseQuery(query: string): Map<string, string> {
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
