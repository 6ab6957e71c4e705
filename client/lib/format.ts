// Number and date formatters shared by the dashboard, the analytics page and the code details page, in the
// language of the app's screens (Lingui's active locale, client/i18n): English until one is active, so the
// unit tests and the browser tests' Node side, which import this module as it is, read English.
import { i18n } from '@lingui/core';

// The viewer's zone, apart for the route tree (routes.ts), which asks for the pages' data.
export { viewerTimeZone } from './time-zone';

/** The screens' language, a BCP 47 tag ('en', 'de', 'pt-BR'…). */
function language(): string {
  return i18n.locale || 'en';
}
const isEnglish = (locale: string) => locale === 'en' || locale.startsWith('en-');
/** The tag Intl is given: US English for English, as these labels always were ('Jun 8', '1,204'). */
const intlTag = (locale: string) => (locale === 'en' ? 'en-US' : locale);

/** One formatter per language and kind, made when first needed. */
const formatters = new Map<string, unknown>();
function cached<T>(kind: string, make: (tag: string) => T): T {
  const locale = language();
  const key = `${locale}|${kind}`;
  let formatter = formatters.get(key) as T | undefined;
  if (formatter === undefined) {
    formatter = make(intlTag(locale));
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * The few words of this module, in the app's catalog (client/locales). Written as Lingui's macros write a
 * message (`{ id, message }`, the id generated from the message and its context) and marked for
 * `npm run i18n:extract`, without a macro: the browser tests' Node side imports this module untransformed.
 */
const words = {
  unknown: /*i18n*/ {
    id: 'iv0rnL',
    message: 'Unknown',
    context: 'a date or time that cannot be read',
  },
  justNow: /*i18n*/ { id: 'xOTzt5', message: 'just now' },
  never: /*i18n*/ {
    id: '57ZXay',
    message: 'Never',
    context: 'last scan: the code has never been scanned',
  },
  scans: /*i18n*/ { id: 'BI/Q9x', message: '{count, plural, one {# scan} other {# scans}}' },
} as const;

/** The messages above, for format.test.ts, which checks that each id is the one Lingui generates. */
export const formatWords: readonly { id: string; message: string; context?: string }[] = Object.values(words);

/** A message in the screens' language; `english` (the message as English says it) while none else is active. */
function say(word: keyof typeof words, english: string, values?: Record<string, unknown>): string {
  const { id } = words[word];
  if (isEnglish(language()) || i18n.messages[id] === undefined) return english;
  return i18n._(id, values);
}

/** A 'YYYY-MM-DD' calendar date as a Date at UTC midnight, so formatting in UTC gives that very day. */
function utcDay(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

const weekdayFormat = () =>
  cached('weekday', (tag) => new Intl.DateTimeFormat(tag, { weekday: 'short', timeZone: 'UTC' }));
const shortDateFormat = () =>
  cached(
    'shortDate',
    (tag) => new Intl.DateTimeFormat(tag, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
  );
const longDateFormat = () =>
  cached(
    'longDate',
    (tag) =>
      new Intl.DateTimeFormat(tag, {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      }),
  );
const hourFormat = () =>
  cached(
    'hour',
    (tag) => new Intl.DateTimeFormat(tag, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }),
  );

/** 'Mon' … 'Sun' for a calendar date (the server's local day, not the browser's UTC day). */
export function weekdayLabel(date: string): string {
  return weekdayFormat().format(utcDay(date));
}
/** 'Jun 8'. */
export function shortDateLabel(date: string): string {
  return shortDateFormat().format(utcDay(date));
}
/** 'Mon, Jun 8, 2026'. */
export function longDateLabel(date: string): string {
  return longDateFormat().format(utcDay(date));
}

/** 0 → '12 AM', 13 → '1 PM'; in another language as its clocks say it ('13:00', '1:00 م'). */
export function hourLabel(hour: number): string {
  if (!isEnglish(language())) return hourFormat().format(Date.UTC(2000, 0, 1, hour));
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** Share of a total in percent, 0 when the total is 0. */
export function percentOf(count: number, total: number): number {
  return total > 0 ? (count / total) * 100 : 0;
}
const percentFormat = () =>
  cached('percent', (tag) => new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 1 }));

/** '42%', '4.5%', '<0.1%' (in German '42 %', '4,5 %'). */
export function formatPercent(count: number, total: number): string {
  const p = percentOf(count, total);
  const format = percentFormat();
  if (p === 0) return format.format(0);
  if (p < 0.1) return `<${format.format(0.001)}`;
  const rounded = p >= 10 ? Math.round(p) : Math.round(p * 10) / 10;
  return format.format(rounded / 100);
}

const numberFormat = () => cached('number', (tag) => new Intl.NumberFormat(tag));
export function formatCount(n: number): string {
  return numberFormat().format(n);
}

const relative = () => cached('relative', (tag) => new Intl.RelativeTimeFormat(tag, { numeric: 'always' }));
const unknownTime = () => say('unknown', 'Unknown');

/** '3 minutes ago', '2 days ago'; 'just now' under five seconds (and for clocks slightly ahead). */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (Number.isNaN(seconds)) return unknownTime();
  if (seconds < 5) return say('justNow', 'just now');
  const format = relative();
  if (seconds < 60) return format.format(-seconds, 'second');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return format.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return format.format(-hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days < 30) return format.format(-days, 'day');
  if (days < 365) return format.format(-Math.floor(days / 30), 'month');
  return format.format(-Math.floor(days / 365), 'year');
}

/** The exact local time of an ISO timestamp, in the screens' language. */
export function exactTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return unknownTime();
  return date.toLocaleString(intlTag(language()), { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The local date of an ISO timestamp, in the screens' language ('Nov 25, 2026'). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return unknownTime();
  return date.toLocaleDateString(intlTag(language()), { dateStyle: 'medium' });
}

/** 'YYYY-MM-DD' of a Date in the browser's zone (what a native date input shows). */
export function localIsoDate(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** Today and `days` calendar days before it, in the browser's zone. */
export function daysBefore(today: Date, days: number): Date {
  const d = new Date(today);
  d.setDate(d.getDate() - days);
  return d;
}

const byteFormat = (unit: 'byte' | 'kilobyte' | 'megabyte') =>
  cached(
    unit,
    (tag) =>
      new Intl.NumberFormat(tag, {
        style: 'unit',
        unit,
        ...(unit === 'byte' ? {} : { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      }),
  );

/** '512 B', '12.3 KB', '4.1 MB' (in French '12,3 ko'). */
export function formatBytes(bytes: number): string {
  if (isEnglish(language())) {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  }
  if (bytes < 1024) return byteFormat('byte').format(bytes);
  if (bytes < 1024 * 1024) return byteFormat('kilobyte').format(bytes / 1024);
  return byteFormat('megabyte').format(bytes / (1024 * 1024));
}

/** '1 scan', '1,204 scans'. */
export function scansLabel(n: number): string {
  return say('scans', `${formatCount(n)} ${n === 1 ? 'scan' : 'scans'}`, { count: n });
}

/**
 * Text cut in the middle so that both ends show: `https://example.com/…/spring-menu`. A URL keeps its
 * origin and as much of its end as fits, cut at a '/' when one falls in that end; other text keeps a
 * little more of its end than its start. At most `max` characters (the '…' counts as one).
 */
export function middleTruncate(text: string, max: number): string {
  const chars = Array.from(text); // code points: never half an emoji
  if (chars.length <= max) return text;
  if (max <= 1) return '…';
  const url = /^([a-z][a-z\d+.-]*:\/\/[^/?#]+)([/?#].*)$/is.exec(text);
  if (url) {
    const origin = Array.from(url[1]!);
    const rest = Array.from(url[2]!);
    // The origin, '/…' and at least eight characters of the end; a longer origin is cut like any text.
    const room = max - origin.length - 2;
    if (room >= 8) {
      let tail = rest.slice(rest.length - room);
      const slash = tail.indexOf('/');
      // Start the end at a path boundary when one leaves a useful end ('/…/spring-menu').
      if (slash >= 0 && tail.length - slash > 4) tail = tail.slice(slash);
      return `${origin.join('')}/…${tail.join('')}`;
    }
  }
  const head = Math.floor((max - 1) * 0.45);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/**
 * Another language's compact relative time, as Intl writes it ('vor 5 Min.', 'il y a 2 h', '3日前'). Arabic
 * takes the narrow style: ICU's short one says 'خلال 3 أشهر' ("within") for three months ago.
 */
const compactRelative = () =>
  cached(
    'compactRelative',
    (tag) =>
      new Intl.RelativeTimeFormat(tag, {
        numeric: 'always',
        style: tag.startsWith('ar') ? 'narrow' : 'short',
      }),
  );

/** 'just now', '5 min ago', '2 h ago', '3 d ago', '4 mo ago', '2 y ago': a compact relative time. */
export function shortAgo(iso: string, now: number): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (Number.isNaN(seconds)) return unknownTime();
  if (seconds < 60) return say('justNow', 'just now');
  const english = isEnglish(language());
  const ago = (n: number, unit: Intl.RelativeTimeFormatUnit, short: string) =>
    english ? `${n} ${short} ago` : compactRelative().format(-n, unit);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return ago(minutes, 'minute', 'min');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return ago(hours, 'hour', 'h');
  const days = Math.floor(hours / 24);
  if (days < 30) return ago(days, 'day', 'd');
  if (days < 365) return ago(Math.floor(days / 30), 'month', 'mo');
  return ago(Math.floor(days / 365), 'year', 'y');
}

/** A code's last scan: 'Never' without one, else a compact relative time ('2 h ago'). */
export function lastScanLabel(iso: string | null, now: number): string {
  return iso === null ? say('never', 'Never') : shortAgo(iso, now);
}
