/**
 * Dead destinations caught (issue 35, item 4): every active dynamic code's destination, its rules' and its
 * fallback URL are checked in the background at most once a day per URL; a URL failing twice in a row is
 * "down" and marked on the code's card, its details page and the dashboard, and its owners are mailed once.
 *
 * The words of the checks, apart from their schemas (destination-check.schema.ts): the dashboard's and the
 * list's marks use them without zod, which the first load of / would otherwise take in (30 KB).
 */

/** What a check found wrong: a status, or how the request failed (the mails say it in their language). */
export type DestinationProblem =
  { kind: 'http'; status: number } | { kind: 'dns' | 'tls' | 'timeout' | 'refused' | 'protocol' };

/** What a check found wrong, in words (the mark says "Opens a 404 since 2 days"). */
export const destinationProblems = {
  http: (status: number) =>
    status === 404 ? 'Opens a 404' : status >= 500 ? `Server error ${status}` : `Opens a ${status}`,
  dns: 'Its address does not resolve',
  tls: 'Its certificate is not valid',
  timeout: 'Does not answer in time',
  refused: 'Refuses the connection',
  protocol: 'Does not answer as a web page',
} as const;

export const destinationCheckMessages = {
  /** The answer of "Check again" when the code's URLs all answer. */
  allGood: 'Every destination answers',
  tooSoon: 'This destination was checked less than a minute ago',
  notDynamic: 'Only a dynamic code has a destination to check',
} as const;

/** What a mark needs of an issue (DestinationIssue). */
export interface DownIssue {
  problem: string | null;
  since: string | null;
}

/** "since 2 days", "since today", "since yesterday": how long a destination has been failing. */
export function sinceText(since: string, now: Date): string {
  const days = Math.floor((now.getTime() - Date.parse(since)) / 86_400_000);
  if (days <= 0) return 'since today';
  if (days === 1) return 'since yesterday';
  return `since ${days} days`;
}

/** The mark of a down destination: "Opens a 404 since 2 days". */
export function downMark(issue: DownIssue, now: Date): string {
  const problem = issue.problem ?? 'Fails';
  return issue.since ? `${problem} ${sinceText(issue.since, now)}` : problem;
}
