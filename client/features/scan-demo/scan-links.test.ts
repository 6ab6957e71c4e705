import { describe, expect, it } from 'vitest';
import { emailLink } from '../../../src/qr/actions';
import { decodeContent, encodeContent } from '../../../src/qr/content';
import { mailtoHref } from './scan-links';

// The action builders the scan demo uses (tel:, sms:, mailto:, phone numbers in a text, event ranges) are
// tested with them in src/qr/actions.test.ts, next to a check that both places build the same hrefs.

describe('mailtoHref', () => {
  it('is the shared Send Email link (emailLink) of an e-mail code with an address', () => {
    for (const payload of [
      encodeContent('email', { email: 'a@b.co', subject: 'Hi there', body: '' }),
      'MATMSG:TO:a@b.co;SUB:Hello;BODY:World;;',
    ]) {
      const fields = decodeContent('email', payload);
      expect(mailtoHref(payload, fields)).toBe(emailLink(payload, fields));
    }
  });

  it('is null for a code without an address (no Send Email button)', () => {
    expect(mailtoHref('mailto:', decodeContent('email', 'mailto:'))).toBeNull();
  });
});
