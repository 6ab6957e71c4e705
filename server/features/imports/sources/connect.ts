import { importMessages, importSourceLabels } from '../../../../src/imports/import.schema.js';
import {
  OutboundError,
  safeFetch,
  type OutboundPolicy,
  type SafeResponse,
} from '../../outbound/safe-fetch.js';
import { kuttApi } from './kutt-api.js';
import { shlinkApi, type FetchJson } from './shlink-api.js';
import { SourceError, type SourceApi } from './source.js';

/**
 * A Shlink or Kutt server's API, reached only through safeFetch (never a private address unless the
 * policy allows its host). Each request: 15 s at most, its answer read up to 8 MB. Redirects are followed
 * only on the same host (http → https included), so the API key is never sent elsewhere.
 */

export const API_TIMEOUT_MS = 15_000;
export const API_MAX_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 3;

export interface ConnectInput {
  source: 'shlink' | 'kutt';
  /** The server's address as the user typed it, with or without its API path. */
  url: string;
  apiKey: string;
}

/** The API paths a user may paste with the server's address, taken off. */
const API_PATHS: Record<ConnectInput['source'], RegExp> = {
  shlink: /\/rest(?:\/v\d+)?(?:\/short-urls)?$/i,
  kutt: /\/api(?:\/v\d+)?(?:\/links)?$/i,
};

/** The server's base address: no query, fragment, API path or trailing slash. */
export function apiBase(source: ConnectInput['source'], address: string): string {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw new SourceError(importMessages.unreachable(importSourceLabels[source]));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SourceError(importMessages.unreachable(importSourceLabels[source]));
  }
  const path = url.pathname.replace(/\/+$/, '').replace(API_PATHS[source], '').replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

function refusal(error: unknown, label: string): SourceError {
  if (error instanceof OutboundError) {
    if (error.reason === 'private') return new SourceError(importMessages.privateAddress);
    // An answer over the byte cap is no API page.
    if (error.reason === 'too-large') return new SourceError(importMessages.notSource(label));
  }
  return new SourceError(importMessages.unreachable(label));
}

/** Whether a redirect may be followed with the key: same host, same port or http → https. */
function sameServer(from: URL, to: URL): boolean {
  if (from.hostname !== to.hostname) return false;
  if (from.protocol === to.protocol) return from.port === to.port;
  return from.protocol === 'http:' && to.protocol === 'https:';
}

function jsonGetter(policy: OutboundPolicy, label: string): FetchJson {
  return async (address, headers) => {
    let url = new URL(address);
    let answer: SafeResponse;
    for (let hop = 0; ; hop++) {
      try {
        answer = await safeFetch(policy, url.href, {
          headers: { ...headers, accept: 'application/json' },
          timeoutMs: API_TIMEOUT_MS,
          maxBytes: API_MAX_BYTES,
        });
      } catch (error) {
        throw refusal(error, label);
      }
      const location = answer.headers.location;
      if (answer.status < 300 || answer.status >= 400 || !location) break;
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new SourceError(importMessages.notSource(label));
      }
      if (hop >= MAX_REDIRECTS || !sameServer(url, next))
        throw new SourceError(importMessages.notSource(label));
      url = next;
    }
    if (answer.status === 401 || answer.status === 403)
      throw new SourceError(importMessages.refusedKey(label));
    let json: unknown;
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch {
      json = undefined;
    }
    return { status: answer.status, json };
  };
}

/**
 * The API of the server the user named. Its links() follows every page (stopping at IMPORT_MAX_LINKS + 1
 * so the service can refuse); Shlink's visits(link) every page of the link's visits. Refusals are
 * SourceErrors: privateAddress, unreachable(label), refusedKey(label), notSource(label).
 */
export function connectSource(policy: OutboundPolicy, input: ConnectInput): SourceApi {
  const label = importSourceLabels[input.source];
  const base = apiBase(input.source, input.url);
  const fetchJson = jsonGetter(policy, label);
  const key = input.apiKey.trim();
  return input.source === 'shlink' ? shlinkApi(base, key, fetchJson) : kuttApi(base, key, fetchJson);
}
