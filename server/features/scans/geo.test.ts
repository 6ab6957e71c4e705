import { describe, expect, it } from 'vitest';
import { createGeoLocator } from './geo.js';

describe('the offline location database', () => {
  it('names the country of IPv4 and IPv6 addresses, and Unknown for private ones', async () => {
    const geo = await createGeoLocator({});
    expect(geo.locate('8.8.8.8')).toBe('United States');
    expect(geo.locate('::ffff:8.8.8.8')).toBe('United States');
    // The IPv6 table is read at the first IPv6 address.
    expect(geo.locate('2a00:1450:4001:81b::200e')).not.toBe('Unknown');
    expect(geo.locate('2001:4860:4860::8888')).toBe('United States');
    expect(geo.locate('192.168.1.20')).toBe('Unknown');
    expect(geo.locate('::1')).toBe('Unknown');
    expect(geo.locate('not an address')).toBe('Unknown');
  });
});
