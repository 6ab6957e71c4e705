// The designer's smart-redirect values: what the inputs hold (wall times in the chosen zone, text in
// number inputs, keys for React), their conversion to and from the shared options schema, the inline
// errors the schema gives (under the input they are about), and the password the save sends.
import { plural, t } from '@lingui/core/macro';
import { z } from 'zod';
import { withHttps } from '../../../src/qr/bare-url';
import { redirectingQrTypes, type QrType } from '../../../src/qr/qr-types';
import {
  conditionKinds,
  isPlainRedirect,
  PASSWORD_MAX,
  PASSWORD_MIN,
  smartRedirectSchema,
  utmKeys,
  type ConditionKind,
  type RuleCondition,
  type SmartRedirect,
  type UtmKey,
} from '../../../src/qr/smart-redirect';
import { browserTimeZone, isoToZonedLocal, zonedLocalToIso } from './zoned-time';

/** One condition; every kind's inputs are kept, so switching the kind back restores what was typed. */
export interface ConditionValues {
  key: string;
  kind: ConditionKind;
  devices: string[];
  os: string[];
  countries: string[];
  languages: string[];
  /** '0' (Sunday) … '6'. */
  days: string[];
  /** 'HH:MM', kind time. */
  from: string;
  until: string;
  /** 'YYYY-MM-DDTHH:mm' in the options' zone, kind dates. */
  dateFrom: string;
  dateUntil: string;
  /** A number input's value: '' while empty. */
  after: number | string;
}

export interface RuleValues {
  key: string;
  label: string;
  conditions: ConditionValues[];
  destination: string;
}

export interface SmartRedirectValues {
  rules: RuleValues[];
  timeZone: string;
  /** 'YYYY-MM-DDTHH:mm' in `timeZone`, or ''. */
  activeFrom: string;
  activeUntil: string;
  maxScans: number | string;
  paused: boolean;
  inactiveMessage: string;
  fallbackUrl: string;
  /** Scans go to the fallback URL while the daily check finds the destination down (needs a fallback URL). */
  fallbackWhenDown: boolean;
  utmOn: boolean;
  utm: Record<UtmKey, string>;
  forwardQuery: boolean;
  /** The saved code has a password (the value itself never reaches the browser). */
  hasPassword: boolean;
  /** "Protect with a password" is on. */
  protect: boolean;
  /** Editing a protected code: a new password is being typed. */
  changePassword: boolean;
  password: string;
}

/** The parts of the section, in the order shown. */
export const smartParts = ['rules', 'test', 'schedule', 'password', 'tracking'] as const;
export type SmartPart = (typeof smartParts)[number];

/** Smart redirects are for dynamic codes whose short link redirects (URL, social, PDF, video, image). */
export function smartRedirectApplies(type: QrType, isDynamic: boolean): boolean {
  return isDynamic && redirectingQrTypes.includes(type);
}

/** Where the values sit in the designer's form. */
export const SMART_PATH = 'smart';

let keys = 0;
export const newKey = () => `k${(++keys).toString(36)}${Math.random().toString(36).slice(2, 7)}`;

export function newCondition(kind: ConditionKind = 'os'): ConditionValues {
  return {
    key: newKey(),
    kind,
    devices: [],
    os: [],
    countries: [],
    languages: [],
    days: ['1', '2', '3', '4', '5'],
    from: '09:00',
    until: '17:00',
    dateFrom: '',
    dateUntil: '',
    after: '',
  };
}

export function newRule(): RuleValues {
  return { key: newKey(), label: '', conditions: [newCondition()], destination: '' };
}

const emptyUtm = (): Record<UtmKey, string> => ({
  source: 'qr',
  medium: '',
  campaign: '',
  term: '',
  content: '',
});

export function initialSmartValues(timeZone = browserTimeZone()): SmartRedirectValues {
  return {
    rules: [],
    timeZone,
    activeFrom: '',
    activeUntil: '',
    maxScans: '',
    paused: false,
    inactiveMessage: '',
    fallbackUrl: '',
    fallbackWhenDown: false,
    utmOn: false,
    utm: emptyUtm(),
    forwardQuery: false,
    hasPassword: false,
    protect: false,
    changePassword: false,
    password: '',
  };
}

function conditionValuesOf(c: RuleCondition, timeZone: string): ConditionValues {
  const v = newCondition(c.kind);
  switch (c.kind) {
    case 'device':
      return { ...v, devices: [...c.devices] };
    case 'os':
      return { ...v, os: [...c.os] };
    case 'country':
      return { ...v, countries: [...c.countries] };
    case 'language':
      return { ...v, languages: [...c.languages] };
    case 'time':
      return { ...v, days: c.days.map(String), from: c.from, until: c.until };
    case 'dates':
      return {
        ...v,
        dateFrom: isoToZonedLocal(c.from, timeZone),
        dateUntil: isoToZonedLocal(c.until, timeZone),
      };
    case 'scans':
      return { ...v, after: c.after };
  }
}

/** A saved code's options (null: nothing on) → the inputs. */
export function smartValuesOf(
  options: SmartRedirect | null | undefined,
  hasPassword = false,
): SmartRedirectValues {
  const base = initialSmartValues(options?.timeZone);
  const withPassword = { ...base, hasPassword, protect: hasPassword };
  if (!options) return withPassword;
  const tz = options.timeZone;
  return {
    ...withPassword,
    rules: options.rules.map((r) => ({
      key: newKey(),
      label: r.label ?? '',
      conditions: r.conditions.map((c) => conditionValuesOf(c, tz)),
      destination: r.destination,
    })),
    activeFrom: isoToZonedLocal(options.activeFrom, tz),
    activeUntil: isoToZonedLocal(options.activeUntil, tz),
    maxScans: options.maxScans ?? '',
    paused: options.paused,
    inactiveMessage: options.inactiveMessage ?? '',
    fallbackUrl: options.fallbackUrl ?? '',
    fallbackWhenDown: options.fallbackWhenDown,
    utmOn: options.utm !== null,
    utm: options.utm
      ? {
          source: options.utm.source ?? 'qr',
          medium: options.utm.medium ?? '',
          campaign: options.utm.campaign ?? '',
          term: options.utm.term ?? '',
          content: options.utm.content ?? '',
        }
      : emptyUtm(),
    forwardQuery: options.forwardQuery,
  };
}

// ---- Inputs → the schema's input ----

const text = (v: string) => (v.trim() === '' ? undefined : v.trim());
const count = (v: number | string) => (v === '' ? undefined : typeof v === 'number' ? v : Number(v));
/** A wall time in the zone → an instant; text that is no time is passed on for the schema to refuse. */
const instant = (local: string, timeZone: string) =>
  local.trim() === '' ? null : (zonedLocalToIso(local, timeZone) ?? local);

function conditionInput(c: ConditionValues, timeZone: string): Record<string, unknown> {
  switch (c.kind) {
    case 'device':
      return { kind: c.kind, devices: c.devices };
    case 'os':
      return { kind: c.kind, os: c.os };
    case 'country':
      return { kind: c.kind, countries: c.countries };
    case 'language':
      return { kind: c.kind, languages: c.languages };
    case 'time':
      return { kind: c.kind, days: c.days.map(Number), from: c.from, until: c.until };
    case 'dates':
      return { kind: c.kind, from: instant(c.dateFrom, timeZone), until: instant(c.dateUntil, timeZone) };
    case 'scans':
      return { kind: c.kind, after: count(c.after) };
  }
}

/** What the inputs say, in the shape `smartRedirectSchema` reads. */
export function smartInput(v: SmartRedirectValues): Record<string, unknown> {
  const tz = v.timeZone;
  const fallbackUrl = text(v.fallbackUrl) === undefined ? null : withHttps(v.fallbackUrl.trim());
  return {
    rules: v.rules.map((r) => ({
      label: text(r.label),
      conditions: r.conditions.map((c) => conditionInput(c, tz)),
      destination: withHttps(r.destination.trim()),
    })),
    timeZone: tz,
    activeFrom: instant(v.activeFrom, tz),
    activeUntil: instant(v.activeUntil, tz),
    maxScans: count(v.maxScans) ?? null,
    paused: v.paused,
    inactiveMessage: text(v.inactiveMessage) ?? null,
    fallbackUrl,
    // Kept in the inputs while the fallback URL is emptied (typing one again brings it back), but only
    // sent with a fallback URL: without one there is nothing to send scans to.
    fallbackWhenDown: v.fallbackWhenDown && fallbackUrl !== null,
    utm: v.utmOn
      ? {
          source: text(v.utm.source) ?? 'qr',
          medium: text(v.utm.medium),
          campaign: text(v.utm.campaign),
          term: text(v.utm.term),
          content: text(v.utm.content),
        }
      : null,
    forwardQuery: v.forwardQuery,
  };
}

// 'Rule 2, condition 1: ' — the inline error sits in that rule already.
const PLACE = /^Rule \d+(?:, condition \d+)?: /;

/** The form path of a schema issue's path: condition dates' from/until are the dateFrom/dateUntil inputs. */
function formPath(path: readonly PropertyKey[], v: SmartRedirectValues, prefix: string): string {
  const parts = path.map(String);
  if (parts[0] === 'rules' && parts[2] === 'conditions' && parts.length === 5) {
    const condition = v.rules[Number(parts[1])]?.conditions[Number(parts[3])];
    if (condition?.kind === 'dates') parts[4] = parts[4] === 'from' ? 'dateFrom' : 'dateUntil';
  }
  return [prefix, ...parts].join('.');
}

export interface SmartCheck {
  /** The parsed options (null: nothing is on); undefined while the inputs hold a problem. */
  options: SmartRedirect | null | undefined;
  /** Inline errors by form path ('smart.rules.0.destination'), the first problem first. */
  errors: Record<string, string>;
  /** The options' first problem, saying where it is ('Rule 2: Destination is required'), or null. */
  problem: string | null;
}

function passwordProblem(v: SmartRedirectValues): string | null {
  if (!v.protect || (v.hasPassword && !v.changePassword)) return null;
  if (v.password.length < PASSWORD_MIN) {
    const min = PASSWORD_MIN;
    return plural(min, {
      one: 'Password must be at least # character',
      other: 'Password must be at least # characters',
    });
  }
  if (v.password.length > PASSWORD_MAX) {
    const max = PASSWORD_MAX;
    return plural(max, {
      one: 'Password must be at most # character',
      other: 'Password must be at most # characters',
    });
  }
  return null;
}

/** The values checked with the shared schema; `prefix` is where they sit in the form. */
export function checkSmart(v: SmartRedirectValues, prefix = SMART_PATH): SmartCheck {
  const errors: Record<string, string> = {};
  const parsed = smartRedirectSchema.safeParse(smartInput(v));
  const problem = parsed.success ? null : (parsed.error.issues[0]?.message ?? t`Check the options`);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = formPath(issue.path, v, prefix);
      errors[path] ??= issue.message.replace(PLACE, '');
    }
  }
  const password = passwordProblem(v);
  if (password) errors[`${prefix}.password`] = password;
  const options = parsed.success ? (isPlainRedirect(parsed.data) ? null : parsed.data) : undefined;
  return { options, errors, problem };
}

/** The `redirectOptions` a save sends: null when nothing is on (call after the form validated). */
export function redirectOptionsOf(v: SmartRedirectValues): SmartRedirect | null {
  return checkSmart(v).options ?? null;
}

/**
 * The `password` a save sends: a new password, null to remove the saved one, undefined to keep what is
 * there (none, or the saved one unchanged).
 */
export function passwordOf(v: SmartRedirectValues): string | null | undefined {
  if (!v.protect) return v.hasPassword ? null : undefined;
  if (v.hasPassword && !v.changePassword) return undefined;
  return v.password;
}

/**
 * What a create or update sends for the code's smart redirect: `redirectOptions` (null: nothing on) and
 * `password` (see passwordOf); nothing for a code the section does not apply to.
 */
export function smartPayloadOf(values: { type: QrType; isDynamic: boolean; smart: SmartRedirectValues }): {
  redirectOptions?: SmartRedirect | null;
  password?: string | null;
} {
  if (!smartRedirectApplies(values.type, values.isDynamic)) return {};
  const password = passwordOf(values.smart);
  return {
    redirectOptions: redirectOptionsOf(values.smart),
    ...(password === undefined ? {} : { password }),
  };
}

/** The part of the section an error path belongs to, or null when it is not a smart-redirect path. */
export function smartPartOf(path: string, prefix = SMART_PATH): SmartPart | null {
  if (!path.startsWith(`${prefix}.`)) return null;
  const field = path.slice(prefix.length + 1).split('.')[0];
  switch (field) {
    case 'rules':
    case 'timeZone':
      return 'rules';
    case 'password':
      return 'password';
    case 'utm':
    case 'utmOn':
    case 'forwardQuery':
      return 'tracking';
    default:
      return 'schedule';
  }
}

// ---- Summaries on the closed parts ----

export function smartSummaries(v: SmartRedirectValues): Record<SmartPart, string | null> {
  const max = count(v.maxScans);
  // English says "scans" for one too ("Up to 1 scans").
  const schedule = v.paused
    ? t({ message: 'Paused', context: 'summary of a closed part: the code is paused' })
    : v.activeFrom || v.activeUntil
      ? t({ message: 'Scheduled', context: 'summary of a closed part: the code has dates' })
      : max !== undefined && Number.isFinite(max)
        ? plural(max, { one: 'Up to # scans', other: 'Up to # scans' })
        : t({ message: 'Always on', context: 'summary of a closed part: no pause, dates or limit' });
  const tracking = [
    v.utmOn ? 'UTM' : null,
    v.forwardQuery ? t({ message: 'Query', comment: 'summary: the scan’s query string is forwarded' }) : null,
  ]
    .filter(Boolean)
    .join(' + ');
  const rules = v.rules.length;
  const off = t({ message: 'Off', context: 'summary of a closed part: nothing on' });
  return {
    rules: rules === 0 ? t`No rules` : plural(rules, { one: '# rule', other: '# rules' }),
    test: null,
    schedule,
    password: v.protect
      ? t({ message: 'Password', context: 'summary of a closed part: a password is asked' })
      : v.hasPassword
        ? t`Removed on save`
        : off,
    tracking: tracking || off,
  };
}

// ---- Drafts (kept in localStorage): never the password ----

/** What a draft keeps: everything but a typed password (the switch stays on, asking for it again). */
export function smartDraftOf(v: SmartRedirectValues): SmartRedirectValues {
  return { ...v, password: '', changePassword: false, hasPassword: false };
}

const str = z.string().catch('');
const conditionDraft = z.object({
  kind: z.enum(conditionKinds).catch('os'),
  devices: z.array(z.string()).catch([]),
  os: z.array(z.string()).catch([]),
  countries: z.array(z.string()).catch([]),
  languages: z.array(z.string()).catch([]),
  days: z.array(z.string()).catch([]),
  from: str,
  until: str,
  dateFrom: str,
  dateUntil: str,
  after: z.union([z.number(), z.string()]).catch(''),
});
const ruleDraft = z.object({
  label: str,
  conditions: z.array(conditionDraft).max(20).catch([]),
  destination: str,
});
const draftSchema = z.object({
  rules: z.array(ruleDraft).max(50).catch([]),
  timeZone: z.string().catch(''),
  activeFrom: str,
  activeUntil: str,
  maxScans: z.union([z.number(), z.string()]).catch(''),
  paused: z.boolean().catch(false),
  inactiveMessage: str,
  fallbackUrl: str,
  fallbackWhenDown: z.boolean().catch(false),
  utmOn: z.boolean().catch(false),
  utm: z
    .object(Object.fromEntries(utmKeys.map((k) => [k, str])) as Record<UtmKey, typeof str>)
    .catch(emptyUtm()),
  forwardQuery: z.boolean().catch(false),
  protect: z.boolean().catch(false),
});

/** A stored draft's smart values, read leniently (anything unusable falls back to its default). */
export function smartValuesFromDraft(raw: unknown): SmartRedirectValues {
  const base = initialSmartValues();
  const parsed = draftSchema.safeParse(raw);
  if (!parsed.success) return base;
  const d = parsed.data;
  return {
    ...base,
    ...d,
    timeZone: d.timeZone || base.timeZone,
    rules: d.rules.map((r) => ({
      ...r,
      key: newKey(),
      conditions: r.conditions.map((c) => ({ ...c, key: newKey() })),
    })),
  };
}
