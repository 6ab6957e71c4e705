import { describe, expect, it } from 'vitest';
import { withHttps } from './bare-url';

describe('withHttps', () => {
  it.each([
    ['example.com', 'https://example.com'],
    ['  example.com/menu?table=4#drinks ', 'https://example.com/menu?table=4#drinks'],
    ['www.cafe-luna.co.uk', 'https://www.cafe-luna.co.uk'],
    ['shop.example.com:8443/a', 'https://shop.example.com:8443/a'],
    ['bücher.de', 'https://bücher.de'],
    ['//example.com/x', 'https://example.com/x'],
  ])('adds https:// to the bare domain %j', (input, expected) => {
    expect(withHttps(input)).toBe(expected);
  });

  it.each([
    'https://example.com',
    'http://example.com',
    'HTTPS://EXAMPLE.COM',
    'mailto:a@example.com',
    'ftp://example.com',
    'javascript:alert(1)',
    '',
    '   ',
    'example',
    'not a url.com',
    'localhost:3000',
    '1.2',
    '-bad.com',
  ])('leaves %j for the URL rule to judge', (input) => {
    expect(withHttps(input)).toBe(input);
  });
});
