import { parseQuery, percentDecode, stripPrefix } from '../text';
import { joinParts, type ContentFields, type QrTypeCodec } from './codec';

/** `SMSTO:`/`MMSTO:`, `SMS:` (old colon form or RFC 5724 `sms:…?body=`), `tel:`, or a bare number. */
function decodeSms(payload: string): ContentFields {
  const p = payload.trimStart();
  const splitAtColon = (rest: string): ContentFields => {
    const colon = rest.indexOf(':');
    return colon < 0
      ? { phone: rest.trim(), message: '' }
      : { phone: rest.slice(0, colon), message: rest.slice(colon + 1) };
  };
  const smsto = stripPrefix(p, /^(?:sms|mms)to:/i);
  if (smsto !== null) return splitAtColon(smsto);
  const sms = stripPrefix(p, /^sms:/i);
  if (sms !== null) {
    // RFC 5724 `sms:+1555?body=…` or the older `SMS:+1555:message`.
    const q = sms.indexOf('?');
    const colon = sms.indexOf(':');
    if (q >= 0 && (colon < 0 || q < colon)) {
      return {
        phone: percentDecode(sms.slice(0, q)),
        message: parseQuery(sms.slice(q + 1)).get('body') ?? '',
      };
    }
    return splitAtColon(sms);
  }
  const tel = stripPrefix(p, /^tel:/i);
  return { phone: (tel ?? p).trim(), message: '' };
}

/** sms: `SMSTO:phone:message` (a valid phone number never holds `:`, so the message may). */
export const smsCodec: QrTypeCodec = {
  encode: (f) => `SMSTO:${f.phone ?? ''}:${f.message ?? ''}`,
  decode: decodeSms,
  describe: (f) => joinParts(f.phone ?? '', f.message ?? ''),
};
