/** One masking for the scan history (client) and the reports (server). */
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/**
 * An address masked to its first two parts: 203.0.113.7 → 203.0.*.*; 2001:db8::1 → 2001:db8:*:*.
 * IPv4-mapped IPv6 addresses are shown as IPv4. Missing or unreadable addresses are 'Unknown'.
 */
export function maskIp(ip: string | null | undefined): string {
  const value = ip?.trim().split('%')[0] ?? '';
  if (!value) return 'Unknown';
  const v4 = IPV4.exec(value.replace(/^::ffff:/i, ''));
  if (v4) return `${v4[1]}.${v4[2]}.*.*`;
  if (!value.includes(':')) return 'Unknown';
  const halves = value.split('::');
  if (halves.length > 2) return 'Unknown';
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves[1] ? halves[1].split(':') : [];
  const groups =
    halves.length === 2
      ? [...head, ...new Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail]
      : head;
  const [a, b] = groups;
  if (a === undefined || b === undefined || !HEX_GROUP.test(a) || !HEX_GROUP.test(b)) return 'Unknown';
  return `${a.toLowerCase()}:${b.toLowerCase()}:*:*`;
}
