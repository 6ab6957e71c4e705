/**
 * A code's history (issue 17, item 5): every change of its name, content, design or redirect options is
 * kept as a version — a snapshot of the code's editable state after the change — and any earlier version
 * can be restored (which is itself a new version). This module holds the answers' schemas and the pure
 * parts: the snapshot of a code, whether two snapshots differ, and what changed between them in plain
 * words. Shared by the server and the client; zod and src only.
 */
import { z } from 'zod';
import { describeContent } from './content.js';
import { readCustomization, TRANSPARENT, type Customization } from './customization.js';
import { qrIdSchema } from './qr-id.js';
import { normalizeQrType, redirectingQrTypes } from './qr-types.js';
import { dayNames, defaultSmartRedirect, type SmartRedirect } from './smart-redirect.js';

/** 'moved': the code went to another workspace (its state unchanged, its short link too). */
export const versionKinds = ['created', 'edited', 'restored', 'moved'] as const;
export type VersionKind = (typeof versionKinds)[number];

/**
 * What a change line is about. `destination` is the content of a code whose short link redirects (a
 * link, a PDF, a video…), `content` any other type's payload; `rules`, `schedule` and `tracking` are the
 * redirect options (rules and their time zone; active window, limit, pause, notice and fallback; UTM and
 * query forwarding); `options` anything else in them.
 */
export const changeFields = [
  'name',
  'destination',
  'content',
  'design',
  'rules',
  'schedule',
  'tracking',
  'password',
  'shortLink',
  'options',
] as const;
export type ChangeField = (typeof changeFields)[number];

export const changeFieldLabels: Record<ChangeField, string> = {
  name: 'Name',
  destination: 'Destination',
  content: 'Content',
  design: 'Design',
  rules: 'Rules',
  schedule: 'Schedule',
  tracking: 'Tracking',
  password: 'Password',
  shortLink: 'Short link',
  options: 'Redirect options',
};

export const historyMessages = {
  versionNotFound: 'Version not found',
} as const;

// ---- Answers ----

export const versionChangeSchema = z.object({
  field: z.enum(changeFields),
  before: z.string(),
  after: z.string(),
});
export type VersionChange = z.infer<typeof versionChangeSchema>;

export const qrVersionSchema = z.object({
  id: z.number().int(),
  created: z.string().meta({ format: 'date-time' }),
  kind: z.enum(versionKinds),
  actor: z
    .object({ id: z.number().int(), username: z.string() })
    .nullable()
    .meta({ description: 'Who made the change; null when that account no longer exists.' }),
  restoredFrom: z
    .number()
    .int()
    .nullable()
    .meta({ description: "A 'restored' version: the id of the version it brought back." }),
  state: z
    .object({ name: z.string(), content: z.string() })
    .meta({ description: "The code's name and described content in this version." }),
  changes: z.array(versionChangeSchema).meta({
    description:
      "What this version changed against the one before it, in plain words (empty for 'created', and for a " +
      'restore of the state the code already had).',
  }),
});
export type QrVersion = z.infer<typeof qrVersionSchema>;

/** GET /api/qr-codes/{id}/history: newest first; the first is the code's current state. */
export const qrHistorySchema = z.array(qrVersionSchema);

export const versionIdSchema = z.coerce
  .number({ error: 'Version id must be a number' })
  .int('Version id must be a whole number')
  .positive('Version id must be a positive number')
  .max(2_147_483_647, 'Version id is too large');

/** POST /api/qr-codes/{id}/history/{versionId}/restore, qr.restore. */
export const restoreVersionInput = z.object(
  { id: qrIdSchema, versionId: versionIdSchema },
  { error: 'Request body must be a JSON object' },
);
export type RestoreVersionInput = z.input<typeof restoreVersionInput>;

// ---- Snapshots ----

/**
 * A code's editable state after a change, as stored with the version (JSON). The redirect options and
 * whether a password is set are there when the code's answer has them; a password hash never is.
 */
export interface VersionSnapshot {
  name: string;
  content: string;
  customization: unknown;
  redirectOptions?: unknown;
  hasPassword?: boolean;
  /** The short link's back-half (dynamic codes; versions made before issue 35 have none). */
  slug?: string;
  /** Its short domain's host name, '' for the app's own address (versions made before short domains have none). */
  domain?: string;
}

/** The snapshot of a code's answer: its editable fields, read by name so new ones need no change here. */
export function snapshotOf(code: {
  name: string;
  content: string;
  customization: unknown;
  redirectOptions?: unknown;
  hasPassword?: unknown;
  slug?: unknown;
  domain?: unknown;
}): VersionSnapshot {
  return {
    name: code.name,
    content: code.content,
    customization: code.customization,
    ...(code.redirectOptions !== undefined ? { redirectOptions: code.redirectOptions } : {}),
    ...(typeof code.hasPassword === 'boolean' ? { hasPassword: code.hasPassword } : {}),
    ...(typeof code.slug === 'string' ? { slug: code.slug } : {}),
    ...(typeof code.domain === 'string' ? { domain: code.domain } : {}),
  };
}

const storedSnapshot = z.object({
  name: z.string().catch(''),
  content: z.string().catch(''),
  customization: z.unknown().optional(),
  redirectOptions: z.unknown().optional(),
  hasPassword: z.boolean().optional().catch(undefined),
  slug: z.string().optional().catch(undefined),
  domain: z.string().optional().catch(undefined),
});

/** A stored snapshot (JSON text, or already parsed), read leniently: a damaged one reads as empty. */
export function readSnapshot(stored: unknown): VersionSnapshot {
  let value = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored) as unknown;
    } catch {
      value = {};
    }
  }
  const parsed = storedSnapshot.safeParse(value);
  const s = parsed.success ? parsed.data : { name: '', content: '', customization: {} };
  return {
    name: s.name,
    content: s.content,
    customization: s.customization ?? {},
    ...(s.redirectOptions !== undefined ? { redirectOptions: s.redirectOptions } : {}),
    ...(s.hasPassword !== undefined ? { hasPassword: s.hasPassword } : {}),
    ...(s.slug !== undefined ? { slug: s.slug } : {}),
    ...(s.domain !== undefined ? { domain: s.domain } : {}),
  };
}

/** JSON with object keys sorted: equal values give equal text whatever order their keys were written in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

// ---- Redirect options, read defensively (a version may predate them or some of their fields) ----

type Options = Record<string, unknown>;

/** Options a version predates are read as off (the shared defaults of src/qr/smart-redirect.ts). */
const optionDefaults: Options = { ...defaultSmartRedirect };

const optionGroups: Record<'rules' | 'schedule' | 'tracking', readonly (keyof SmartRedirect)[]> = {
  rules: ['rules', 'timeZone'],
  schedule: ['activeFrom', 'activeUntil', 'maxScans', 'paused', 'inactiveMessage', 'fallbackUrl'],
  tracking: ['utm', 'forwardQuery'],
};
const knownOptionKeys = new Set<string>(Object.keys(optionDefaults));

function optionsOf(value: unknown): Options {
  const given = value && typeof value === 'object' && !Array.isArray(value) ? (value as Options) : {};
  const out: Options = { ...optionDefaults };
  for (const [key, v] of Object.entries(given)) if (v !== undefined) out[key] = v;
  // An empty message is no message.
  if (out.inactiveMessage === '') out.inactiveMessage = null;
  return out;
}

function pick(o: Options, keys: readonly string[]): Options {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}

function otherOptions(o: Options): Options {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !knownOptionKeys.has(k)));
}

const TEXT_MAX = 160;

/** At most `max` characters on one line, an ellipsis when cut. */
export function shorten(value: string, max = TEXT_MAX): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : flat;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const days = dayNames.map((name) => name.slice(0, 3));

/** 'iOS', 'FR, BE', 'Mon–Fri 09:00–17:00': one condition in a few words. */
function describeCondition(c: unknown): string {
  const o = (c && typeof c === 'object' ? c : {}) as Options;
  const names = (v: unknown) => list(v).map(String).join(', ');
  switch (o.kind) {
    case 'device':
      return names(o.devices);
    case 'os':
      return names(o.os);
    case 'country':
      return `country ${names(o.countries)}`;
    case 'language':
      return `language ${names(o.languages)}`;
    case 'time': {
      const ds = list(o.days).map((d) => days[Number(d)] ?? String(d));
      return `${ds.join(', ')} ${String(o.from)}–${String(o.until)}`;
    }
    case 'dates':
      return `${str(o.from) ? `from ${String(o.from)}` : ''}${str(o.from) && str(o.until) ? ' ' : ''}${str(o.until) ? `until ${String(o.until)}` : ''}`;
    case 'scans':
      return `after ${String(o.after)} scans`;
    default:
      return 'a condition';
  }
}

function describeRules(o: Options): string {
  const rules = list(o.rules);
  if (rules.length === 0) return 'none';
  const each = rules.map((r) => {
    const rule = (r && typeof r === 'object' ? r : {}) as Options;
    const when = str(rule.label) ?? list(rule.conditions).map(describeCondition).join(' and ');
    return `${when} → ${String(rule.destination)}`;
  });
  const zone = o.timeZone !== 'UTC' && list(o.rules).length > 0 ? ` (${String(o.timeZone)})` : '';
  return `${plural(rules.length, 'rule')}: ${each.join('; ')}${zone}`;
}

function describeSchedule(o: Options): string {
  const parts: string[] = [];
  if (o.paused === true) parts.push('paused');
  if (str(o.activeFrom)) parts.push(`from ${String(o.activeFrom)}`);
  if (str(o.activeUntil)) parts.push(`until ${String(o.activeUntil)}`);
  if (typeof o.maxScans === 'number') parts.push(`at most ${plural(o.maxScans, 'scan')}`);
  if (str(o.fallbackUrl)) parts.push(`fallback ${String(o.fallbackUrl)}`);
  if (str(o.inactiveMessage)) parts.push(`notice “${String(o.inactiveMessage)}”`);
  return parts.length === 0 ? 'always active' : parts.join(', ');
}

function describeTracking(o: Options): string {
  const parts: string[] = [];
  if (o.utm && typeof o.utm === 'object') {
    const utm = o.utm as Options;
    const pairs = ['source', 'medium', 'campaign', 'term', 'content']
      .map((k) => [k, k === 'source' ? (str(utm[k]) ?? 'qr') : str(utm[k])] as const)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => `utm_${k}=${v}`);
    parts.push(`UTM ${pairs.join(', ')}`);
  }
  if (o.forwardQuery === true) parts.push('forwards the scan’s query');
  return parts.length === 0 ? 'none' : parts.join('; ');
}

// ---- The design ----

function logoOf(c: Customization): string {
  return c.logo && c.logo.url ? `logo ${c.logo.size} %` : 'no logo';
}

function frameOf(c: Customization): string {
  return c.frame?.enabled ? `frame “${c.frame.text}” ${c.frame.style} ${c.frame.color}` : 'no frame';
}

function visible(c: Customization): Customization {
  const { frame, logo, ...rest } = c;
  return { ...rest, ...(frame?.enabled ? { frame } : {}), ...(logo?.url ? { logo } : {}) };
}

const designAspects: { label: string; of: (c: Customization) => string }[] = [
  { label: 'foreground', of: (c) => c.foregroundColor },
  { label: 'background', of: (c) => (c.backgroundColor === TRANSPARENT ? 'transparent' : c.backgroundColor) },
  { label: 'style', of: (c) => c.style },
  { label: 'error correction', of: (c) => c.errorCorrectionLevel },
];

/**
 * The design's changed aspects only, old and new: 'foreground #000000, no logo' →
 * 'foreground #1A237E, logo 40 %'. Null when the design is the same.
 */
export function describeDesignChange(
  before: unknown,
  after: unknown,
): { before: string; after: string } | null {
  const a = readCustomization(before);
  const b = readCustomization(after);
  const was: string[] = [];
  const now: string[] = [];
  for (const { label, of } of designAspects) {
    if (of(a) !== of(b)) {
      was.push(`${label} ${of(a)}`);
      now.push(`${label} ${of(b)}`);
    }
  }
  const logoA = logoOf(a);
  const logoB = logoOf(b);
  if (logoA !== logoB || (a.logo?.url ?? '') !== (b.logo?.url ?? '')) {
    was.push(logoA);
    // Same size, another picture: say so.
    now.push(logoA === logoB ? 'another logo' : logoB === 'no logo' ? 'logo removed' : logoB);
  }
  if (frameOf(a) !== frameOf(b)) {
    was.push(frameOf(a));
    now.push(frameOf(b));
  }
  if (was.length === 0) {
    // Something not named above changed (a field a later design adds): still a change. A frame turned off
    // or a logo without a picture is not seen, whatever its settings.
    if (canonicalJson(visible(a)) === canonicalJson(visible(b))) return null;
    return { before: 'the earlier design', after: 'a changed design' };
  }
  return { before: was.join(', '), after: now.join(', ') };
}

// ---- What changed ----

function describeCodeContent(type: string, content: string): string {
  return redirectingQrTypes.includes(normalizeQrType(type))
    ? shorten(content, 300)
    : describeContent(type, content);
}

/** The name and described content of a version, for its heading line. */
export function stateOf(type: string, s: VersionSnapshot): { name: string; content: string } {
  return { name: s.name, content: describeCodeContent(type, s.content) };
}

/**
 * What changed from `before` to `after` (snapshots of a code of `type`), in plain words, in the order of
 * the designer: name, destination or content, design, rules, schedule, tracking, password, short link,
 * other options.
 * Empty when nothing did. Redirect options missing from a snapshot (made before the code had any) count
 * as none set, and a missing `hasPassword` as no password.
 */
export function describeChanges(
  type: string,
  before: VersionSnapshot,
  after: VersionSnapshot,
): VersionChange[] {
  const changes: VersionChange[] = [];
  if (before.name !== after.name) changes.push({ field: 'name', before: before.name, after: after.name });
  if (before.content !== after.content) {
    const redirecting = redirectingQrTypes.includes(normalizeQrType(type));
    const was = describeCodeContent(type, before.content);
    let now = describeCodeContent(type, after.content);
    // Two payloads may read the same in a summary (a Wi-Fi password is not shown): still say it changed.
    if (now === was) now = `${now} (details changed)`;
    changes.push({ field: redirecting ? 'destination' : 'content', before: was, after: now });
  }
  const design = describeDesignChange(before.customization, after.customization);
  if (design) changes.push({ field: 'design', ...design });

  const oa = optionsOf(before.redirectOptions);
  const ob = optionsOf(after.redirectOptions);
  const describe = { rules: describeRules, schedule: describeSchedule, tracking: describeTracking };
  for (const group of ['rules', 'schedule', 'tracking'] as const) {
    const keys = optionGroups[group];
    if (canonicalJson(pick(oa, keys)) !== canonicalJson(pick(ob, keys))) {
      const was = shorten(describe[group](oa), 300);
      let now = shorten(describe[group](ob), 300);
      if (now === was) now = `${now} (details changed)`;
      changes.push({ field: group, before: was, after: now });
    }
  }
  if ((before.hasPassword ?? false) !== (after.hasPassword ?? false)) {
    changes.push({
      field: 'password',
      before: before.hasPassword ? 'set' : 'none',
      after: after.hasPassword ? 'set' : 'none',
    });
  }
  // A version made before short links could change has no slug: not a change.
  // Nor has one made before short domains a domain: the same link as far as it knows.
  const domainOf = (s: VersionSnapshot, other: VersionSnapshot) =>
    s.domain ?? (other.domain === undefined ? '' : other.domain);
  const linkOf = (slug: string, domain: string) => (domain ? `${domain}/${slug}` : `/r/${slug}`);
  if (before.slug !== undefined && after.slug !== undefined) {
    const was = linkOf(before.slug, domainOf(before, after));
    const now = linkOf(after.slug, domainOf(after, before));
    if (was !== now) changes.push({ field: 'shortLink', before: was, after: now });
  }
  const otherA = canonicalJson(otherOptions(oa));
  const otherB = canonicalJson(otherOptions(ob));
  if (otherA !== otherB) changes.push({ field: 'options', before: shorten(otherA), after: shorten(otherB) });
  return changes;
}

/** True when two snapshots hold the same state: an update to the same state adds no version. */
export function sameState(type: string, a: VersionSnapshot, b: VersionSnapshot): boolean {
  return describeChanges(type, a, b).length === 0;
}
