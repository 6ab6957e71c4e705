import net from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anonymizeAddress,
  isPrivateAddress,
  normalizeAddress,
  PRIVATE_IPV4_RANGES,
  unmapIpv4,
} from './client-address.js';
import { deviceCategories, deviceCategory, type DeviceCategory } from './device.js';

/** Real user-agent strings, as the browsers, crawlers and link-preview fetchers send them. */
const userAgents: [DeviceCategory, string, string][] = [
  [
    'Mobile',
    'iPhone Safari',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ],
  [
    'Mobile',
    'iPhone Chrome (CriOS)',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  ],
  [
    'Mobile',
    'Android phone Chrome (Pixel)',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36',
  ],
  [
    'Mobile',
    'Android phone Chrome with the reduced UA (model "K")',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  ],
  [
    'Mobile',
    'Samsung Galaxy S24 Samsung Internet',
    'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  ],
  [
    'Tablet',
    'iPad Safari',
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ],
  [
    'Tablet',
    'Samsung Galaxy Tab S9 (SM-X700) Chrome',
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  ],
  [
    'Tablet',
    'Samsung Galaxy Tab S7 (SM-T870) Chrome',
    'Mozilla/5.0 (Linux; Android 11; SM-T870) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  ],
  [
    'Tablet',
    'Android tablet Chrome with the reduced UA (no "Mobile")',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  ],
  [
    'Desktop',
    'Windows Chrome',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  ],
  [
    'Desktop',
    'Windows Edge',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  ],
  [
    'Desktop',
    'macOS Safari',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  ],
  [
    'Desktop',
    'macOS Chrome',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  ],
  ['Desktop', 'Linux Firefox', 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0'],
  [
    'Desktop',
    'Ubuntu Firefox',
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  ],
  [
    'Desktop',
    'Windows Firefox',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
  ],
  [
    'Desktop',
    'ChromeOS Chrome',
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  ],
  ['Bot', 'Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
  [
    'Bot',
    'Googlebot smartphone (an Android phone UA that is still a crawler)',
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ],
  ['Bot', 'bingbot', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
  [
    'Bot',
    'bingbot (Edge-based)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  ],
  ['Bot', 'WhatsApp (Android)', 'WhatsApp/2.23.20.0 A'],
  ['Bot', 'WhatsApp (iOS)', 'WhatsApp/2.24.11.85 i'],
  ['Bot', 'Slackbot-LinkExpanding', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
  ['Bot', 'Slack image proxy', 'Slack-ImgProxy (+https://api.slack.com/robots)'],
  ['Bot', 'Twitterbot', 'Twitterbot/1.0'],
  ['Bot', 'facebookexternalhit', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
  ['Bot', 'TelegramBot', 'TelegramBot (like TwitterBot)'],
  ['Bot', 'Discordbot', 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'],
  [
    'Bot',
    'LinkedInBot',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  ],
  ['Bot', 'curl', 'curl/8.5.0'],
  ['Bot', 'Wget', 'Wget/1.21.4'],
];

describe('deviceCategory', () => {
  it.each(userAgents)('%s: %s', (expected, _name, ua) => {
    expect(deviceCategory(ua)).toBe(expected);
  });

  it.each([
    ['an empty string', ''],
    ['null', null],
    ['undefined', undefined],
  ])('is Unknown for %s', (_name, ua) => {
    expect(deviceCategory(ua)).toBe('Unknown');
  });

  it('is Unknown for a smart TV (neither phone, tablet nor computer)', () => {
    expect(
      deviceCategory(
        'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
      ),
    ).toBe('Unknown');
  });

  it('answers only the five documented categories', () => {
    expect(deviceCategories).toEqual(['Mobile', 'Tablet', 'Desktop', 'Bot', 'Unknown']);
    for (const [, , ua] of userAgents) expect(deviceCategories).toContain(deviceCategory(ua));
  });

  it('answers the same category from its cache, also after thousands of other user agents', () => {
    const [, , iphone] = userAgents[0]!;
    expect(deviceCategory(iphone)).toBe('Mobile');
    expect(deviceCategory(iphone)).toBe('Mobile');
    // More distinct strings than the cache holds: the oldest entries are evicted, never mixed up.
    for (let i = 0; i < 2500; i++) {
      deviceCategory(`Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${i}.0) Gecko/20100101 Firefox/${i}.0`);
    }
    for (const [expected, , ua] of userAgents) expect(deviceCategory(ua)).toBe(expected);
  });
});

/** The eight 16-bit groups of an IPv6 address, whatever its notation (:: and embedded IPv4 included). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail = ''] = address.split('::');
  const toGroups = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [Number.parseInt(g, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const h = toGroups(head);
  const t = toGroups(tail);
  return address.includes('::') ? [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t] : h;
}

describe('anonymizeAddress', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0'],
    ['8.8.8.8', '8.8.8.0'],
    ['10.1.2.3', '10.1.2.0'],
    ['255.255.255.255', '255.255.255.0'],
    ['1.2.3.0', '1.2.3.0'],
    ['::ffff:203.0.113.77', '203.0.113.0'],
    ['::FFFF:198.51.100.9', '198.51.100.0'],
  ])('IPv4 %s → %s (last octet zeroed; a mapped address is stored as IPv4)', (ip, expected) => {
    expect(anonymizeAddress(ip)).toBe(expected);
  });

  const ipv6Cases: [string, number[]][] = [
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', [0x2001, 0xdb8, 0x85a3]],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', [0x2001, 0xdb8, 0]],
    ['2001:db8::1', [0x2001, 0xdb8, 0]],
    ['2a00:1450:4001:81b::200e', [0x2a00, 0x1450, 0x4001]],
    ['2001:db8:85a3::', [0x2001, 0xdb8, 0x85a3]],
    ['fe80::1', [0xfe80, 0, 0]],
    ['::1', [0, 0, 0]],
    ['2001:db8:1:2:3:4:1.2.3.4', [0x2001, 0xdb8, 1]],
  ];

  it.each(ipv6Cases)('IPv6 %s keeps its first 48 bits and zeroes the last 80', (ip, first48) => {
    const anonymized = anonymizeAddress(ip) ?? '';
    expect(net.isIPv6(anonymized), anonymized).toBe(true);
    expect(ipv6Groups(anonymized)).toEqual([...first48, 0, 0, 0, 0, 0]);
  });

  it('gives every address of one /48 the same stored text (scans of a network group together)', () => {
    const a = anonymizeAddress('2001:db8:85a3:1::1');
    expect(anonymizeAddress('2001:db8:85a3:ffff:ffff:ffff:ffff:ffff')).toBe(a);
    expect(anonymizeAddress('2001:DB8:85A3::')).toBe(a);
    expect(anonymizeAddress('2001:db8:85a4::')).not.toBe(a);
  });

  it.each([
    ['203.0.113.77:54321', '203.0.113.0'],
    ['[2001:db8:85a3:8d3::7348]:443', '2001:db8:85a3::'],
    ['[2001:db8:85a3:8d3::7348]', '2001:db8:85a3::'],
    ['  198.51.100.23  ', '198.51.100.0'],
  ])('anonymizes %j as a proxy forwards it (with a port, brackets or spaces) → %s', (ip, expected) => {
    const anonymized = anonymizeAddress(ip) ?? '';
    expect(net.isIP(anonymized)).not.toBe(0);
    if (net.isIPv6(anonymized)) expect(ipv6Groups(anonymized)).toEqual(ipv6Groups(expected));
    else expect(anonymized).toBe(expected);
  });

  it.each(['not-an-ip', '', 'unknown', '203.0.113.77.5', '999.1.1.1:80'])(
    'never stores %j, which is not an address, unchanged: null',
    (ip) => {
      expect(anonymizeAddress(ip)).toBeNull();
    },
  );
});

describe('normalizeAddress', () => {
  it.each([
    ['203.0.113.77', '203.0.113.77'],
    ['203.0.113.77:54321', '203.0.113.77'],
    ['::ffff:203.0.113.77', '203.0.113.77'],
    ['[::ffff:203.0.113.77]:80', '203.0.113.77'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['2001:db8::1', '2001:db8::1'],
    [' 8.8.8.8 ', '8.8.8.8'],
  ])('%j → %s', (raw, expected) => {
    expect(normalizeAddress(raw)).toBe(expected);
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.10.20', true],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['0.0.0.0', true],
    ['172.15.255.255', false],
    ['172.32.0.1', false],
    ['100.63.255.255', false],
    ['100.128.0.1', false],
    ['192.169.0.1', false],
    ['11.0.0.1', false],
    ['8.8.8.8', false],
    ['203.0.113.77', false],
  ])('IPv4 %s → %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });

  it.each([
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::', true],
    ['fe80::1', true],
    ['FE80::ABCD:1', true],
    ['febf:ffff::1', true],
    ['fc00::1', true],
    ['fd12:3456:789a::1', true],
    ['fec0::1', false],
    ['2001:4860:4860::8888', false],
    ['2a00:1450:4001:81b::200e', false],
    ['2001:db8::1', false],
  ])('IPv6 %s → %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });

  it.each([
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['::FFFF:192.168.0.10', true],
    ['::ffff:8.8.8.8', false],
    ['::ffff:203.0.113.77', false],
  ])('IPv4-mapped %s → %s (judged as the IPv4 address)', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
    expect(unmapIpv4(ip)).toBe(ip.slice('::ffff:'.length));
  });

  it('agrees with a BlockList of the same ranges for any IPv4 address (fast path check)', () => {
    const oracle = new net.BlockList();
    for (const [address, prefix] of PRIVATE_IPV4_RANGES) oracle.addSubnet(address, prefix, 'ipv4');
    const octet = fc.integer({ min: 0, max: 255 });
    const firstOctet = fc.oneof(fc.constantFrom(0, 10, 100, 127, 169, 172, 192), octet);
    fc.assert(
      fc.property(firstOctet, octet, octet, octet, (a, b, c, d) => {
        const ip = `${a}.${b}.${c}.${d}`;
        expect(isPrivateAddress(ip)).toBe(oracle.check(ip, 'ipv4'));
      }),
      { numRuns: 5000 },
    );
  });

  it.each(['', 'not-an-ip', 'localhost', '999.1.1.1', '1.2.3', '01.2.3.4'])(
    'treats %j (not an address) as private: never located',
    (ip) => {
      expect(isPrivateAddress(ip)).toBe(true);
    },
  );
});
