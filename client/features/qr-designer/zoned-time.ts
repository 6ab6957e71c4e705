// Wall-clock times in a chosen time zone (what <input type="datetime-local"> shows, 'YYYY-MM-DDTHH:mm')
// and the instants the options store. The rules' zone is the owner's choice, not necessarily this
// browser's, so the browser's own local-time parsing cannot be used.
import { canonicalTimeZone, pad, timeZoneOffset } from '../../../src/qr/dates';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::00)?$/;

/** The offset of `timeZone` at that instant; 0 for UTC or a zone this engine does not know. */
const offsetAt = (date: Date, timeZone: string) => timeZoneOffset(date, timeZone) ?? 0;

/**
 * 'YYYY-MM-DDTHH:mm' read as the wall clock in `timeZone` → the ISO instant, or null when the text is no
 * such time. A wall time skipped by a daylight-saving change is read with the offset before the change
 * (02:30 on a spring-forward night becomes 03:30); a repeated one is the first of the two.
 */
export function zonedLocalToIso(local: string, timeZone: string): string | null {
  const m = LOCAL.exec(local.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, 0, 0);
  if (wall.getUTCDate() !== day) return null; // 31 April
  const w = wall.getTime();
  // The zone's offsets half a day either side (no zone changes twice in a day): the earlier one first, so
  // a repeated hour is its first occurrence.
  const before = offsetAt(new Date(w - 43_200_000), timeZone);
  const after = offsetAt(new Date(w + 43_200_000), timeZone);
  for (const offset of [before, after]) {
    const t = w - offset;
    if (offsetAt(new Date(t), timeZone) === offset) return new Date(t).toISOString();
  }
  return new Date(w - before).toISOString(); // in a gap: the offset before the change
}

/** An ISO instant → 'YYYY-MM-DDTHH:mm' on the wall clock of `timeZone`; '' for null or an invalid value. */
export function isoToZonedLocal(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  const d = new Date(t + offsetAt(new Date(t), timeZone));
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  );
}

/** This browser's time zone in the form the options store, or UTC. */
export function browserTimeZone(): string {
  try {
    return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';
  } catch {
    return 'UTC';
  }
}

let zones: string[] | undefined;

/** Every zone this browser knows (UTC first), plus `current` when the list lacks it. */
export function timeZoneChoices(current?: string): string[] {
  if (!zones) {
    let listed: string[];
    try {
      listed = Intl.supportedValuesOf('timeZone');
    } catch {
      listed = [];
    }
    zones = ['UTC', ...listed.filter((z) => z !== 'UTC')];
  }
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

const weekdayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A day of the week (0 = Sunday … 6) in `locale`: 'Monday', or 'Mon' with `short` ('Montag', 'Mo' in
 * German), written by Intl so every language has its own names.
 */
export function weekdayName(day: number, locale: string, width: 'long' | 'short' = 'long'): string {
  const key = `${locale}:${width}`;
  let format = weekdayFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' });
    weekdayFormats.set(key, format);
  }
  // 1 January 2023 was a Sunday.
  return format.format(new Date(Date.UTC(2023, 0, 1 + day)));
}
