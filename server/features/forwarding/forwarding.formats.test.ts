import { describe, expect, it } from 'vitest';
import {
  addressToSend,
  campaignUrl,
  dailyVisitor,
  ga4ClientId,
  ga4Requests,
  matomoQuery,
  matomoTrackerUrl,
  plausibleEventUrl,
  type ForwardedScan,
} from './forwarding.formats.js';

const scan = (overrides: Partial<ForwardedScan> = {}): ForwardedScan => ({
  url: 'https://qr.example.com/r/menu?utm_source=qr&utm_medium=qr&utm_campaign=Menu',
  link: 'https://qr.example.com/r/menu',
  campaign: 'Menu',
  userAgent: 'UA',
  referrer: null,
  at: Date.UTC(2026, 11, 9, 10),
  address: null,
  visitor: dailyVisitor('salt', Date.UTC(2026, 11, 9, 10), '203.0.113.7', 'UA'),
  device: 'Mobile',
  outcome: { kind: 'default', rule: null },
  ...overrides,
});

describe('the address passed on', () => {
  it('is none, masked or as stored, and never more than stored', () => {
    expect(addressToSend('203.0.113.7', 'none')).toBeNull();
    expect(addressToSend('203.0.113.7', 'masked')).toBe('203.0.113.0');
    expect(addressToSend('203.0.113.7', 'full')).toBe('203.0.113.7');
    expect(addressToSend('::ffff:203.0.113.7', 'full')).toBe('203.0.113.7');
    expect(addressToSend('2001:db8:1:2:3:4:5:6', 'masked')).toBe('2001:db8:1::');
    // Stored masked (ANONYMIZE_IPS): "as stored" sends the masked address.
    expect(addressToSend('203.0.113.0', 'full')).toBe('203.0.113.0');
    expect(addressToSend('unknown', 'full')).toBeNull();
    expect(addressToSend(null, 'masked')).toBeNull();
  });
});

describe('the daily visitor id', () => {
  it('changes with the day and the salt, not within a day', () => {
    const day = Date.UTC(2026, 11, 9, 1);
    const a = dailyVisitor('salt', day, '203.0.113.7', 'UA');
    expect(dailyVisitor('salt', day + 3_600_000, '203.0.113.7', 'UA')).toBe(a);
    expect(dailyVisitor('salt', day + 86_400_000, '203.0.113.7', 'UA')).not.toBe(a);
    expect(dailyVisitor('other', day, '203.0.113.7', 'UA')).not.toBe(a);
    expect(ga4ClientId(a)).toMatch(/^\d+\.\d+$/);
  });
});

describe('addresses of the providers', () => {
  it('finds the tracker and the event endpoint', () => {
    expect(matomoTrackerUrl('https://matomo.example.com')).toBe('https://matomo.example.com/matomo.php');
    expect(matomoTrackerUrl('https://example.com/stats/')).toBe('https://example.com/stats/matomo.php');
    expect(matomoTrackerUrl('https://example.com/piwik.php')).toBe('https://example.com/piwik.php');
    expect(plausibleEventUrl('https://plausible.io')).toBe('https://plausible.io/api/event');
    expect(plausibleEventUrl('https://stats.example.com/p/')).toBe('https://stats.example.com/p/api/event');
    expect(campaignUrl('https://qr.example.com/r/menu', 'Café & co')).toBe(
      'https://qr.example.com/r/menu?utm_source=qr&utm_medium=qr&utm_campaign=Caf%C3%A9+%26+co',
    );
  });
});

describe('Matomo', () => {
  it('sends cdt without a token only for scans of the last day, and cip only with one', () => {
    const target = { trackerUrl: 'https://m.example/matomo.php', siteId: 3, tokenAuth: null };
    const old = scan({ at: Date.UTC(2026, 11, 8, 0), address: '203.0.113.0' });
    const q = new URLSearchParams(matomoQuery(target, old, Date.UTC(2026, 11, 9, 10)).slice(1));
    expect(q.has('cdt')).toBe(false);
    expect(q.has('cip')).toBe(false);
    const fresh = new URLSearchParams(matomoQuery(target, old, old.at + 60_000).slice(1));
    expect(fresh.get('cdt')).toBe(String(old.at / 1000));
    const withToken = new URLSearchParams(
      matomoQuery({ ...target, tokenAuth: 't' }, old, Date.UTC(2026, 11, 9, 10)).slice(1),
    );
    expect(withToken.get('cip')).toBe('203.0.113.0');
    expect(withToken.get('cdt')).toBe(String(old.at / 1000));
  });

  it('sends a refused scan as an event, not a page view', () => {
    const target = { trackerUrl: 'https://m.example/matomo.php', siteId: 3, tokenAuth: null };
    const q = new URLSearchParams(
      matomoQuery(target, scan({ outcome: { kind: 'ended', rule: null } }), Date.now()).slice(1),
    );
    expect(q.has('action_name')).toBe(false);
    expect([q.get('e_c'), q.get('e_a'), q.get('e_n')]).toEqual(['QR scan', 'Refused', 'Menu (ended)']);
  });
});

describe('GA4', () => {
  it('groups by visitor, at most 25 events a request', () => {
    const target = {
      collectUrl: 'https://www.google-analytics.com/mp/collect',
      measurementId: 'G-X1',
      apiSecret: 's',
    };
    const other = dailyVisitor('salt', Date.UTC(2026, 11, 9, 10), '198.51.100.1', 'UA');
    const scans = [...Array.from({ length: 26 }, () => scan()), scan({ visitor: other })];
    const requests = ga4Requests(target, scans);
    expect(requests.map((r) => r.scans)).toEqual([25, 1, 1]);
    expect(requests[0]!.url).toBe(
      'https://www.google-analytics.com/mp/collect?measurement_id=G-X1&api_secret=s',
    );
  });
});
