// The small marks a code carries in My QR Codes: what its smart-redirect options do to a scan, at a glance,
// and whether one of its destinations is down (issue 35: dead destinations caught).
import { downMark } from '../../../src/qr/destination-check';
import type { DestinationIssue } from '../../../src/qr/destination-check.schema';
import type { QrCode } from '../../../src/qr/qr.schema';

export type CodeMarkKind = 'destination' | 'password' | 'rules' | 'schedule' | 'limit' | 'paused';

export interface CodeMark {
  kind: CodeMarkKind;
  /** What the mark says, in full: its accessible name and its tooltip. */
  label: string;
  /** A short text shown beside the icon ('2' rules), if any. */
  short?: string;
  /** True when the mark is why scans are refused right now (paused, not started yet, ended). */
  stopped: boolean;
  /** True when something is broken and wants the owner's attention (a destination down): drawn in red. */
  alert?: boolean;
}

/** '1 Dec', or '1 Dec 2027' outside the current year, in the viewer's zone (or `timeZone`). */
function dayLabel(ms: number, now: number, timeZone?: string): string {
  const year = (t: number) => new Intl.DateTimeFormat('en-GB', { year: 'numeric', timeZone }).format(t);
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: year(ms) === year(now) ? undefined : 'numeric',
    timeZone,
  }).format(ms);
}

/**
 * The marks of a code, in a fixed order: password, rules, schedule, scan limit, paused. A static code has
 * none. A schedule shows while it still matters: before it starts, until it ends, and once it has ended.
 */
export function codeMarks(
  code: Pick<QrCode, 'isDynamic' | 'hasPassword' | 'redirectOptions'>,
  now: number,
  timeZone?: string,
): CodeMark[] {
  if (!code.isDynamic) return [];
  const marks: CodeMark[] = [];
  if (code.hasPassword) marks.push({ kind: 'password', label: 'Password protected', stopped: false });
  const o = code.redirectOptions;
  if (!o) return marks;
  const rules = o.rules.length;
  if (rules > 0) {
    marks.push({
      kind: 'rules',
      label: `${rules} redirect ${rules === 1 ? 'rule' : 'rules'}`,
      short: String(rules),
      stopped: false,
    });
  }
  const from = o.activeFrom === null ? null : Date.parse(o.activeFrom);
  const until = o.activeUntil === null ? null : Date.parse(o.activeUntil);
  const day = (ms: number) => dayLabel(ms, now, timeZone);
  if (until !== null && until <= now) {
    marks.push({ kind: 'schedule', label: `Schedule ended ${day(until)}`, stopped: true });
  } else if (from !== null && from > now) {
    marks.push({
      kind: 'schedule',
      label: `Scheduled: starts ${day(from)}${until === null ? '' : `, ends ${day(until)}`}`,
      stopped: true,
    });
  } else if (until !== null) {
    marks.push({ kind: 'schedule', label: `Scheduled: ends ${day(until)}`, stopped: false });
  }
  // Whether the limit is reached is the server's to say: it counts served scans only (no bots, no
  // refused or simulated scans), which the list does not know.
  if (o.maxScans !== null) {
    marks.push({ kind: 'limit', label: `Scan limit: ${o.maxScans.toLocaleString('en-US')}`, stopped: false });
  }
  if (o.paused) marks.push({ kind: 'paused', label: 'Paused', stopped: true });
  return marks;
}

// ---- Dead destinations ----

/** Problems worded as what the URL does ("Opens a 404"), which read on after the URL's label. */
const VERB = /^(Opens|Does|Refuses|Fails)\b/;

/**
 * One failing URL of a code in words: "Opens a 404 since 2 days" for its destination, "Rule 2: Destination
 * opens a 404 since 2 days" for another of its URLs, and "· scans go to the fallback URL" when they do.
 */
export function destinationIssueText(
  issue: Pick<DestinationIssue, 'label' | 'problem' | 'since' | 'usingFallback'>,
  now: number,
): string {
  const mark = downMark(issue, new Date(now));
  const lower = mark.charAt(0).toLowerCase() + mark.slice(1);
  const text =
    issue.label === 'Destination'
      ? mark
      : VERB.test(mark)
        ? `${issue.label} ${lower}`
        : `${issue.label}: ${lower}`;
  return issue.usingFallback ? `${text} · scans go to the fallback URL` : text;
}

/**
 * The red mark of a code whose destination (or a rule's, or its fallback URL) is down, or none. A URL
 * that failed once is not marked: one failure is not confirmed (a server restarting, a network blip).
 * Several down URLs make one mark that names each.
 */
export function destinationMark(
  issues: readonly DestinationIssue[] | undefined,
  now: number,
): CodeMark | null {
  const down = (issues ?? []).filter((issue) => issue.state === 'down');
  if (down.length === 0) return null;
  return {
    kind: 'destination',
    label: down.map((issue) => destinationIssueText(issue, now)).join('; '),
    stopped: false,
    alert: true,
  };
}

/** A code's marks with its destination mark first (when one of its URLs is down). */
export function withDestinationMark(
  marks: CodeMark[],
  issues: readonly DestinationIssue[] | undefined,
  now: number,
): CodeMark[] {
  const mark = destinationMark(issues, now);
  return mark ? [mark, ...marks] : marks;
}
