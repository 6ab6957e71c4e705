/**
 * People type `example.com/menu`, not `https://example.com/menu`. A value with no scheme that starts with
 * something that looks like a host name (a dot between labels, no spaces) gets `https://` in front; anything
 * else is returned as it is, for the URL rule to judge ('Must be a valid URL').
 */
// A scheme, not a host followed by its port (`shop.example.com:8443`).
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;
const HOST_START =
  /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}[\p{L}\p{N}-]*(?::\d{1,5})?(?:[/?#]|$)/u;

export function withHttps(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || HAS_SCHEME.test(trimmed) || /\s/.test(trimmed)) return value;
  if (trimmed.startsWith('//')) return `https:${trimmed}`;
  return HOST_START.test(trimmed) ? `https://${trimmed}` : value;
}
