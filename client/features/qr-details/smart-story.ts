// The details page's words for a smart code: each rule's conditions, its schedule in the code's zone,
// its status now, and its UTM parameters ("Operating system is iOS and country is France or Belgium").
// Its functions run as the card draws (never at import time), in the language active then.
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import {
  dayNames,
  deviceLabels,
  osLabels,
  scheduleState,
  utmKeys,
  type RuleCondition,
  type SmartRedirect,
} from '../../../src/qr/smart-redirect';
import { translateShared } from '../../i18n/shared-messages';
import { countryName, languageName } from '../qr-designer/regions';

/** English as before ('1 Dec 2026, 09:00', 'a, b or c'); another language in its own way. */
const english = () => i18n.locale === 'en';

/** 'a, b or c'. */
function anyOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  if (!english()) return new Intl.ListFormat(i18n.locale, { type: 'disjunction' }).format(items);
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/**
 * A device's name inside the sentence ('device is phone or tablet'): src/'s English name in the active
 * language, in lower case where the language writes it so (German keeps its nouns' capital).
 */
function deviceName(device: keyof typeof deviceLabels): string {
  const name = translateShared(deviceLabels[device]);
  return i18n.locale === 'de' ? name : name.toLocaleLowerCase(i18n.locale);
}

/** 0 = Sunday, in the active language (2023-01-01 was a Sunday). */
function dayName(day: number): string {
  if (english()) return dayNames[day]!;
  return new Intl.DateTimeFormat(i18n.locale, { weekday: 'long', timeZone: 'UTC' }).format(
    Date.UTC(2023, 0, 1 + day),
  );
}

/** Sunday to Saturday in order, a run of every day as 'every day', weekdays as 'Monday to Friday'. */
function daysInWords(days: readonly number[]): string {
  const sorted = [...days].sort((a, b) => a - b);
  if (sorted.length === 7) return t`every day`;
  if (sorted.join() === '1,2,3,4,5') return t`Monday to Friday`;
  if (sorted.join() === '0,6') return t`Saturday and Sunday`;
  return anyOf(sorted.map(dayName));
}

function dateTimeIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(english() ? 'en-GB' : i18n.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(new Date(iso));
}

/** One condition in words: 'operating system is iOS or Android'. */
export function conditionInWords(c: RuleCondition, timeZone: string): string {
  switch (c.kind) {
    case 'device': {
      // The device names come from src/qr/smart-redirect.ts.
      const devices = anyOf(c.devices.map(deviceName));
      return t`device is ${devices}`;
    }
    case 'os': {
      const systems = anyOf(c.os.map((o) => osLabels[o]));
      return t`operating system is ${systems}`;
    }
    case 'country': {
      const countries = anyOf(c.countries.map(countryName));
      return t`country is ${countries}`;
    }
    case 'language': {
      const languages = anyOf(c.languages.map(languageName));
      return t`browser accepts ${languages}`;
    }
    case 'time': {
      const days = daysInWords(c.days);
      if (c.from === c.until) return t`on ${days}`;
      const from = c.from;
      const until = c.until;
      return t`${days}, ${from}–${until}`;
    }
    case 'dates': {
      const from = c.from ? dateTimeIn(c.from, timeZone) : '';
      const until = c.until ? dateTimeIn(c.until, timeZone) : '';
      if (from && until) return t`from ${from} until ${until}`;
      return from ? t`from ${from}` : t`until ${until}`;
    }
    case 'scans': {
      const after = c.after;
      // English says "scans" for 1 as well, as it always has.
      return plural(after, { one: 'after # scans', other: 'after # scans' });
    }
  }
}

/** A rule's conditions in words, capitalised: 'Operating system is iOS and country is France'. */
export function ruleInWords(conditions: readonly RuleCondition[], timeZone: string): string {
  const words = conditions.map((c) => conditionInWords(c, timeZone));
  const text = words.length === 0 ? '' : words.reduce((all, condition) => t`${all} and ${condition}`);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The active window in the code's zone: 'From 1 Dec 2026, 09:00 until 24 Dec 2026, 18:00', or null. */
export function scheduleInWords(options: SmartRedirect): string | null {
  const { activeFrom, activeUntil, timeZone } = options;
  if (activeFrom === null && activeUntil === null) return null;
  const from = activeFrom !== null ? dateTimeIn(activeFrom, timeZone) : '';
  const until = activeUntil !== null ? dateTimeIn(activeUntil, timeZone) : '';
  const span = from && until ? t`From ${from} until ${until}` : from ? t`From ${from}` : t`Until ${until}`;
  return `${span} (${timeZone.replace(/_/g, ' ')})`;
}

export type CodeStatus = 'active' | 'paused' | 'not-started' | 'ended' | 'limit';

/** The status badge's words, translated where it is drawn. */
export const statusLabels: Record<CodeStatus, MessageDescriptor> = {
  active: msg({ message: 'Active', context: 'status of a code' }),
  paused: msg({ message: 'Paused', context: 'status of a code' }),
  'not-started': msg`Not started yet`,
  ended: msg({ message: 'Ended', context: 'status of a code' }),
  limit: msg`Scan limit reached`,
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
