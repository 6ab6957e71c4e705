// Pure helpers of the scan demo: the message of a bad ID, and whether
// The action hrefs themselves (tel:, sms:, mailto:), the phone numbers a text mentions and an event's date
// range come from `src/qr/actions.ts`, the same builders the landing page of a dynamic code uses.
import { msg } from '@lingui/core/macro';
import { emailLink } from '../../../src/qr/actions';
import type { ContentFields } from '../../../src/qr/content';

/** Translated where it is shown. */
export const INVALID_ID_MESSAGE = msg`Please enter a valid QR code ID`;

/**
 * The Send Email href of an e-mail code, as the landing page builds it (`emailLink`), or null when the code
 * has no address: the scan demo shows no button then.
 */
export function mailtoHref(content: string, fields: ContentFields): string | null {
  return fields.email?.trim() ? emailLink(content, fields) : null;
}
