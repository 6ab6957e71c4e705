import type { Locale } from '../../../../src/i18n/locales.js';

/** Numbers, dates and plurals in one language, for the mails' words (messages.ts). */
export interface Formatters {
  /** 1234 → "1,234" (en), "1.234" (de), "1 234" (fr). */
  count(n: number): string;
  /** A calendar day ('2026-12-06') written in full: "December 6, 2026", "6. Dezember 2026". */
  day(isoDay: string): string;
  /** A date: "Dec 6, 2026" in the given zone (UTC by default). */
  date(at: Date, timeZone?: string): string;
  /** A moment with its zone: "Dec 6, 2026, 14:05 UTC". */
  dateTime(at: Date, timeZone?: string): string;
  /**
   * The form for `n` by the language's plural rules (Intl.PluralRules): `other` always, `one`, `two`,
   * `few`, `many`, `zero` where the language has them.
   */
  plural(n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }): string;
}

const cache = new Map<Locale, Formatters>();

/** A zone Intl knows, else UTC (a stored zone is checked when saved; this keeps a mail from failing). */
function zoneOr(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export function formatters(locale: Locale): Formatters {
  let f = cache.get(locale);
  if (f) return f;
  const numbers = new Intl.NumberFormat(locale);
  const plurals = new Intl.PluralRules(locale);
  f = {
    count: (n) => numbers.format(n),
    day: (isoDay) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(`${isoDay}T12:00:00Z`),
      ),
    date: (at, timeZone) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: zoneOr(timeZone) }).format(at),
    dateTime: (at, timeZone) =>
      // dateStyle and timeZoneName do not go together: the fields one by one.
      new Intl.DateTimeFormat(locale, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZone: zoneOr(timeZone),
        timeZoneName: 'short',
      }).format(at),
    plural: (n, forms) => forms[plurals.select(n)] ?? forms.other,
  };
  cache.set(locale, f);
  return f;
}
