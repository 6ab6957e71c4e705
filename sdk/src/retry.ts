import { retryAfterSecondsOf } from './errors.js';

/** What the client learnt from the last answer's `RateLimit-*` headers (API tokens get them). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window starts again. */
  resetSeconds: number;
}

/** Said to `onRetry` before each wait. */
export interface RetryEvent {
  method: string;
  url: string;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** The answer that is retried (429, or 409 while the same Idempotency-Key is still running). */
  status?: number;
  /** The network error that is retried. */
  error?: unknown;
}

export interface RetryOptions {
  fetch: (request: Request) => Promise<Response>;
  maxRetries: number;
  /** A longer `Retry-After` than this is not waited for: the call fails with it instead. */
  maxRetryAfterSeconds: number;
  sleep: (ms: number) => Promise<void>;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  onRateLimit?: ((state: RateLimitState) => void) | undefined;
}

// A network failure may leave the server having done the work: only calls that are safe to repeat are
// repeated. POST is among them because every POST carries an Idempotency-Key (the server answers a
// repeat with the first answer instead of doing it twice).
const REPEATABLE = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'POST']);

/** Waits between network retries without a Retry-After: 0.5 s, 1 s, 2 s… at most 8 s. */
const backoffMs = (attempt: number) => Math.min(8000, 500 * 2 ** (attempt - 1));

export function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function rateLimitOf(headers: Headers): RateLimitState | undefined {
  const limit = Number(headers.get('RateLimit-Limit') ?? NaN);
  const remaining = Number(headers.get('RateLimit-Remaining') ?? NaN);
  const resetSeconds = Number(headers.get('RateLimit-Reset') ?? NaN);
  if ([limit, remaining, resetSeconds].some((n) => !Number.isFinite(n))) return undefined;
  return { limit, remaining, resetSeconds };
}

async function idempotencyKeyInUse(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return (
    typeof body === 'object' && body !== null && 'code' in body && body.code === 'IDEMPOTENCY_KEY_IN_USE'
  );
}

/**
 * A fetch that repeats a call the server asked to repeat later (429 with `Retry-After`; 409 while a
 * call with the same Idempotency-Key is still running) or that got no answer, up to `maxRetries`
 * times. Every POST gets one Idempotency-Key, made here once and sent again on each of its retries.
 */
export function retryingFetch(options: RetryOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method === 'POST' && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    }
    for (let attempt = 1; ; attempt++) {
      const last = attempt > options.maxRetries || request.signal.aborted;
      let response: Response;
      try {
        // Each try sends a copy: a body can be read once, and the original stays for the next try.
        response = await options.fetch(last ? request : request.clone());
      } catch (error) {
        if (last || !REPEATABLE.has(request.method) || request.signal.aborted) throw error;
        const delayMs = backoffMs(attempt);
        options.onRetry?.({ method: request.method, url: request.url, attempt, delayMs, error });
        await options.sleep(delayMs);
        continue;
      }
      const rateLimit = rateLimitOf(response.headers);
      if (rateLimit) options.onRateLimit?.(rateLimit);
      if (last) return response;
      let delayMs: number;
      if (response.status === 429) {
        const seconds = retryAfterSecondsOf(response.headers);
        if (seconds !== undefined && seconds > options.maxRetryAfterSeconds) return response;
        delayMs = seconds === undefined ? backoffMs(attempt) : seconds * 1000;
      } else if (await idempotencyKeyInUse(response)) {
        delayMs = (retryAfterSecondsOf(response.headers) ?? 0) * 1000 || backoffMs(attempt);
      } else {
        return response;
      }
      options.onRetry?.({
        method: request.method,
        url: request.url,
        attempt,
        delayMs,
        status: response.status,
      });
      // Nobody reads the refused answer: let its connection go.
      await response.body?.cancel().catch(() => undefined);
      await options.sleep(delayMs);
    }
  };
}
