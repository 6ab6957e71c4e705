import { DAY_MS } from '../scans/rollup-model.js';
import { startOfLocalDay, today } from '../scans/time-zone.js';

/**
 * The stretch of time an analytics answer covers: [from, to) in ms, and the local days it spans (for
 * daily series). A period of `days` is the viewer's local today and the days before it, from local
 * midnight; all time has no start; a report's period is its inclusive local dates.
 */
export interface Period {
  from: number;
  to: number;
  firstDay: number;
  lastDay: number;
}

/** The local today in `tz` and the `days - 1` days before it, from local midnight, open-ended. */
export function periodOf(tz: string, days: number, now: number): Period {
  const lastDay = today(tz, now);
  const firstDay = lastDay - days + 1;
  return { from: startOfLocalDay(tz, firstDay), to: Infinity, firstDay, lastDay };
}

/** Everything up to now; its daily series (which nobody asks for) would have no first day. */
export function allTimePeriod(tz: string, now: number): Period {
  return { from: -Infinity, to: Infinity, firstDay: -Infinity, lastDay: today(tz, now) };
}

/** A report's inclusive local dates. */
export function datesPeriod(tz: string, firstDay: number, lastDay: number): Period {
  return { from: startOfLocalDay(tz, firstDay), to: startOfLocalDay(tz, lastDay + 1), firstDay, lastDay };
}

/** Whole UTC days as day numbers [first, end); either end may be open (±Infinity). */
export interface UtcDays {
  first: number;
  end: number;
}

/**
 * A period cut at UTC midnights: the whole UTC days inside it (read from the day tables), and the
 * partial days at its ends (ms ranges [from, to), read at a finer grain). A period within one UTC day
 * is all ragged.
 */
export function splitAtUtcDays(period: Period): { wholeDays: UtcDays | null; ragged: [number, number][] } {
  const first = period.from === -Infinity ? -Infinity : Math.ceil(period.from / DAY_MS);
  const end = period.to === Infinity ? Infinity : Math.floor(period.to / DAY_MS);
  if (end <= first) return { wholeDays: null, ragged: [[period.from, period.to]] };
  const ragged: [number, number][] = [];
  if (first > -Infinity && period.from < first * DAY_MS) ragged.push([period.from, first * DAY_MS]);
  if (end < Infinity && period.to > end * DAY_MS) ragged.push([end * DAY_MS, period.to]);
  return { wholeDays: { first, end }, ragged };
}
