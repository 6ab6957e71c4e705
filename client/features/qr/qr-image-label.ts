import { i18n } from '@lingui/core';
import { describeContent } from '../../../src/qr/content';
import type { QrCode } from '../../../src/qr/qr.schema';
import { normalizeQrType, qrTypeLabels } from '../../../src/qr/qr-types';
import { translateShared } from '../../i18n/shared-messages';

/**
 * The words of the alt text, in the feature's catalog. Written as Lingui's macros write a message
 * (`{ id, message }`, the id generated from the message) and marked for `npm run i18n:extract`, without a
 * macro: the browser tests' Node side imports this module untransformed (charts-a11y.e2e.ts).
 */
const words = {
  dynamic: /*i18n*/ { id: 'rFlub0', message: 'QR code for {name}: dynamic {type} code, encodes {shortUrl}' },
  static: /*i18n*/ { id: 'hLujE7', message: 'QR code for {name}: static code, encodes {content}' },
} as const;

/** The messages above, for qr-image-label.test.ts, which checks that each id is the one Lingui generates. */
export const qrImageLabelWords: readonly { id: string; message: string }[] = Object.values(words);

/** A message in the screens' language; `english` while English (or no language yet) is active. */
function say(word: keyof typeof words, english: string, values: Record<string, string>): string {
  const { id } = words[word];
  if (!i18n.locale || i18n.locale === 'en' || i18n.messages[id] === undefined) return english;
  return i18n._(id, values);
}

/**
 * The alt text of a saved code's picture: its name, its type and what a scan gets. A dynamic code
 * encodes its short link (the destination can change behind it), so that is what it names; a static
 * code names its content, summarised as the details page shows it.
 */
export function qrImageLabel(code: Pick<QrCode, 'name' | 'type' | 'content' | 'shortUrl'>): string {
  const name = code.name;
  if (code.shortUrl) {
    // The type's name and the content's summary are src/'s English: in the active language.
    const type = translateShared(qrTypeLabels[normalizeQrType(code.type)]);
    const shortUrl = code.shortUrl;
    return say('dynamic', `QR code for ${name}: dynamic ${type} code, encodes ${shortUrl}`, {
      name,
      type,
      shortUrl,
    });
  }
  const content = translateShared(describeContent(code.type, code.content));
  return say('static', `QR code for ${name}: static code, encodes ${content}`, { name, content });
}
