// The details page's words for a smart code: each rule's conditions, its schedule in the code's zone,
// its status now, and its UTM parameters ("Operating system is iOS and country is France or Belgium").
import {
  dayNames,
  deviceLabels,
  osLabels,
  scheduleState,
  utmKeys,
  type RuleCondition,
  type SmartRedirect,
} from '../../../src/qr/smart-redirect';
import { countryName, languageName } from '../qr-designer/regions';

/** 'a, b or c'. */
function anyOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** Sunday to Saturday in order, a run of every day as 'every day', weekdays as 'Monday to Friday'. */
function daysInWords(days: readonly number[]): string {
  const sorted = [...days].sort((a, b) => a - b);
  if (sorted.length === 7) return 'every day';
  if (sorted.join() === '1,2,3,4,5') return 'Monday to Friday';
  if (sorted.join() === '0,6') return 'Saturday and Sunday';
  return anyOf(sorted.map((d) => dayNames[d]!));
}

function dateTimeIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(new Date(iso));
}

/** One condition in words: 'operating system is iOS or Android'. */
export function conditionInWords(c: RuleCondition, timeZone: string): string {
  switch (c.kind) {
    case 'device':
      return `device is ${anyOf(c.devices.map((d) => deviceLabels[d].toLowerCase()))}`;
    case 'os':
      return `operating system is ${anyOf(c.os.map((o) => osLabels[o]))}`;
    case 'country':
      return `country is ${anyOf(c.countries.map(countryName))}`;
    case 'language':
      return `browser accepts ${anyOf(c.languages.map(languageName))}`;
    case 'time':
      return c.from === c.until
        ? `on ${daysInWords(c.days)}`
        : `${daysInWords(c.days)}, ${c.from}–${c.until}`;
    case 'dates':
      if (c.from && c.until)
        return `from ${dateTimeIn(c.from, timeZone)} until ${dateTimeIn(c.until, timeZone)}`;
      return c.from ? `from ${dateTimeIn(c.from, timeZone)}` : `until ${dateTimeIn(c.until!, timeZone)}`;
    case 'scans':
      return `after ${c.after.toLocaleString('en')} scans`;
  }
}

/** A rule's conditions in words, capitalised: 'Operating system is iOS and country is France'. */
export function ruleInWords(conditions: readonly RuleCondition[], timeZone: string): string {
  const text = conditions.map((c) => conditionInWords(c, timeZone)).join(' and ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The active window in the code's zone: 'From 1 Dec 2026, 09:00 until 24 Dec 2026, 18:00', or null. */
export function scheduleInWords(options: SmartRedirect): string | null {
  const { activeFrom, activeUntil, timeZone } = options;
  if (activeFrom === null && activeUntil === null) return null;
  const parts = [
    activeFrom !== null ? `From ${dateTimeIn(activeFrom, timeZone)}` : null,
    activeUntil !== null
      ? `${activeFrom !== null ? 'until' : 'Until'} ${dateTimeIn(activeUntil, timeZone)}`
      : null,
  ].filter(Boolean);
  return `${parts.join(' ')} (${timeZone.replace(/_/g, ' ')})`;
}

export type CodeStatus = 'active' | 'paused' | 'not-started' | 'ended' | 'limit';

export const statusLabels: Record<CodeStatus, string> = {
  active: 'Active',
  paused: 'Paused',
  'not-started': 'Not started yet',
  ended: 'Ended',
  limit: 'Scan limit reached',
};

/** Whether a scan now would be served, and if not why (in the server's order). */
export function statusNow(options: SmartRedirect | null, servedScans: number | null, now: Date): CodeStatus {
  if (!options) return 'active';
  const state = scheduleState(options, now);
  if (state) return state;
  if (options.maxScans !== null && servedScans !== null && servedScans >= options.maxScans) return 'limit';
  return 'active';
}

/** 'utm_source=qr, utm_campaign=spring', or null without UTM parameters. */
export function utmInWords(options: SmartRedirect | null): string | null {
  const utm = options?.utm;
  if (!utm) return null;
  return utmKeys
    .map((key) => {
      const value = key === 'source' ? utm.source || 'qr' : utm[key];
      return value ? `utm_${key}=${value}` : null;
    })
    .filter(Boolean)
    .join(', ');
}
