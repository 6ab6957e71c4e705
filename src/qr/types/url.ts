import type { QrTypeCodec } from './codec';

/**
 * url and social (a profile URL): the payload is the URL itself. The two types are handled identically and
 * share this codec; the URL check (absolute http(s) only) is the common rule of required url fields.
 */
export const urlCodec: QrTypeCodec = {
  encode: (f) => f.url ?? '',
  decode: (payload) => ({ url: payload.trim() }),
  describe: (f) => f.url ?? '',
};
