import net from 'node:net';
import { isPrivateAddress } from '../scans/client-address.js';

// Where a dynamic code may send its scanners. Never to one of this server's own short links (a loop:
// each hop is a recorded scan), however the address is spelled, and never to a loopback or private
// address or a `localhost` name, which from a scanner's phone means the phone itself and from this
// server could reach its own or its network's services.

function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * A link to this instance's short links, on its public host under any scheme or port, or anything below
 * the root of one of its short domains (`isShortDomain`: every path there is a short link or its page).
 */
export function pointsAtOwnShortLink(
  publicUrl: string,
  destination: string,
  isShortDomain?: (host: string) => boolean,
): boolean {
  let target: URL;
  try {
    target = new URL(destination);
  } catch {
    return false;
  }
  const base = new URL(publicUrl);
  const prefix = `${base.pathname.replace(/\/+$/, '')}/r/`.toLowerCase();
  // Parsed paths: dot segments, case, doubled slashes and default ports cannot disguise a short link.
  const path = target.pathname.replace(/\/{2,}/g, '/').toLowerCase();
  const host = hostOf(target);
  if (isShortDomain?.(host) && path !== '/') return true;
  return host === hostOf(base) && path.startsWith(prefix);
}

/** `localhost` in any spelling, or a loopback, private, link-local or unspecified address. */
export function pointsAtLocalHost(destination: string): boolean {
  let target: URL;
  try {
    target = new URL(destination);
  } catch {
    return false;
  }
  const host = hostOf(target);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return net.isIP(host) !== 0 && isPrivateAddress(host);
}
