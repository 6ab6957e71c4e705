// The small marks a code carries in My QR Codes: what its smart-redirect options do to a scan, at a glance,
// and whether one of its destinations is down (issue 35: dead destinations caught).
import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import { downMark } from '../../../src/qr/destination-check';
import type { DestinationIssue } from '../../../src/qr/destination-check.schema';
import type { QrCode } from '../../../src/qr/qr.schema';
import { translateShared } from '../../i18n/shared-messages';

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

/** English days are written day first ('1 Dec'); another language writes them its own way. */
const dateLocale = () => (i18n.locale === 'en' ? 'en-GB' : i18n.locale);

/** '1 Dec', or '1 Dec 2027' outside the current year, in the viewer's zone (or `timeZone`). */
function dayLabel(ms: number, now: number, timeZone?: string): string {
  const locale = dateLocale();
  const year = (ms: number) => new Intl.DateTimeFormat(locale, { year: 'numeric', timeZone }).format(ms);
  return new Intl.DateTimeFormat(locale, {
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
  if (code.hasPassword) marks.push({ kind: 'password', label: t`Password protected`, stopped: false });
  const o = code.redirectOptions;
  if (!o) return marks;
  const rules = o.rules.length;
  if (rules > 0) {
    marks.push({
      kind: 'rules',
      label: plural(rules, { one: '# redirect rule', other: '# redirect rules' }),
      short: String(rules),
      stopped: false,
    });
  }
  const from = o.activeFrom === null ? null : Date.parse(o.activeFrom);
  const until = o.activeUntil === null ? null : Date.parse(o.activeUntil);
  const day = (ms: number) => dayLabel(ms, now, timeZone);
  if (until !== null && until <= now) {
    const end = day(until);
    marks.push({ kind: 'schedule', label: t`Schedule ended ${end}`, stopped: true });
  } else if (from !== null && from > now) {
    const start = day(from);
    const end = until === null ? null : day(until);
    marks.push({
      kind: 'schedule',
      label: end === null ? t`Scheduled: starts ${start}` : t`Scheduled: starts ${start}, ends ${end}`,
      stopped: true,
    });
  } else if (until !== null) {
    const end = day(until);
    marks.push({ kind: 'schedule', label: t`Scheduled: ends ${end}`, stopped: false });
  }
  // Whether the limit is reached is the server's to say: it counts served scans only (no bots, no
  // refused or simulated scans), which the list does not know.
  if (o.maxScans !== null) {
    const limit = o.maxScans.toLocaleString(i18n.locale);
    marks.push({ kind: 'limit', label: t`Scan limit: ${limit}`, stopped: false });
  }
  if (o.paused) marks.push({ kind: 'paused', label: t`Paused`, stopped: true });
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
  let text: string;
  if (i18n.locale === 'en') {
    const lower = mark.charAt(0).toLowerCase() + mark.slice(1);
    text =
      issue.label === 'Destination'
        ? mark
        : VERB.test(mark)
          ? `${issue.label} ${lower}`
          : `${issue.label}: ${lower}`;
  } else {
    // The URL's label and its problem come from src/ in English: each is translated, and the problem follows
    // the label after a colon, in lower case (but in German, whose nouns keep their capital).
    const translated = translateShared(mark);
    if (issue.label === 'Destination') text = translated;
    else {
      const label = translateShared(issue.label);
      const problem =
        i18n.locale === 'de'
          ? translated
          : translated.charAt(0).toLocaleLowerCase(i18n.locale) + translated.slice(1);
      text = t({
        message: `${label}: ${problem}`,
        comment: 'A URL of a code that does not work: "Rule 2: Destination: opens a 404 since 2 days"',
      });
    }
  }
  return issue.usingFallback ? t`${text} · scans go to the fallback URL` : text;
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
