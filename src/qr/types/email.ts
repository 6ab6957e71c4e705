import {
  LINE_BREAK,
  parseQuery,
  parseSegments,
  percentDecode,
  percentEncode,
  stripPrefix,
  unescapeBackslash,
  unixNewlines,
} from '../text';
import { joinParts, type ContentFields, type FieldsIn, type QrTypeCodec } from './codec';

/** `mailto:address?subject=…&body=…` (RFC 6068). */
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

/** `mailto:` (with cc, or the address in to=), `MATMSG:`, or a bare address. */
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

/** email: an address with an optional subject and message. */
export const emailCodec: QrTypeCodec = {
  encode: encodeEmail,
  decode: decodeEmail,
  describe: (f) => joinParts(f.email ?? '', f.subject ?? ''),
};
