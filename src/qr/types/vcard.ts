import {
  escapeText,
  escapeUriValue,
  parseSegments,
  splitUnescaped,
  stripPrefix,
  unescapeBackslash,
  unescapeText,
  unixNewlines,
} from '../text';
import type { ContentFields, FieldsIn, QrTypeCodec } from './codec';
import { firstValues, parseContentLines } from './content-lines';

/** vCard 3.0 with CRLF lines; empty optional lines are left out. */
function encodeVcard(f: FieldsIn): string {
  const first = f.firstName ?? '';
  const last = f.lastName ?? '';
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${escapeText(last)};${escapeText(first)};;;`,
    `FN:${escapeText([first, last].filter(Boolean).join(' '))}`,
  ];
  const optional: [string, string | undefined, (v: string) => string][] = [
    ['TEL', f.phone, escapeUriValue],
    ['EMAIL', f.email, escapeText],
    ['ORG', f.organization, escapeText],
    ['TITLE', f.title, escapeText],
    ['URL', f.website, escapeUriValue],
  ];
  for (const [name, value, escape] of optional) if (value) lines.push(`${name}:${escape(value)}`);
  lines.push('END:VCARD');
  return lines.join('\r\n');
}

function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const space = fullName.lastIndexOf(' ');
  return space < 0
    ? { firstName: fullName, lastName: '' }
    : { firstName: fullName.slice(0, space), lastName: fullName.slice(space + 1) };
}

/** vCard 2.1–4 (extra lines, groups, folding, quoted-printable) or `MECARD:`. */
function decodeVcard(payload: string): ContentFields {
  const blank = {
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    organization: '',
    title: '',
    website: '',
  };
  const mecard = stripPrefix(payload.trimStart(), /^mecard:/i);
  if (mecard !== null) {
    const s = parseSegments(mecard);
    const get = (key: string) => unixNewlines(unescapeBackslash(s.get(key) ?? ''));
    const [last = '', first] = splitUnescaped(s.get('N') ?? '', ',').map(unescapeBackslash);
    return {
      ...blank,
      ...(first === undefined ? { firstName: last } : { firstName: first, lastName: last }),
      email: get('EMAIL'),
      phone: get('TEL'),
      organization: get('ORG'),
      title: get('TITLE'),
      website: get('URL'),
    };
  }
  const lines = parseContentLines(payload);
  if (!lines.some((l) => l.name === 'BEGIN' && l.value.trim().toUpperCase() === 'VCARD')) {
    return { ...blank, firstName: payload.trim() };
  }
  const p = firstValues(lines, ['N', 'FN', 'TEL', 'EMAIL', 'ORG', 'TITLE', 'URL']);
  const text = (name: string) => unescapeText(p.get(name)?.value ?? '');
  const [family = '', given = '', additional = ''] = splitUnescaped(p.get('N')?.value ?? '', ';').map(
    unescapeText,
  );
  const name =
    given || family
      ? { firstName: [given, additional].filter(Boolean).join(' '), lastName: family }
      : splitFullName(text('FN').trim());
  const tel = p.get('TEL');
  // vCard 4: TEL;VALUE=uri:tel:+1…
  const phone =
    tel && tel.params.some((x) => /^VALUE=uri$/i.test(x.trim()))
      ? text('TEL').replace(/^tel:/i, '')
      : text('TEL');
  return {
    ...name,
    email: text('EMAIL'),
    phone,
    organization: splitUnescaped(p.get('ORG')?.value ?? '', ';')
      .map(unescapeText)
      .filter(Boolean)
      .join(', '),
    title: text('TITLE'),
    website: text('URL'),
  };
}

/** vcard: a contact card. */
export const vcardCodec: QrTypeCodec = {
  encode: encodeVcard,
  decode: decodeVcard,
  describe: (f) => {
    const name = [f.firstName ?? '', f.lastName ?? ''].filter(Boolean).join(' ');
    return f.organization ? `${name} (${f.organization})` : name;
  },
};
