import type { QrTypeCodec } from './codec';

/**
 * pdf, video and image: a link to a file. The three types are handled identically and share this codec.
 * The payload is the URL alone; the title is kept beside the payload, not in it, so decode answers it ''.
 */
export const fileLinkCodec: QrTypeCodec = {
  encode: (f) => f.url ?? '',
  decode: (payload) => ({ url: payload.trim(), title: '' }),
  describe: (f) => f.url ?? '',
};
