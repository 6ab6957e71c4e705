import { describe, expect, it } from 'vitest';
import { describeContent, encodeContent } from './content';

describe('describeContent', () => {
  const cases: [string, string, string][] = [
    ['wifi', 'WIFI:T:WPA;S:MyNet;P:x;;', 'Wi-Fi: MyNet (WPA)'],
    ['wifi', 'WIFI:T:nopass;S:Cafe;;', 'Wi-Fi: Cafe (open)'],
    ['url', 'https://example.com', 'URL: https://example.com'],
    ['unknown', 'https://example.com', 'URL: https://example.com'],
    ['email', 'mailto:a@b.co?subject=Hello%20you', 'Email: a@b.co — Hello you'],
    ['sms', 'SMSTO:+1555:Hi\nthere', 'SMS: +1555 — Hi there'],
    [
      'vcard',
      encodeContent('vcard', { firstName: 'Ada', lastName: 'Lovelace', organization: 'AE' }),
      'vCard: Ada Lovelace (AE)',
    ],
    [
      'event',
      encodeContent('event', { title: 'Carols', startDate: '2026-12-24T18:00:00.000Z' }),
      'Event: Carols — 2026-12-24 18:00 UTC',
    ],
    ['phone', 'tel:+1555', 'Phone: +1555'],
    ['pdf', 'https://x.io/a.pdf', 'PDF: https://x.io/a.pdf'],
    ['text', '', 'Text: (empty)'],
  ];

  it.each(cases)('%s %j → %s', (type, payload, summary) => {
    expect(describeContent(type, payload)).toBe(summary);
  });

  it('stays on one line and short', () => {
    const summary = describeContent('text', `${'word '.repeat(100)}\n😀`);
    expect(summary).not.toMatch(/\n/);
    expect(Array.from(summary).length).toBeLessThanOrEqual(90);
    expect(summary.endsWith('…')).toBe(true);
  });
});
