import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { describe, expect, it } from 'vitest';
import { qrImageLabel, qrImageLabelWords } from './qr-image-label';

describe('qrImageLabel', () => {
  it('names a dynamic code’s type and the short link it encodes', () => {
    expect(
      qrImageLabel({
        name: 'Café Menu',
        type: 'url',
        content: 'https://example.com/menu',
        shortUrl: 'https://qr.example/r/abc123',
      }),
    ).toBe('QR code for Café Menu: dynamic URL code, encodes https://qr.example/r/abc123');
  });

  it('names a static code’s type and content', () => {
    const label = qrImageLabel({
      name: 'Guest Wi-Fi',
      type: 'wifi',
      content: 'WIFI:T:WPA;S:Cafe Guest;P:espresso2024;;',
      shortUrl: null,
    });
    expect(label).toMatch(/^QR code for Guest Wi-Fi: static code, encodes Wi-Fi: /);
    expect(label).toContain('Cafe Guest');
  });

  it('carries the ids Lingui generates for its messages, as the catalogs know them', () => {
    for (const { id, message } of qrImageLabelWords) expect(id).toBe(generateMessageId(message));
  });
});
