import { DEFAULT_WIFI_ENCRYPTION } from '../content-fields';
import { parseSegments, stripPrefix, unescapeBackslash } from '../text';
import type { ContentFields, FieldsIn, QrTypeCodec } from './codec';

/** The T segment's value: WPA (also WPA2, WPA3/SAE and anything unknown), WEP, or nopass (None, open). */
function wifiEncryption(value: string): string {
  const v = value.trim().toUpperCase();
  if (v === 'WEP') return 'WEP';
  if (v === 'NOPASS' || v === 'NONE' || v === 'OPEN') return 'nopass';
  return DEFAULT_WIFI_ENCRYPTION;
}

function escapeWifi(value: string): string {
  return value.replace(/[\\;,:"]/g, '\\$&');
}

/** `WIFI:T:…;S:…;P:…;;`, with no P segment for an open network or an empty password. */
function encodeWifi(f: FieldsIn): string {
  const encryption = wifiEncryption(f.encryption ?? '');
  const password = f.password ?? '';
  const passwordPart = encryption !== 'nopass' && password !== '' ? `P:${escapeWifi(password)};` : '';
  return `WIFI:T:${encryption};S:${escapeWifi(f.ssid ?? '')};${passwordPart};`;
}

/** A WIFI: value: escapes removed, and the quotes some generators put around hex-like values. */
function wifiValue(raw: string): string {
  const quoted = /^"([\s\S]*)"$/.exec(raw);
  if (quoted && !/(^|[^\\])(\\\\)*\\$/.test(quoted[1]!)) return unescapeBackslash(quoted[1]!);
  return unescapeBackslash(raw);
}

/** Any segment order and prefix case, quoted values, with or without the final `;;`. */
function decodeWifi(payload: string): ContentFields {
  const body = stripPrefix(payload.trimStart(), /^wifi:/i);
  if (body === null) return { ssid: payload.trim(), password: '', encryption: DEFAULT_WIFI_ENCRYPTION };
  const s = parseSegments(body);
  const password = wifiValue(s.get('P') ?? '');
  const type = unescapeBackslash(s.get('T') ?? '').trim();
  return {
    ssid: wifiValue(s.get('S') ?? ''),
    password,
    // Without a T segment, a password implies WPA (as most scanners read it).
    encryption: type === '' ? (password === '' ? 'nopass' : DEFAULT_WIFI_ENCRYPTION) : wifiEncryption(type),
  };
}

/** wifi: network name, password and security. */
export const wifiCodec: QrTypeCodec = {
  // Wi-Fi credentials are kept exactly as typed: a leading or trailing space there is part of the secret.
  fields: { ssid: { verbatim: true }, password: { verbatim: true } },
  // An open network has no password, and its payload carries none.
  refine: (object) => object.transform((v) => (v.encryption === 'nopass' ? { ...v, password: '' } : v)),
  formDefaults: { encryption: DEFAULT_WIFI_ENCRYPTION },
  encode: encodeWifi,
  decode: decodeWifi,
  describe: (f) => {
    const encryption = f.encryption ?? '';
    return `${f.ssid ?? ''} (${encryption === 'nopass' ? 'open' : encryption})`;
  },
};
