import type { QrType } from '../qr-types';
import type { QrTypeCodec } from './codec';
import { emailCodec } from './email';
import { eventCodec } from './event';
import { fileLinkCodec } from './file-link';
import { phoneCodec } from './phone';
import { smsCodec } from './sms';
import { textCodec } from './text';
import { urlCodec } from './url';
import { vcardCodec } from './vcard';
import { wifiCodec } from './wifi';

/** The codec of every type: a new type in `qrTypes` does not compile until it has one here. */
export const qrTypeCodecs: Record<QrType, QrTypeCodec> = {
  url: urlCodec,
  email: emailCodec,
  text: textCodec,
  sms: smsCodec,
  wifi: wifiCodec,
  vcard: vcardCodec,
  event: eventCodec,
  social: urlCodec,
  pdf: fileLinkCodec,
  video: fileLinkCodec,
  image: fileLinkCodec,
  phone: phoneCodec,
};
