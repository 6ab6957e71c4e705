import type { QrTypeCodec } from './codec';

/** text: the payload is the text as given. */
export const textCodec: QrTypeCodec = {
  encode: (f) => f.text ?? '',
  decode: (payload) => ({ text: payload }),
  describe: (f) => f.text ?? '',
};
