import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  SHORT_DOMAIN_ROOT,
  SHORT_DOMAIN_UNKNOWN,
  shortDomainOf,
  shortDomainPath,
  shortDomainRewrite,
} from './short-domain-host.js';
import { hostOf, ShortDomainRegistry, type ShortDomainEntry } from './short-domains.registry.js';

const entry = (id: number, hostname: string): ShortDomainEntry => ({
  id,
  hostname,
  allWorkspaces: true,
  workspaceIds: new Set(),
  rootUrl: null,
  notFoundUrl: null,
});

const request = (host: string | undefined, url: string) =>
  ({ url, headers: host === undefined ? {} : { host } }) as unknown as IncomingMessage;

describe("a short domain's paths", () => {
  it.each([
    ['/', SHORT_DOMAIN_ROOT],
    ['/?utm_source=x', `${SHORT_DOMAIN_ROOT}?utm_source=x`],
    ['/menu', '/r/menu'],
    ['/Menu_2-x?a=1&b=2', '/r/Menu_2-x?a=1&b=2'],
    ['/r/menu', '/r/menu'],
    ['/menu/contact.vcf', '/r/menu/contact.vcf'],
    ['/r/menu/event.ics?x', '/r/menu/event.ics?x'],
    ['/menu/', SHORT_DOMAIN_UNKNOWN],
    ['/menu/other', SHORT_DOMAIN_UNKNOWN],
    ['/r/', SHORT_DOMAIN_UNKNOWN],
    ['/r', SHORT_DOMAIN_UNKNOWN],
    ['/api/user', SHORT_DOMAIN_UNKNOWN],
    ['/trpc/auth.me', SHORT_DOMAIN_UNKNOWN],
    ['/assets/index-abc.js', SHORT_DOMAIN_UNKNOWN],
    ['/caf%C3%A9', SHORT_DOMAIN_UNKNOWN],
    ['/a.b', SHORT_DOMAIN_UNKNOWN],
    ['http://go.example.com/menu', SHORT_DOMAIN_UNKNOWN],
  ])('%s goes to %s', (url, path) => {
    expect(shortDomainPath(url)).toBe(path);
  });
});

describe('the rewrite by Host', () => {
  const registry = new ShortDomainRegistry();
  registry.replace([entry(1, 'go.example.com'), entry(2, 'qr.example.com')]);
  const rewrite = shortDomainRewrite(registry, 'qr.example.com');

  it('maps a short domain in any case, with a port or a trailing dot, and remembers it on the request', () => {
    for (const host of ['go.example.com', 'GO.Example.com:8443', 'go.example.com.']) {
      const req = request(host, '/menu');
      expect(rewrite(req), host).toBe('/r/menu');
      expect(shortDomainOf({ raw: req })?.id).toBe(1);
    }
  });

  it("leaves every other host alone, the app's own too, even when a domain has its name", () => {
    for (const host of ['qr.example.com', 'localhost:3000', '[::1]:3000', undefined, 'evil.example.com']) {
      const req = request(host, '/create');
      expect(rewrite(req), String(host)).toBe('/create');
      expect(shortDomainOf({ raw: req })).toBeUndefined();
    }
  });

  it('reads no Host at all while there is no domain', () => {
    const none = shortDomainRewrite(new ShortDomainRegistry(), 'qr.example.com');
    expect(none(request('go.example.com', '/menu'))).toBe('/menu');
  });

  it('takes the host of a Host header as a domain is stored', () => {
    expect(hostOf('Go.Example.COM:80')).toBe('go.example.com');
    expect(hostOf('[::1]:3000')).toBe('[::1]');
    expect(hostOf(undefined)).toBe('');
  });
});
