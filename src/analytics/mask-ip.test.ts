import { describe, expect, it } from 'vitest';
import { maskIp } from './mask-ip';

describe('maskIp', () => {
  it.each([
    ['203.0.113.7', '203.0.*.*'],
    ['  10.20.30.40 ', '10.20.*.*'],
    ['::ffff:192.0.2.33', '192.0.*.*'],
    ['2001:DB8:85a3:0:0:8a2e:370:7334', '2001:db8:*:*'],
    ['2001:db8::1', '2001:db8:*:*'],
    ['fe80::1%eth0', 'fe80:0:*:*'],
    ['::1', '0:0:*:*'],
  ])('%j → %j', (ip, masked) => expect(maskIp(ip)).toBe(masked));

  it.each([null, undefined, '', 'not an ip', '1:2::3::4', 'zzzz:1::'])('%j is Unknown', (ip) =>
    expect(maskIp(ip)).toBe('Unknown'),
  );
});
