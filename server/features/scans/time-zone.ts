import { DAY_MS, QUARTER_MS } from './rollup-model.js';

const HOUR_MS = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size > 500) formatters.clear();
    formatters.set(tz, f);
  }
  return f;
}

const OFFSET_CACHE_MAX = 50_000;
const offsetCache = new Map<string, number>();

/** The zone's offset from UTC at an instant, in ms (local = utc + offset). Remembered per instant. */
export function offsetAt(tz: string, ms: number): number {
  if (tz === 'UTC' || tz === 'Etc/UTC') return 0;
  const key = `${tz} ${ms}`;
  const hit = offsetCache.get(key);
  if (hit !== undefined) return hit;
  const offset = computeOffset(tz, ms);
  if (offsetCache.size >= OFFSET_CACHE_MAX) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

function computeOffset(tz: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(tz).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  return local - Math.floor(ms / 1000) * 1000;
}

/**
 * A zone's offsets over [from, to]: segments that start where the offset changes. Sampled once a
 * day (no zone changes its offset twice within a day), each change then found to the quarter hour by
 * bisection — a 90-day period costs about ninety formatter calls, not one per bucket.
 */
export class ZoneOffsets {
  private readonly starts: number[] = [];
  private readonly offsets: number[] = [];

  constructor(
    readonly tz: string,
    from: number,
    to: number,
  ) {
    const step = 24 * HOUR_MS;
    let last = offsetAt(tz, from);
    this.starts.push(-Infinity);
    this.offsets.push(last);
    if (tz === 'UTC' || tz === 'Etc/UTC') return;
    for (let t = from; t < to; t += step) {
      const next = Math.min(t + step, to);
      const o = offsetAt(tz, next);
      if (o === last) continue;
      // The first quarter hour in (t, next] with the new offset.
      let lo = Math.floor(t / QUARTER_MS);
      let hi = Math.ceil(next / QUARTER_MS);
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetAt(tz, mid * QUARTER_MS) === last) lo = mid;
        else hi = mid;
      }
      this.starts.push(hi * QUARTER_MS);
      this.offsets.push(o);
      last = o;
    }
  }

  /** The stretches of [from, to) with one offset each, in order. */
  segments(from: number, to: number): { from: number; to: number; offset: number }[] {
    const out: { from: number; to: number; offset: number }[] = [];
    for (let i = 0; i < this.starts.length; i++) {
      const start = Math.max(from, this.starts[i]!);
      const end = Math.min(to, this.starts[i + 1] ?? Infinity);
      if (start < end) out.push({ from: start, to: end, offset: this.offsets[i]! });
    }
    return out;
  }

  /** The offset at `ms` (within the range given to the constructor). */
  at(ms: number): number {
    let i = this.starts.length - 1;
    while (i > 0 && this.starts[i]! > ms) i--;
    return this.offsets[i]!;
  }
}

/** Local day number (days since 1970-01-01 in the zone) of an instant. */
export function localDay(ms: number, offset: number): number {
  return Math.floor((ms + offset) / DAY_MS);
}

/** Local hour (0–23) of an instant. */
export function localHour(ms: number, offset: number): number {
  return Math.floor(((((ms + offset) % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS);
}

/** YYYY-MM-DD of a local day number. */
export function dayLabel(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Local day number of a YYYY-MM-DD date. */
export function dayOfLabel(label: string): number {
  return Math.floor(Date.parse(`${label}T00:00:00Z`) / DAY_MS);
}

/** The first instant of local day `day` in the zone (DST-safe: the first instant whose local day is `day`). */
export function startOfLocalDay(tz: string, day: number): number {
  const wall = day * DAY_MS;
  let guess = wall - offsetAt(tz, wall);
  guess = wall - offsetAt(tz, guess);
  // Where midnight does not exist (a DST jump at 00:00), step to the first quarter hour of the day.
  while (localDay(guess, offsetAt(tz, guess)) < day) guess += QUARTER_MS;
  while (localDay(guess - QUARTER_MS, offsetAt(tz, guess - QUARTER_MS)) >= day) guess -= QUARTER_MS;
  return guess;
}

/** Today's local day number in the zone. */
export function today(tz: string, now: number): number {
  return localDay(now, offsetAt(tz, now));
}
