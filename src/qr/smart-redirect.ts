/**
 * Smart redirects of a dynamic link code: ordered rules (conditions → destination, first match wins), an
 * active window, a scan limit, pause, a fallback for an inactive code, UTM parameters and query forwarding.
 * Shared by the server (which decides every scan of /r/<slug>) and the designer (which edits the options
 * and tries them against a sample scan). Pure: zod and src only.
 */
import { z } from 'zod';
import { acceptedLanguages } from '../i18n/locales.js';
import { canonicalDateTime, canonicalTimeZone, timeZoneOffset } from './dates.js';
import { isHttpUrl } from './field-checks.js';
import {
  DESTINATION_MAX,
  INACTIVE_MESSAGE_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  RULE_CONDITIONS_MAX,
  RULE_COUNTRIES_MAX,
  RULE_LABEL_MAX,
  RULE_LANGUAGES_MAX,
  SMART_RULES_MAX,
  UTM_VALUE_MAX,
} from './smart-limits.js';

export const osNames = ['ios', 'android', 'windows', 'macos', 'linux'] as const;
export type OsName = (typeof osNames)[number];
export const ruleDevices = ['mobile', 'tablet', 'desktop'] as const;
export type RuleDevice = (typeof ruleDevices)[number];
export const conditionKinds = ['device', 'os', 'country', 'language', 'time', 'dates', 'scans'] as const;
export type ConditionKind = (typeof conditionKinds)[number];
export const inactiveReasons = ['paused', 'not-started', 'ended', 'limit'] as const;
export type InactiveReason = (typeof inactiveReasons)[number];

export const osLabels: Record<OsName, string> = {
  ios: 'iOS',
  android: 'Android',
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
};
export const deviceLabels: Record<RuleDevice, string> = {
  mobile: 'Phone',
  tablet: 'Tablet',
  desktop: 'Computer',
};
export const conditionLabels: Record<ConditionKind, string> = {
  device: 'Device',
  os: 'Operating system',
  country: 'Country',
  language: 'Language',
  time: 'Time of day',
  dates: 'Date range',
  scans: 'After N scans',
};
/** 0 = Sunday, as `Date#getUTCDay`. */
export const dayNames = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;
export const inactiveReasonLabels: Record<InactiveReason, string> = {
  paused: 'Paused',
  'not-started': 'Not started yet',
  ended: 'Ended',
  limit: 'Scan limit reached',
};

// The limits load without zod (smart-limits.ts); re-exported for the server and the app.
export * from './smart-limits.js';
export const utmKeys = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmKey = (typeof utmKeys)[number];

// ---- Messages that name the field: 'Rule 2: Destination must be a valid URL' ----

type PathIssue = { path?: readonly PropertyKey[] };

/** 'Rule 2, condition 1: ' from an issue's path (complete when the message is made), or ''. */
function placeOf(path: readonly PropertyKey[] | undefined): string {
  if (!path) return '';
  const at = path.lastIndexOf('rules');
  const rule = at >= 0 ? path[at + 1] : undefined;
  if (typeof rule !== 'number') return '';
  const condition = path[at + 2] === 'conditions' ? path[at + 3] : undefined;
  return typeof condition === 'number'
    ? `Rule ${rule + 1}, condition ${condition + 1}: `
    : `Rule ${rule + 1}: `;
}

/** A zod error function whose message says which rule (and condition) it is about. */
const at = (message: string) => (issue: PathIssue) => `${placeOf(issue.path)}${message}`;

const destinationUrl = (label: string) =>
  z
    .string({ error: at(`${label} must be a valid URL`) })
    .trim()
    .min(1, { error: at(`${label} is required`) })
    .max(DESTINATION_MAX, { error: at(`${label} must be at most ${DESTINATION_MAX} characters`) })
    .refine(isHttpUrl, { error: at(`${label} must be a valid URL`) });

/** An ISO date-time with a zone, stored canonical (`2026-12-24T18:00:00.000Z`). */
const dateTime = (label: string) =>
  z
    .string({ error: at(`${label} must be a date and time`) })
    .overwrite((v) => canonicalDateTime(v) ?? v)
    .refine((v) => canonicalDateTime(v) !== null, {
      error: at(`${label} must be a date and time like 2026-12-24T18:00:00Z`),
    });

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const clock = (label: string) =>
  z
    .string({ error: at(`${label} must be a time like 09:00`) })
    .trim()
    .regex(HH_MM, { error: at(`${label} must be a time like 09:00`) });

const unique = <T>(items: T[]) => [...new Set(items)];

// ---- Conditions ----

/**
 * A list of codes, checked as a whole so that a message names the list ('Countries must be …'), not an
 * item's position. Items are normalized (trimmed, case), kept once, and must each pass `valid`.
 */
function codeList<T extends string>(
  label: string,
  normalize: (value: string) => string,
  valid: (value: string) => boolean,
  message: string,
  max: number,
) {
  return z
    .array(z.string({ error: at(message) }), { error: at(`${label} must be a list`) })
    .min(1, { error: at(`${label}: choose at least one`) })
    .max(max, { error: at(`${label}: at most ${max}`) })
    .overwrite((list) => unique(list.map(normalize)))
    .refine((list) => list.every(valid), { error: at(message) }) as unknown as z.ZodType<T[], string[]>;
}

const oneOf = (values: readonly string[]) => (value: string) => values.includes(value);

const deviceCondition = z.object({
  kind: z.literal('device'),
  devices: codeList<RuleDevice>(
    'Devices',
    (v) => v.trim().toLowerCase(),
    oneOf(ruleDevices),
    'Devices must be mobile, tablet or desktop',
    ruleDevices.length,
  ),
});

const osCondition = z.object({
  kind: z.literal('os'),
  os: codeList<OsName>(
    'Operating systems',
    (v) => v.trim().toLowerCase(),
    oneOf(osNames),
    'Operating systems must be ios, android, windows, macos or linux',
    osNames.length,
  ),
});

const countryCondition = z.object({
  kind: z.literal('country'),
  countries: codeList<string>(
    'Countries',
    (v) => v.trim().toUpperCase(),
    (v) => /^[A-Z]{2}$/.test(v),
    'Countries must be two-letter codes like FR',
    RULE_COUNTRIES_MAX,
  ),
});

const languageCondition = z.object({
  kind: z.literal('language'),
  languages: codeList<string>(
    'Languages',
    (v) => v.trim().toLowerCase(),
    (v) => /^[a-z]{2,3}$/.test(v),
    'Languages must be codes like fr',
    RULE_LANGUAGES_MAX,
  ),
});

const DAYS_MESSAGE = 'Days must be numbers from 0 (Sunday) to 6 (Saturday)';
const timeCondition = z.object({
  kind: z.literal('time'),
  days: z
    .array(z.number({ error: at(DAYS_MESSAGE) }), { error: at('Days must be a list') })
    .min(1, { error: at('Days: choose at least one') })
    .refine((days) => days.every((d) => Number.isInteger(d) && d >= 0 && d <= 6), { error: at(DAYS_MESSAGE) })
    .overwrite((days) => unique(days).sort((a, b) => a - b)),
  from: clock('From'),
  until: clock('Until'),
});

const datesCondition = z
  .object({
    kind: z.literal('dates'),
    from: dateTime('From').nullable().default(null),
    until: dateTime('Until').nullable().default(null),
  })
  .refine((c) => c.from !== null || c.until !== null, {
    error: at('From or until: give at least one'),
    path: ['from'],
  })
  .refine((c) => c.from === null || c.until === null || Date.parse(c.until) > Date.parse(c.from), {
    error: at('Until must be after from'),
    path: ['until'],
  });

const scansCondition = z.object({
  kind: z.literal('scans'),
  after: z
    .number({ error: at('After must be a number of scans') })
    .int({ error: at('After must be a whole number') })
    .min(0, { error: at('After must be 0 or more') })
    .max(Number.MAX_SAFE_INTEGER, { error: at('After is too large') }),
});

/**
 * What a scan must be for a rule to apply; a rule applies when all its conditions match.
 * - device: the scanning device's category; a bot or an unknown device matches none.
 * - os: the scanning device's operating system; a bot matches none.
 * - country: where the scan came from (ISO 3166 alpha-2); an unknown country matches none.
 * - language: ANY language the browser accepts (Accept-Language, q > 0), by primary subtag (`fr-CA` is `fr`).
 * - time: on one of `days` between `from` (inclusive) and `until` (exclusive), wall clock in the options'
 *   `timeZone`. `from` after `until` spans midnight and belongs to the day it starts on (Friday 22:00–02:00
 *   matches Saturday 01:00); `from` equal to `until` is the whole day.
 * - dates: at or after `from`, before `until` (either may be null, not both).
 * - scans: when the code already had at least `after` scans before this one (after: 100 → the 101st on).
 */
export const ruleConditionSchema = z.discriminatedUnion(
  'kind',
  [
    deviceCondition,
    osCondition,
    countryCondition,
    languageCondition,
    timeCondition,
    datesCondition,
    scansCondition,
  ],
  { error: at('Condition kind must be device, os, country, language, time, dates or scans') },
);
export type RuleCondition = z.output<typeof ruleConditionSchema>;

export const redirectRuleSchema = z.object(
  {
    label: z
      .string({ error: at('Label must be text') })
      .trim()
      .max(RULE_LABEL_MAX, { error: at(`Label must be at most ${RULE_LABEL_MAX} characters`) })
      .optional(),
    conditions: z
      .array(ruleConditionSchema, { error: at('Conditions must be a list') })
      .min(1, { error: at('Conditions: add at least one') })
      .max(RULE_CONDITIONS_MAX, { error: at(`At most ${RULE_CONDITIONS_MAX} conditions`) }),
    destination: destinationUrl('Destination'),
  },
  { error: at('Rule must be an object') },
);
export type RedirectRule = z.output<typeof redirectRuleSchema>;

const utmValue = (label: string) =>
  z
    .string({ error: `UTM ${label} must be text` })
    .trim()
    .max(UTM_VALUE_MAX, `UTM ${label} must be at most ${UTM_VALUE_MAX} characters`)
    .optional();

export const utmSchema = z.object(
  {
    source: utmValue('source').default('qr'),
    medium: utmValue('medium'),
    campaign: utmValue('campaign'),
    term: utmValue('term'),
    content: utmValue('content'),
  },
  { error: 'UTM must be an object or null' },
);
export type Utm = z.output<typeof utmSchema>;

/**
 * A code's smart-redirect options. `{}` parses to "nothing on" (no rules, always active, no limit, no UTM,
 * no forwarding). `activeFrom` is inclusive, `activeUntil` exclusive (at that instant the code has ended).
 */
export const smartRedirectSchema = z
  .object(
    {
      rules: z
        .array(redirectRuleSchema, { error: 'Rules must be a list' })
        .max(SMART_RULES_MAX, `At most ${SMART_RULES_MAX} rules`)
        .default([]),
      timeZone: z
        .string({ error: 'Time zone must be text' })
        .overwrite((v) => canonicalTimeZone(v) ?? v)
        .refine((v) => canonicalTimeZone(v) === v, 'Time zone must be a zone like Europe/Paris')
        .default('UTC'),
      activeFrom: dateTime('Active from').nullable().default(null),
      activeUntil: dateTime('Active until').nullable().default(null),
      maxScans: z
        .number({ error: 'Maximum scans must be a number or null' })
        .int('Maximum scans must be a whole number')
        .min(1, 'Maximum scans must be at least 1')
        .max(Number.MAX_SAFE_INTEGER, 'Maximum scans is too large')
        .nullable()
        .default(null),
      paused: z.boolean({ error: 'Paused must be true or false' }).default(false),
      inactiveMessage: z
        .string({ error: 'Inactive message must be text' })
        .trim()
        .max(INACTIVE_MESSAGE_MAX, `Inactive message must be at most ${INACTIVE_MESSAGE_MAX} characters`)
        .nullable()
        .default(null)
        .overwrite((v) => (v === '' ? null : v)),
      fallbackUrl: destinationUrl('Fallback URL').nullable().default(null),
      /**
       * While the background check finds the destination down (failed twice in a row), scans go to the
       * fallback URL instead (issue 35): opt-in, and only with a fallback URL.
       */
      fallbackWhenDown: z
        .boolean({ error: 'Use the fallback while down must be true or false' })
        .default(false),
      utm: utmSchema.nullable().default(null),
      forwardQuery: z.boolean({ error: 'Forward query must be true or false' }).default(false),
    },
    { error: 'Redirect options must be an object or null' },
  )
  .refine(
    (o) =>
      o.activeFrom === null || o.activeUntil === null || Date.parse(o.activeUntil) > Date.parse(o.activeFrom),
    { error: 'Active until must be after active from', path: ['activeUntil'] },
  )
  .refine((o) => !o.fallbackWhenDown || o.fallbackUrl !== null, {
    error: 'Set a fallback URL to use it while the destination is down',
    path: ['fallbackWhenDown'],
  });
export type SmartRedirect = z.output<typeof smartRedirectSchema>;
export type SmartRedirectInput = z.input<typeof smartRedirectSchema>;

export const defaultSmartRedirect: SmartRedirect = {
  rules: [],
  timeZone: 'UTC',
  activeFrom: null,
  activeUntil: null,
  maxScans: null,
  paused: false,
  inactiveMessage: null,
  fallbackUrl: null,
  fallbackWhenDown: false,
  utm: null,
  forwardQuery: false,
};

/** True when the options change nothing about a scan (stored as null). */
export function isPlainRedirect(o: SmartRedirect): boolean {
  return (
    o.rules.length === 0 &&
    o.activeFrom === null &&
    o.activeUntil === null &&
    o.maxScans === null &&
    !o.paused &&
    o.fallbackUrl === null &&
    !o.fallbackWhenDown &&
    o.utm === null &&
    !o.forwardQuery &&
    o.inactiveMessage === null
  );
}

/** Whether deciding a scan needs the code's count of earlier scans (a scan limit or an "after N scans" rule). */
export function needsScanCount(o: SmartRedirect): boolean {
  return o.maxScans !== null || o.rules.some((r) => r.conditions.some((c) => c.kind === 'scans'));
}

/** Every URL the options can send a scan to (rule destinations and the fallback), for the server's checks. */
export function smartDestinations(o: SmartRedirect): { label: string; url: string }[] {
  const out = o.rules.map((r, i) => ({ label: `Rule ${i + 1}: Destination`, url: r.destination }));
  if (o.fallbackUrl !== null) out.push({ label: 'Fallback URL', url: o.fallbackUrl });
  return out;
}

// ---- Deciding a scan ----

export interface ScanFacts {
  device: 'mobile' | 'tablet' | 'desktop' | 'bot' | 'unknown';
  os: OsName | null;
  /** ISO 3166 alpha-2, upper-case. */
  country: string | null;
  /** Primary subtags, lower-case, in the browser's order of preference. */
  languages: string[];
  at: Date;
  /** Scans of the code recorded before this one. */
  scansBefore: number;
}

export type RedirectDecision =
  { kind: 'go'; url: string; rule: number | null } | { kind: 'inactive'; reason: InactiveReason };

interface WallClock {
  day: number;
  minute: number;
}

/**
 * A zone's UTC offset for the minute being decided, remembered per zone: working it out (Intl) costs
 * more than all the rest of a decision, and a zone's offset only changes on a minute boundary, so each
 * zone pays it once a minute however many scans there are.
 */
const offsetsByZone = new Map<string, { minute: number; offset: number }>();
const MINUTE_MS = 60_000;

function offsetAt(at: Date, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  const minute = Math.floor(at.getTime() / MINUTE_MS);
  const known = offsetsByZone.get(timeZone);
  if (known && known.minute === minute) return known.offset;
  const offset = timeZoneOffset(at, timeZone) ?? 0;
  if (offsetsByZone.size >= 1000) offsetsByZone.clear();
  offsetsByZone.set(timeZone, { minute, offset });
  return offset;
}

/** Day of week (0 = Sunday) and minute of the day at that instant in that zone (UTC for an unknown zone). */
export function wallClock(at: Date, timeZone: string): WallClock {
  const local = new Date(at.getTime() + offsetAt(at, timeZone));
  return { day: local.getUTCDay(), minute: local.getUTCHours() * 60 + local.getUTCMinutes() };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A condition made ready to test: its lists as sets, its times as numbers. */
type ConditionTest = (facts: ScanFacts, clock: () => WallClock) => boolean;

function timeTest(c: Extract<RuleCondition, { kind: 'time' }>): ConditionTest {
  const from = minutesOf(c.from);
  const until = minutesOf(c.until);
  const days = new Set(c.days);
  if (from === until) return (_f, clock) => days.has(clock().day);
  if (from < until)
    return (_f, clock) => {
      const { day, minute } = clock();
      return days.has(day) && minute >= from && minute < until;
    };
  // Spans midnight: the evening part on a listed day, the morning part on the day after a listed day.
  return (_f, clock) => {
    const { day, minute } = clock();
    if (minute >= from) return days.has(day);
    return minute < until && days.has((day + 6) % 7);
  };
}

function conditionTest(c: RuleCondition): ConditionTest {
  switch (c.kind) {
    case 'device': {
      const devices = new Set<string>(c.devices);
      return (f) => devices.has(f.device);
    }
    case 'os': {
      const systems = new Set<string>(c.os);
      return (f) => f.device !== 'bot' && f.os !== null && systems.has(f.os);
    }
    case 'country': {
      const countries = new Set(c.countries);
      return (f) => f.country !== null && countries.has(f.country);
    }
    case 'language': {
      const languages = new Set(c.languages);
      return (f) => f.languages.some((l) => languages.has(l));
    }
    case 'time':
      return timeTest(c);
    case 'dates': {
      const from = c.from === null ? -Infinity : Date.parse(c.from);
      const until = c.until === null ? Infinity : Date.parse(c.until);
      return (f) => {
        const t = f.at.getTime();
        return t >= from && t < until;
      };
    }
    case 'scans': {
      const after = c.after;
      return (f) => f.scansBefore >= after;
    }
  }
}

/** Paused, not started (before activeFrom) or ended (at or after activeUntil) at that instant; else null. */
export function scheduleState(options: SmartRedirect, at: Date): 'paused' | 'not-started' | 'ended' | null {
  if (options.paused) return 'paused';
  const t = at.getTime();
  if (options.activeFrom !== null && t < Date.parse(options.activeFrom)) return 'not-started';
  if (options.activeUntil !== null && t >= Date.parse(options.activeUntil)) return 'ended';
  return null;
}

export type RedirectDecider = (destination: string, facts: ScanFacts) => RedirectDecision;

/**
 * `decideRedirect` for one set of options, prepared once (dates parsed, lists as sets, times in minutes):
 * the server keeps one per cached code, so a scan only runs the tests. The options are read when it is
 * made; a changed copy needs a new one.
 */
export function compileRedirect(options: SmartRedirect): RedirectDecider {
  const paused = options.paused;
  const activeFrom = options.activeFrom === null ? -Infinity : Date.parse(options.activeFrom);
  const activeUntil = options.activeUntil === null ? Infinity : Date.parse(options.activeUntil);
  const maxScans = options.maxScans ?? Infinity;
  const timeZone = options.timeZone;
  const rules = options.rules.map((r) => ({ url: r.destination, tests: r.conditions.map(conditionTest) }));
  return (destination, facts) => {
    if (paused) return { kind: 'inactive', reason: 'paused' };
    const t = facts.at.getTime();
    if (t < activeFrom) return { kind: 'inactive', reason: 'not-started' };
    if (t >= activeUntil) return { kind: 'inactive', reason: 'ended' };
    if (maxScans !== Infinity && facts.scansBefore >= maxScans) return { kind: 'inactive', reason: 'limit' };
    let cached: WallClock | undefined;
    const clock = () => (cached ??= wallClock(facts.at, timeZone));
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      let all = true;
      for (const test of rule.tests) {
        if (!test(facts, clock)) {
          all = false;
          break;
        }
      }
      if (all) return { kind: 'go', url: rule.url, rule: i };
    }
    return { kind: 'go', url: destination, rule: null };
  };
}

/**
 * Where a scan goes. In order: paused → not started (before activeFrom) → ended (at or after activeUntil) →
 * over the limit (scansBefore ≥ maxScans: the maxScans-th scan still goes, the next does not) → the first
 * rule whose conditions all match → the code's own destination.
 */
export function decideRedirect(
  options: SmartRedirect,
  destination: string,
  facts: ScanFacts,
): RedirectDecision {
  return compileRedirect(options)(destination, facts);
}

// ---- UTM and query forwarding ----

/**
 * The destination with the code's UTM parameters (utm_source defaults to 'qr') and, when `forwardQuery`,
 * the scan's own query parameters appended. Only the query grows: the scheme, host and path are never
 * changed, a parameter already in the destination is never replaced or repeated (an incoming `utm_source`
 * does not override the code's), and the destination's fragment stays last.
 */
export function withTracking(
  url: string,
  utm: SmartRedirect['utm'],
  forwardQuery: boolean,
  incomingQuery: string,
): string {
  if (utm === null && (!forwardQuery || incomingQuery === '' || incomingQuery === '?')) return url;
  const hashAt = url.indexOf('#');
  const base = hashAt < 0 ? url : url.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : url.slice(hashAt);
  const queryAt = base.indexOf('?');
  const taken = new Set(new URLSearchParams(queryAt < 0 ? '' : base.slice(queryAt + 1)).keys());
  const added = new URLSearchParams();
  if (utm !== null) {
    for (const key of utmKeys) {
      const value = key === 'source' ? utm.source || 'qr' : utm[key];
      if (value && !taken.has(`utm_${key}`)) added.append(`utm_${key}`, value);
    }
  }
  if (forwardQuery) {
    const incoming = new URLSearchParams(
      incomingQuery.startsWith('?') ? incomingQuery.slice(1) : incomingQuery,
    );
    for (const key of added.keys()) taken.add(key);
    for (const [key, value] of incoming) if (key !== '' && !taken.has(key)) added.append(key, value);
  }
  const extra = added.toString();
  if (extra === '') return url;
  const joiner = queryAt < 0 ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${extra}${hash}`;
}

// ---- Facts of a scan ----

/** A sample scan for the designer's "try it": `sampleFacts({ os: 'ios', country: 'FR', language: 'fr' })`. */
export function sampleFacts(sample: {
  device?: ScanFacts['device'];
  os?: OsName | null;
  country?: string | null;
  language?: string | null;
  at?: Date;
  scansBefore?: number;
}): ScanFacts {
  const os = sample.os ?? null;
  return {
    device:
      sample.device ?? (os === 'ios' || os === 'android' ? 'mobile' : os === null ? 'unknown' : 'desktop'),
    os,
    country: sample.country ? sample.country.toUpperCase() : null,
    languages: sample.language ? acceptedLanguages(sample.language) : [],
    at: sample.at ?? new Date(),
    scansBefore: sample.scansBefore ?? 0,
  };
}

/**
 * What a decision means in a few words, for the designer's "try it" line:
 * 'Rule 2 (App Store) → https://apps.apple.com/…', 'Default destination → https://…', 'Inactive: Paused'
 * (with the fallback URL when one is set).
 */
export function describeDecision(decision: RedirectDecision, options: SmartRedirect): string {
  if (decision.kind === 'inactive') {
    const reason = inactiveReasonLabels[decision.reason];
    return options.fallbackUrl !== null
      ? `Inactive (${reason}) → ${options.fallbackUrl}`
      : `Inactive (${reason}): shows a notice page`;
  }
  if (decision.rule === null) return `Default destination → ${decision.url}`;
  const label = options.rules[decision.rule]?.label;
  return `Rule ${decision.rule + 1}${label ? ` (${label})` : ''} → ${decision.url}`;
}

// ---- Stored form, password ----

/**
 * The options as stored (JSON text, null: nothing on) read back: checked again, so a value no release
 * wrote (a hand edit, an older form) reads as null rather than failing a scan.
 */
export function readSmartRedirect(stored: string | null | undefined): SmartRedirect | null {
  if (!stored) return null;
  try {
    const parsed = smartRedirectSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A short link's password as the owner sets it: null removes it. Not trimmed: spaces are characters. */
export const codePasswordSchema = z
  .string({ error: 'Password must be text, or null to remove it' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** The primary language subtags a browser accepts, most preferred first ('fr-CH, fr;q=0.9, en;q=0.8' → ['fr', 'en']). */
export { acceptedLanguages };
