import { BlockList, isIP } from 'node:net';
import type { User } from '../../../src/auth/auth.schema.js';
import type { SessionDeps } from '../../app-deps.js';
import { deleteSession } from './sessions.repository.js';
import type { ProxyConfig } from './sso.config.js';
import { LINK_COOKIE, signInExternal } from './sso-sign-in.js';

// A trusted reverse proxy (oauth2-proxy, Authelia, an Authentik outpost) that has already signed the
// person in and says who they are in `Remote-User` (and `Remote-Email`, `Remote-Name`, `Remote-Groups`).
// Those headers are believed only from the proxy's own addresses, read off the connection itself (never
// X-Forwarded-For, which anyone can write): from any other client they are ignored. The session such a
// sign-in starts lives only as long as the proxy keeps vouching: a request of that session without the
// header, or with another person's, ends it.

const blockLists = new WeakMap<ProxyConfig, BlockList>();

function blockListOf(proxy: ProxyConfig): BlockList {
  let list = blockLists.get(proxy);
  if (!list) {
    list = new BlockList();
    for (const entry of proxy.trustedAddresses) {
      const [address, bits] = entry.split('/');
      const family = isIP(address ?? '') === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(address!, family);
      else list.addSubnet(address!, Number(bits), family);
    }
    blockLists.set(proxy, list);
  }
  return list;
}

/** Whether the connection's own peer address is one of the proxy's. */
export function fromTrustedProxy(proxy: ProxyConfig, peer: string | undefined): boolean {
  if (!peer || proxy.trustedAddresses.length === 0) return false;
  const address = peer.startsWith('::ffff:') && isIP(peer.slice(7)) === 4 ? peer.slice(7) : peer;
  const family = isIP(address);
  if (family === 0) return false;
  return blockListOf(proxy).check(address, family === 6 ? 'ipv6' : 'ipv4');
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text ? text.slice(0, 254) : undefined;
}

export interface ProxyRequest {
  peer: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The signed-in person of a request as the proxy says it: the session's own when it matches the header,
 * else a new sign-in (just in time). `session` is what the cookie gave. Answers the user and session id
 * to use, or null (signed out).
 */
export async function proxySession(
  ctx: SessionDeps,
  proxy: ProxyConfig,
  request: ProxyRequest,
  session: { id: string; user: User; sso: { provider: string; subject: string } | null } | null,
): Promise<{ user: User; sessionId: string } | null> {
  const trusted = fromTrustedProxy(proxy, request.peer);
  const remoteUser = trusted ? header(request.headers, proxy.userHeader) : undefined;
  const proxySigned = session?.sso?.provider === 'proxy';
  if (!remoteUser) {
    // The proxy no longer vouches (or this request did not come through it): its session ends.
    if (session && proxySigned) {
      await deleteSession(ctx.db, session.id);
      return null;
    }
    return session ? { user: session.user, sessionId: session.id } : null;
  }
  if (session && proxySigned && session.sso!.subject === remoteUser) {
    return { user: session.user, sessionId: session.id };
  }
  // A local sign-in in a browser the proxy now names someone else for: the proxy wins.
  if (session) await deleteSession(ctx.db, session.id);
  // Waiting for the person to prove an existing account's password (/auth/link): no new request each call.
  if (ctx.cookies.read(LINK_COOKIE)) return null;
  const email = header(request.headers, proxy.emailHeader) ?? null;
  const groups = (header(request.headers, proxy.groupsHeader) ?? '')
    // Comma-separated (Authelia, oauth2-proxy) or pipe-separated (Authentik's outpost).
    .split(/[,|]/)
    .map((g) => g.trim())
    .filter(Boolean);
  const result = await signInExternal(
    { ...ctx, sessionId: null },
    {
      provider: 'proxy',
      subject: remoteUser,
      username: remoteUser,
      email,
      // The proxy signed the person in with the company's identity provider: its address is the company's.
      emailVerified: email !== null,
      name: header(request.headers, proxy.nameHeader) ?? null,
      groups,
    },
  );
  if (result.status !== 'signed-in' || !result.sessionId) return null;
  return { user: result.user, sessionId: result.sessionId };
}
