import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { isPrivateAddress } from '../scans/client-address.js';
import { APP_VERSION } from '../../version.js';

/**
 * The server's only way to fetch an address a user gave (a Shlink or Kutt server to import from, a
 * code's destination to check): never a private, loopback, link-local, CGNAT, multicast or reserved
 * address, decided on the address the name resolves to at connect time (no second lookup to race), and
 * again for every redirect hop. OUTBOUND_ALLOWED_HOSTS names hosts (or addresses) that may be private
 * anyway: an intranet's own Shlink, or the tests' local stand-ins.
 */

export const OUTBOUND_USER_AGENT = `QR-Creator/${APP_VERSION} (+link check; self-hosted)`;

export interface OutboundPolicy {
  /** Host names or addresses (lower case) allowed although they are, or resolve to, private addresses. */
  allowedHosts: readonly string[];
}

export interface SafeFetchOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  /**
   * A POST's body (its Content-Type in `headers`; its Content-Length is set). Never sent again: a POST
   * answered 301, 302 or 303 is followed (within maxRedirects) as a GET without body or `headers`, as
   * browsers do (Google Apps Script answers its POSTs so); a 307 or 308 is the answer.
   */
  body?: string | Buffer;
  /** The whole exchange, redirects included (default 10 s). */
  timeoutMs?: number;
  /** The most body bytes read (default 5 MB); a longer body is refused. */
  maxBytes?: number;
  /** Redirects followed (default 0: a 3xx is the answer). */
  maxRedirects?: number;
  /** Stop reading the body after the headers (a HEAD-like GET of a link check). */
  discardBody?: boolean;
  /**
   * Keep the connection open for the next request to the same host (webhooks and analytics forwarding
   * post to one receiver again and again: no new TCP and TLS handshake each time). A socket is checked
   * when it connects, as any other, and only reused for the same host under the same policy.
   */
  keepAlive?: boolean;
}

export interface SafeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The address that answered (after redirects). */
  url: string;
}

/** Why a fetch did not get an answer, in a closed set the callers word for their users. */
export type OutboundFailure = 'private' | 'dns' | 'tls' | 'timeout' | 'refused' | 'too-large' | 'protocol';

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

const reservedV4 = new net.BlockList();
reservedV4.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
reservedV4.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, broadcast
reservedV4.addSubnet('198.18.0.0', 15, 'ipv4'); // benchmarking
reservedV4.addSubnet('192.0.0.0', 24, 'ipv4'); // protocol assignments
const reservedV6 = new net.BlockList();
reservedV6.addSubnet('ff00::', 8, 'ipv6'); // multicast
reservedV6.addSubnet('64:ff9b::', 96, 'ipv6'); // NAT64 can reach private IPv4

/** An address no user-given fetch may reach. */
export function isForbiddenAddress(address: string): boolean {
  if (isPrivateAddress(address)) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isForbiddenAddress(mapped);
  const family = net.isIP(address);
  if (family === 4) return reservedV4.check(address, 'ipv4');
  if (family === 6) return reservedV6.check(address, 'ipv6');
  return true;
}

function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function isAllowed(policy: OutboundPolicy, host: string): boolean {
  return policy.allowedHosts.includes(host);
}

/**
 * Whether `url` names a private or loopback place without asking DNS (an address, or localhost) that the
 * policy does not allow: a form can refuse it at once. A name that resolves to one is refused when fetched.
 */
export function namesPrivatePlace(policy: OutboundPolicy, url: URL): boolean {
  const host = bareHost(url);
  if (isAllowed(policy, host)) return false;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return net.isIP(host) !== 0 && isForbiddenAddress(host);
}

/** dns.lookup that refuses forbidden addresses (unless the host is allowed). */
function guardedLookup(policy: OutboundPolicy, host: string): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses;
      const bad = !isAllowed(policy, host) && list.some((a) => isForbiddenAddress(a.address));
      if (bad) {
        return callback(new OutboundError('private', `${host} is on a private network`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new OutboundError('dns', `${host} has no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/** Keep-alive pools, one pair per policy: a socket a policy allowed is never reused under another one. */
const keepAliveAgents = new WeakMap<OutboundPolicy, { http: http.Agent; https: https.Agent }>();

function keepAliveAgent(policy: OutboundPolicy, protocol: string): http.Agent {
  let agents = keepAliveAgents.get(policy);
  if (!agents) {
    // Idle sockets are closed after 4 s, before a Node receiver's own 5 s (servers close idle ones too: a
    // request on a socket closed meanwhile is sent again on a new one, see requestOnce).
    const options = { keepAlive: true, maxSockets: 8, maxFreeSockets: 4, timeout: 4_000 };
    agents = { http: new http.Agent(options), https: new https.Agent(options) };
    keepAliveAgents.set(policy, agents);
  }
  return protocol === 'https:' ? agents.https : agents.http;
}

/** A kept-alive socket found closed by the other side when reused (see requestOnce). */
class StaleConnection extends Error {}

function failureOf(error: unknown): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = (error as { code?: string }).code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA')
    return new OutboundError('dns', message);
  if (
    code.startsWith('ERR_TLS') ||
    code.includes('CERT') ||
    code === 'EPROTO' ||
    /certificate|SSL/i.test(message)
  )
    return new OutboundError('tls', message);
  if (code === 'ETIMEDOUT' || code === 'ABORT_ERR') return new OutboundError('timeout', message);
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return new OutboundError('refused', message);
  return new OutboundError('protocol', message);
}

function requestOnce(
  policy: OutboundPolicy,
  url: URL,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<SafeResponse> {
  const host = bareHost(url);
  if (net.isIP(host) !== 0 && !isAllowed(policy, host) && isForbiddenAddress(host)) {
    return Promise.reject(new OutboundError('private', `${host} is on a private network`));
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!isAllowed(policy, host)) {
      return Promise.reject(new OutboundError('private', `${host} is on a private network`));
    }
  }
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SafeResponse>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: {
          'user-agent': OUTBOUND_USER_AGENT,
          accept: '*/*',
          ...options.headers,
          ...(options.body !== undefined
            ? { 'content-length': String(Buffer.byteLength(options.body)) }
            : {}),
        },
        lookup: guardedLookup(policy, host),
        signal,
        // Without keepAlive, no pool: each request is its own connection, so a lookup always runs.
        agent: options.keepAlive ? keepAliveAgent(policy, url.protocol) : false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            url: url.href,
          });
        if (options.discardBody || options.method === 'HEAD') {
          res.destroy();
          done();
          return;
        }
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new OutboundError('too-large', `The answer is over ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', done);
        res.on('error', (error) => reject(failureOf(error)));
      },
    );
    req.on('error', (error) => {
      // A kept connection the receiver closed as it was reused: the request never reached it; said apart
      // so that it is sent once more on a new connection.
      const code = (error as { code?: string }).code;
      if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) reject(new StaleConnection());
      else reject(failureOf(error));
    });
    req.end(options.body);
  });
}

/**
 * Fetches `address` under the policy: each hop's address checked when it connects, redirects (when
 * allowed) followed only to http(s) and checked again.
 */
export async function safeFetch(
  policy: OutboundPolicy,
  address: string,
  options: SafeFetchOptions = {},
): Promise<SafeResponse> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new OutboundError('protocol', 'Not a web address');
  }
  const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  let request = options;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundError('protocol', 'Only http and https addresses are fetched');
    }
    let answer: SafeResponse;
    try {
      answer = await requestOnce(policy, url, request, signal).catch((error: unknown) => {
        if (!(error instanceof StaleConnection)) throw error;
        return requestOnce(policy, url, { ...request, keepAlive: false }, signal);
      });
    } catch (error) {
      if (signal.aborted) throw new OutboundError('timeout', 'No answer in time');
      throw failureOf(error);
    }
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400 && location && hop < (options.maxRedirects ?? 0)) {
      if (request.method === 'POST') {
        if (answer.status === 307 || answer.status === 308) return answer;
        request = { ...request, method: 'GET', body: undefined, headers: undefined };
      }
      url = new URL(location, url);
      continue;
    }
    return answer;
  }
}
