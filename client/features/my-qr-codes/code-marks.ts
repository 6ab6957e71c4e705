// The small marks a code carries in My QR Codes: what its smart-redirect options do to a scan, at a glance.
import type { QrCode } from '../../../src/qr/qr.schema';

export type CodeMarkKind = 'password' | 'rules' | 'schedule' | 'limit' | 'paused';

export interface CodeMark {
  kind: CodeMarkKind;
  /** What the mark says, in full: its accessible name and its tooltip. */
  label: string;
  /** A short text shown beside the icon ('2' rules), if any. */
  short?: string;
  /** True when the mark is why scans are refused right now (paused, not started yet, ended). */
  stopped: boolean;
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
