import net from 'node:net';

/** Private, loopback, link-local, shared (CGNAT) and "this network" IPv4 ranges: never located. */
export const PRIVATE_IPV4_RANGES = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const;

const privateRanges = new net.BlockList();
for (const [address, prefix] of PRIVATE_IPV4_RANGES) privateRanges.addSubnet(address, prefix, 'ipv4');
privateRanges.addAddress('::', 'ipv6');
privateRanges.addAddress('::1', 'ipv6');
privateRanges.addSubnet('fc00::', 7, 'ipv6');
privateRanges.addSubnet('fe80::', 10, 'ipv6');

const BARE_IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * The bare address: proxies may forward `1.2.3.4:5678` or `[2001:db8::1]:443`, and IPv4 seen through
 * an IPv6 socket arrives as `::ffff:1.2.3.4`.
 */
export function normalizeAddress(raw: string): string {
  // The common case, asked on every scan: a bare IPv4 address, nothing to take off.
  if (BARE_IPV4.test(raw)) return raw;
  const value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed?.[1]) return unmapIpv4(bracketed[1]);
  const v4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(value);
  if (v4WithPort?.[1]) return v4WithPort[1];
  return unmapIpv4(value);
}

/** `::ffff:1.2.3.4` (IPv4 seen through an IPv6 socket) is the IPv4 address. */
export function unmapIpv4(ip: string): string {
  // Asked several times a scan: only an address starting "::" can be a mapped one.
  if (ip.charCodeAt(0) !== 58 || ip.charCodeAt(1) !== 58) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped?.[1] ?? ip;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/;

/** PRIVATE_IPV4_RANGES as octet checks, without building a SocketAddress per scan. */
function isPrivateIpv4(a: number, b: number): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

export function isPrivateAddress(ip: string): boolean {
  const address = unmapIpv4(ip);
  const v4 = IPV4.exec(address);
  if (v4 && net.isIPv4(address)) return isPrivateIpv4(Number(v4[1]), Number(v4[2]));
  const family = net.isIP(address);
  if (family === 0) return true;
  return privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * ANONYMIZE_IPS: IPv4 keeps three octets, IPv6 its first 48 bits (the last 80 are zeroed). Anything
 * that is not an address at all is not stored.
 */
export function anonymizeAddress(ip: string): string | null {
  const address = normalizeAddress(ip);
  const family = net.isIP(address);
  if (family === 4) return address.replace(/\.\d+$/, '.0');
  if (family !== 6) return null;
  const [head = '', tail = ''] = address.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...headParts, ...Array<string>(8 - headParts.length - tailParts.length).fill('0'), ...tailParts]
    : address.split(':');
  const kept = groups.slice(0, 3).map((g) => Number.parseInt(g || '0', 16).toString(16));
  return `${kept.join(':')}::`;
}

/**
 * A client's address as the app stores it outside the scans (sessions, attempt keys): with
 * ANONYMIZE_IPS masked like a scan's (anonymizeAddress), so no full address is kept anywhere.
 */
export function storedAddress(config: { anonymizeIps: boolean }, ip: string): string {
  const address = unmapIpv4(ip);
  return config.anonymizeIps ? (anonymizeAddress(address) ?? 'unknown') : address;
}
