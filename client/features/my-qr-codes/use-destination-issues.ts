// The workspace's failing destinations (issue 35: dead destinations caught), asked once for the page
// however many cards, rows, cards on the details page or alerts read them: one query, one cache entry.
import type { DestinationIssue } from '../../../src/qr/destination-check.schema';
import { trpc } from '../../lib/trpc';

/** The checks run in the background at most daily: a page opened again after a minute asks again. */
const STALE_MS = 60_000;

type Answer = { items: DestinationIssue[] };

const byCodeOf = new WeakMap<Answer, Map<number, DestinationIssue[]>>();

/** The answer's issues by code id, built once per answer (every card reads the same map). */
function byCode(answer: Answer): Map<number, DestinationIssue[]> {
  let map = byCodeOf.get(answer);
  if (!map) {
    map = new Map();
    for (const issue of answer.items) map.set(issue.codeId, [...(map.get(issue.codeId) ?? []), issue]);
    byCodeOf.set(answer, map);
  }
  return map;
}

/** The `destinations.issues` query itself (its loading and error states), as every caller shares it. */
export function useDestinationIssuesQuery() {
  return trpc.destinations.issues.useQuery(undefined, { staleTime: STALE_MS });
}

/**
 * The workspace's failing and down URLs by code id (undefined while loading or when the question failed:
 * a page is whole without its marks). Every caller shares the one `destinations.issues` query.
 */
export function useDestinationIssues(): Map<number, DestinationIssue[]> | undefined {
  const { data } = useDestinationIssuesQuery();
  return data ? byCode(data) : undefined;
}
