import { setTimeout as sleep } from 'node:timers/promises';
import { OutboundError, safeFetch, type OutboundPolicy } from '../outbound/safe-fetch.js';
import type { ProviderRequest } from './forwarding.formats.js';

/** What a provider said to one request. */
export interface ProviderAnswer {
  ok: boolean;
  /** null: no answer (time-out, refused, DNS, a private address not allowed). */
  httpStatus: number | null;
  message: string;
}

export interface SendOptions {
  /** One request's whole exchange. */
  timeoutMs: number;
  /** The pauses before the second and later tries (3 tries over about a minute by default). */
  retryDelaysMs: readonly number[];
}

export const defaultSendOptions: SendOptions = { timeoutMs: 5_000, retryDelaysMs: [10_000, 30_000] };

const reasons: Record<string, string> = {
  private: 'The address is on a private network (OUTBOUND_ALLOWED_HOSTS may allow it)',
  dns: 'The address does not resolve',
  tls: 'The certificate is not valid',
  timeout: 'No answer in time',
  refused: 'The connection was refused',
  'too-large': 'The answer was too large',
  protocol: 'Not an http(s) answer',
};

/** The start of an answer's body, on one line (what the settings card and the test show). */
function excerpt(body: Buffer): string {
  return body.toString('utf8', 0, 300).replace(/\s+/g, ' ').trim();
}

/** Posts one request (never following a redirect, never to a private address unless allowed). */
export async function postOnce(
  policy: OutboundPolicy,
  request: ProviderRequest,
  timeoutMs: number,
): Promise<ProviderAnswer> {
  try {
    const answer = await safeFetch(policy, request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      timeoutMs,
      maxBytes: 64 * 1024,
      keepAlive: true,
    });
    const ok = answer.status >= 200 && answer.status < 300;
    const text = excerpt(answer.body);
    return {
      ok,
      httpStatus: answer.status,
      message: text || (ok ? `Accepted (${answer.status})` : `The provider answered ${answer.status}`),
    };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return { ok: false, httpStatus: null, message: reasons[error.reason] ?? error.message };
  }
}

/** A status worth trying again: no answer, a time-out or rate limit, a server error. */
function retryable(answer: ProviderAnswer): boolean {
  const s = answer.httpStatus;
  return s === null || s === 408 || s === 429 || s >= 500;
}

/** Posts one request, trying again after each of `retryDelaysMs` while the failure may pass. */
export async function postWithRetry(
  policy: OutboundPolicy,
  request: ProviderRequest,
  options: SendOptions,
): Promise<ProviderAnswer> {
  let answer = await postOnce(policy, request, options.timeoutMs);
  for (const delay of options.retryDelaysMs) {
    if (answer.ok || !retryable(answer)) break;
    await sleep(delay, undefined, { ref: false });
    answer = await postOnce(policy, request, options.timeoutMs);
  }
  return answer;
}

export interface DeliveryOutcome {
  sent: number;
  failed: number;
  /** The last failure, if any. */
  error: { message: string; httpStatus: number | null } | null;
}

/**
 * A workspace's requests, one after another. Once one has failed every try without an answer or with a
 * server error, the provider is taken to be down for this turn: the rest are given up at once instead of
 * each waiting out its own tries. A refusal of one request (a 4xx) does not stop the others.
 */
export async function deliver(
  policy: OutboundPolicy,
  requests: readonly ProviderRequest[],
  options: SendOptions,
): Promise<DeliveryOutcome> {
  const outcome: DeliveryOutcome = { sent: 0, failed: 0, error: null };
  let down = false;
  for (const request of requests) {
    if (down) {
      outcome.failed += request.scans;
      continue;
    }
    const answer = await postWithRetry(policy, request, options);
    if (answer.ok) outcome.sent += request.scans;
    else {
      outcome.failed += request.scans;
      outcome.error = { message: answer.message, httpStatus: answer.httpStatus };
      down = retryable(answer);
    }
  }
  return outcome;
}

/** Runs `work` over `items`, at most `limit` at once. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
