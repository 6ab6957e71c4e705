import { stripPrefix } from '../text';
import type { QrTypeCodec } from './codec';

/** phone: `tel:number`; a bare number (or any prefix case) is read too. */
export const phoneCodec: QrTypeCodec = {
  encode: (f) => `tel:${f.phone ?? ''}`,
  decode: (payload) => {
    const p = payload.trim();
    return { phone: stripPrefix(p, /^tel:/i) ?? p };
  },
  describe: (f) => f.phone ?? '',
};
