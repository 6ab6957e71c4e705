// Number and date formatters shared by the dashboard, the analytics page and the code details page.

// The viewer's zone, apart for the route tree (routes.ts), which asks for the pages' data.
export { viewerTimeZone } from './time-zone';

/** A 'YYYY-MM-DD' calendar date as a Date at UTC midnight, so formatting in UTC gives that very day. */
function utcDay(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

const weekdayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });
const shortDateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDateFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** 'Mon' … 'Sun' for a calendar date (the server's local day, not the browser's UTC day). */
export function weekdayLabel(date: string): string {
  return weekdayFormat.format(utcDay(date));
}
/** 'Jun 8'. */
export function shortDateLabel(date: string): string {
  return shortDateFormat.format(utcDay(date));
}
/** 'Mon, Jun 8, 2026'. */
export function longDateLabel(date: string): string {
  return longDateFormat.format(utcDay(date));
}

/** 0 → '12 AM', 13 → '1 PM'. */
export function hourLabel(hour: number): string {
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** Share of a total in percent, 0 when the total is 0. */
export function percentOf(count: number, total: number): number {
  return total > 0 ? (count / total) * 100 : 0;
}
/** '42%', '4.5%', '<0.1%'. */
export function formatPercent(count: number, total: number): string {
  const p = percentOf(count, total);
  if (p === 0) return '0%';
  if (p < 0.1) return '<0.1%';
  return `${p >= 10 ? Math.round(p) : Math.round(p * 10) / 10}%`;
}

const numberFormat = new Intl.NumberFormat('en-US');
export function formatCount(n: number): string {
  return numberFormat.format(n);
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** '3 minutes ago', '2 days ago'; 'just now' under five seconds (and for clocks slightly ahead). */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (Number.isNaN(seconds)) return 'Unknown';
  if (seconds < 5) return 'just now';
  if (seconds < 60) return relative.format(-seconds, 'second');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days < 30) return relative.format(-days, 'day');
  if (days < 365) return relative.format(-Math.floor(days / 30), 'month');
  return relative.format(-Math.floor(days / 365), 'year');
}

/** The exact local time of an ISO timestamp, in the viewer's locale. */
export function exactTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'Unknown';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The local date of an ISO timestamp, in the viewer's locale ('Nov 25, 2026'). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'Unknown';
  return date.toLocaleDateString(undefined, { dateStyle: 'medium' });
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

/** '512 B', '12.3 KB', '4.1 MB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** '1 scan', '1,204 scans'. */
export function scansLabel(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'scan' : 'scans'}`;
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

/** 'just now', '5 min ago', '2 h ago', '3 d ago', '4 mo ago', '2 y ago': a compact relative time. */
export function shortAgo(iso: string, now: number): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (Number.isNaN(seconds)) return 'Unknown';
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days} d ago`;
  if (days < 365) return `${Math.floor(days / 30)} mo ago`;
  return `${Math.floor(days / 365)} y ago`;
}

/** A code's last scan: 'Never' without one, else a compact relative time ('2 h ago'). */
export function lastScanLabel(iso: string | null, now: number): string {
  return iso === null ? 'Never' : shortAgo(iso, now);
}
