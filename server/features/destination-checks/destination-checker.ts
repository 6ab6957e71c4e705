import { destinationProblems, type DestinationProblem } from '../../../src/qr/destination-check.js';
import { OutboundError, safeFetch, type OutboundPolicy } from '../outbound/safe-fetch.js';

/** What one check of a URL found. */
export type CheckResult =
  | { kind: 'ok'; httpStatus: number }
  | { kind: 'failed'; problem: string; cause: DestinationProblem; httpStatus: number | null }
  /** Not ours to check (a private address, unless allowed): never marked. */
  | { kind: 'skipped' };

export interface CheckOptions {
  timeoutMs: number;
}

/** Statuses a HEAD may answer although a GET of the page works (servers that refuse or ignore HEAD). */
const RETRY_WITH_GET = new Set([400, 403, 404, 405, 406, 429, 500, 501, 502, 503]);

/**
 * Checks one destination as a scanner's browser would reach it: HEAD first (no body), then a GET (its body
 * left unread) when the HEAD fails in a way some servers answer HEAD alone; redirects followed (each hop
 * checked like the first). A status of 400 or above, or no answer (DNS, TLS, time-out, refused), fails.
 */
export async function checkDestination(
  policy: OutboundPolicy,
  url: string,
  options: CheckOptions,
): Promise<CheckResult> {
  const ask = (method: 'HEAD' | 'GET') =>
    safeFetch(policy, url, {
      method,
      timeoutMs: options.timeoutMs,
      maxRedirects: 5,
      discardBody: true,
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
  try {
    let answer = await ask('HEAD').catch((error: unknown) => {
      // A server that drops HEAD requests may still serve the page.
      if (error instanceof OutboundError && (error.reason === 'protocol' || error.reason === 'timeout'))
        return null;
      throw error;
    });
    if (answer === null || RETRY_WITH_GET.has(answer.status)) answer = await ask('GET');
    if (answer.status >= 400)
      return {
        kind: 'failed',
        problem: destinationProblems.http(answer.status),
        cause: { kind: 'http', status: answer.status },
        httpStatus: answer.status,
      };
    return { kind: 'ok', httpStatus: answer.status };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.reason === 'private') return { kind: 'skipped' };
    const reason = error.reason;
    if (reason === 'too-large') return { kind: 'ok', httpStatus: 200 };
    return {
      kind: 'failed',
      problem: destinationProblems[reason],
      cause: { kind: reason },
      httpStatus: null,
    };
  }
}
