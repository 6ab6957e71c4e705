import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import { IPHONE, dynamicCode, scan, scansOf, withConfig } from './redirect.test-helpers.js';

describeOnSqlite('GET /r/<slug>, the public short link', (getDb) => {
  describe('client address with TRUST_PROXY unset', () => {
    const t = useTestApp(getDb);

    it('ignores X-Forwarded-For: the socket address is stored and located', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/direct');
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': '8.8.8.8' } });
      await scan(t(), row.slug, {
        headers: { 'x-forwarded-for': '10.0.0.1' },
        remoteAddress: '81.2.69.142',
      });
      const scans = await scansOf(t());
      expect(scans.map((s) => [s.ip_address, s.location])).toEqual([
        ['127.0.0.1', 'Unknown'],
        ['81.2.69.142', 'United Kingdom'],
      ]);
    });

    it.each([
      ['127.0.0.1', '127.0.0.1'],
      ['10.1.2.3', '10.1.2.3'],
      ['172.20.0.5', '172.20.0.5'],
      ['192.168.1.20', '192.168.1.20'],
      ['169.254.0.9', '169.254.0.9'],
      ['100.64.1.1', '100.64.1.1'],
      ['::1', '::1'],
      ['fe80::1', 'fe80::1'],
      ['fd00::abcd', 'fd00::abcd'],
      ['::ffff:192.168.1.1', '192.168.1.1'],
    ])('locates the private or loopback address %s as Unknown and stores it as %s', async (ip, stored) => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/private');
      await scan(t(), row.slug, { remoteAddress: ip });
      const [scanned] = await scansOf(t());
      expect(scanned).toMatchObject({ ip_address: stored, location: 'Unknown' });
    });

    it.each([
      ['8.8.8.8', '8.8.8.8', 'United States'],
      ['2001:4860:4860::8888', '2001:4860:4860::8888', 'United States'],
      ['::ffff:8.8.8.8', '8.8.8.8', 'United States'],
      ['81.2.69.142', '81.2.69.142', 'United Kingdom'],
    ])(
      'locates the public address %s (stored as %s) as %s with the offline country database',
      async (ip, stored, country) => {
        const { row } = await dynamicCode(t(), 'url', 'https://example.com/public');
        await scan(t(), row.slug, { remoteAddress: ip });
        const [scanned] = await scansOf(t());
        expect(scanned).toMatchObject({ ip_address: stored, location: country });
      },
    );
  });

  describe.each([
    ['the proxy address (127.0.0.1, the inject default)', '127.0.0.1'],
    ['a CIDR list containing the proxy', '10.0.0.0/8, 127.0.0.0/8'],
    ['true', 'true'],
    ['a hop count of 1', '1'],
  ])('client address with TRUST_PROXY = %s', (_name, trustProxy) => {
    const t = withConfig(getDb, { trustProxy });

    it('stores and locates the X-Forwarded-For client', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/proxied');
      const res = await scan(t(), row.slug, {
        headers: { 'x-forwarded-for': '8.8.8.8', 'user-agent': IPHONE },
      });
      expect(res.statusCode).toBe(302);
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: '8.8.8.8', location: 'United States', device: 'Mobile' });
    });

    it('falls back to the socket address without X-Forwarded-For', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/proxied');
      await scan(t(), row.slug);
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: '127.0.0.1', location: 'Unknown' });
    });
  });

  describe('client address from a proxy that appends the port', () => {
    const t = withConfig(getDb, { trustProxy: '127.0.0.1' });

    it.each([
      ['81.2.69.142:54321', '81.2.69.142', 'United Kingdom'],
      ['[2001:4860:4860::8888]:443', '2001:4860:4860::8888', 'United States'],
      ['8.8.8.8:1234', '8.8.8.8', 'United States'],
    ])('stores %s as the bare address %s and locates it', async (forwarded, ip, location) => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/port');
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': forwarded } });
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: ip, location });
    });
  });

  describe('client address with TRUST_PROXY listing two proxies by address', () => {
    const t = withConfig(getDb, { trustProxy: '10.9.9.9, 10.9.9.8' });

    it('believes either, in its IPv4 or IPv4-mapped IPv6 spelling, and no one else', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/two-proxies');
      const forwarded = { headers: { 'x-forwarded-for': '8.8.8.8' } };
      await scan(t(), row.slug, { ...forwarded, remoteAddress: '10.9.9.8' });
      await scan(t(), row.slug, { ...forwarded, remoteAddress: '::ffff:10.9.9.9' });
      await scan(t(), row.slug, { ...forwarded, remoteAddress: '10.9.9.7' });
      await scan(t(), row.slug, { ...forwarded, remoteAddress: '::ffff:10.9.9.7' });
      const scans = await scansOf(t());
      expect(scans.map((s) => s.ip_address)).toEqual(['8.8.8.8', '8.8.8.8', '10.9.9.7', '10.9.9.7']);
    });
  });

  describe('client address with TRUST_PROXY naming another proxy', () => {
    const t = withConfig(getDb, { trustProxy: '10.9.9.9' });

    it('does not believe X-Forwarded-For from an address that is not the trusted proxy', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/untrusted');
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': '8.8.8.8' }, remoteAddress: '81.2.69.142' });
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': '8.8.8.8' }, remoteAddress: '10.9.9.9' });
      const scans = await scansOf(t());
      expect(scans.map((s) => [s.ip_address, s.location])).toEqual([
        ['81.2.69.142', 'United Kingdom'],
        ['8.8.8.8', 'United States'],
      ]);
    });

    it('takes the client the trusted proxy saw, not an address the client forged before it', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/forged');
      // The client sent "X-Forwarded-For: 1.1.1.1"; the proxy appended the address it saw.
      await scan(t(), row.slug, {
        headers: { 'x-forwarded-for': '1.1.1.1, 81.2.69.142' },
        remoteAddress: '10.9.9.9',
      });
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: '81.2.69.142', location: 'United Kingdom' });
    });
  });

  describe('ANONYMIZE_IPS=true', () => {
    const t = withConfig(getDb, { anonymizeIps: true });

    it('stores an IPv4 address with its last octet zeroed', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon');
      await scan(t(), row.slug, { remoteAddress: '203.0.113.77' });
      await scan(t(), row.slug, { remoteAddress: '8.8.8.8' });
      await scan(t(), row.slug, { remoteAddress: '::ffff:198.51.100.23' });
      const scans = await scansOf(t());
      expect(scans.map((s) => s.ip_address)).toEqual(['203.0.113.0', '8.8.8.0', '198.51.100.0']);
      expect(scans[1]!.location).toBe('United States');
    });

    it('stores an IPv6 address with its last 80 bits zeroed', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon6');
      await scan(t(), row.slug, { remoteAddress: '2001:4860:4860:1234:5678:9abc:def0:8888' });
      const [stored] = await scansOf(t());
      const ip = stored!.ip_address!;
      expect(ip).not.toContain('8888');
      expect(ip).not.toContain('1234');
      // 2001:4860:4860:0:0:0:0:0, in whatever compressed form.
      const [head = '', tail] = ip.split('::');
      expect(tail).toBe('');
      expect(head.split(':').map((g) => Number.parseInt(g, 16))).toEqual([0x2001, 0x4860, 0x4860]);
      expect(stored!.location).toBe('United States');
    });

    it('keeps private addresses Unknown', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon-private');
      await scan(t(), row.slug);
      const [stored] = await scansOf(t());
      expect(stored).toMatchObject({ ip_address: '127.0.0.0', location: 'Unknown' });
    });
  });

  describe('ANONYMIZE_IPS=true behind a trusted proxy', () => {
    const t = withConfig(getDb, { anonymizeIps: true, trustProxy: '127.0.0.1' });

    it('anonymizes the forwarded client address, not the proxy’s', async () => {
      const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon-proxy');
      await scan(t(), row.slug, { headers: { 'x-forwarded-for': '203.0.113.77' } });
      const [stored] = await scansOf(t());
      expect(stored!.ip_address).toBe('203.0.113.0');
    });

    it.each([
      ['an IPv4 address with a port', '203.0.113.77:54321', '203.0.113.77'],
      ['a bracketed IPv6 address with a port', '[2001:db8:85a3:8d3::7348]:443', '8d3'],
    ])(
      'never stores the full client address when the proxy forwards %s',
      async (_name, forwarded, secret) => {
        // Some proxies (Azure Application Gateway, IIS ARR) append the client's port to X-Forwarded-For.
        const { row } = await dynamicCode(t(), 'url', 'https://example.com/anon-port');
        expect((await scan(t(), row.slug, { headers: { 'x-forwarded-for': forwarded } })).statusCode).toBe(
          302,
        );
        const [stored] = await scansOf(t());
        expect(stored!.ip_address ?? '').not.toContain(secret);
      },
    );
  });
});
