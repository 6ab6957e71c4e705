// The designer's Short link field (issue 35, "your own back-half"): what the owner's text asks for, what
// the field says about it while they type, and which refusals of a save belong to it. The rules are
// src/qr/slug.ts, shared with the server; it is zod-free, so the designer's first screen stays without zod.
import { plural, t } from '@lingui/core/macro';
import { normalizeSlug, slugMessages, slugProblem, type SlugAvailability } from '../../../src/qr/slug';
import type { AvailableDomains } from '../../../src/qr/short-domain.schema';

/**
 * The back-half a save sends, from the field's text. Creating (no saved back-half): null for an empty
 * field, which lets the server draw a random one. Editing: undefined while the text is still the saved
 * back-half, so an untouched field changes nothing (random back-halves keep their capitals); otherwise
 * the text as it would be stored.
 */
export function slugToSend(text: string, savedSlug?: string | null): string | null | undefined {
  const trimmed = text.trim();
  if (savedSlug == null) return trimmed === '' ? null : normalizeSlug(trimmed);
  return trimmed === savedSlug ? undefined : normalizeSlug(trimmed);
}

/** What is wrong with the text before any server is asked (too short, a character, reserved), or null. */
export function localSlugProblem(text: string, savedSlug?: string | null): string | null {
  const slug = slugToSend(text, savedSlug);
  return typeof slug === 'string' ? slugProblem(slug) : null;
}

/**
 * 'Saved in lower case: menu' when the owner typed capitals: short links ignore case, so only the lower
 * case one is kept, and the owner should know which link they will print. null otherwise.
 */
export function lowerCaseNote(text: string, savedSlug?: string | null): string | null {
  const slug = slugToSend(text, savedSlug);
  if (typeof slug !== 'string' || slug === '' || slug === text.trim()) return null;
  return t`Saved in lower case: ${slug}`;
}

/** What a saved code says about its short link: enough to rebuild the start of it. */
export interface SavedShortLink {
  shortUrl: string | null;
  slug: string | null;
  domainId: number | null;
}

/** The start of a saved short link, less its back-half (`https://go.example.com/`), or null. */
function savedBaseOf(saved: SavedShortLink | null | undefined): string | null {
  if (saved?.shortUrl && saved.slug && saved.shortUrl.endsWith(`/${saved.slug}`)) {
    return saved.shortUrl.slice(0, saved.shortUrl.length - saved.slug.length);
  }
  return null;
}

/**
 * The start of the short link a code will have with `domainId` (null: the app's own address): the
 * server's bases once `available` (qr.domains) has come; a domain the workspace has lost since the code
 * took it, the code's own link less its back-half. Before the answer comes (or when it fails): the saved
 * link's start for the saved domain, else `<origin>/r/`.
 */
export function shortLinkBaseOf({
  domainId,
  available,
  saved,
  origin,
}: {
  domainId: number | null;
  available: AvailableDomains | undefined;
  saved?: SavedShortLink | null;
  origin: string;
}): string {
  if (domainId !== null) {
    const item = available?.items.find((d) => d.id === domainId);
    if (item) return item.shortLinkBase;
  }
  const savedBase = saved && saved.domainId === domainId ? savedBaseOf(saved) : null;
  if (domainId !== null && savedBase) return savedBase;
  return available?.defaultBase ?? savedBase ?? `${origin}/r/`;
}

/** The fixed part shown before the back-half: a base without its scheme (`go.example.com/`). */
export function shortLinkPrefix(base: string): string {
  return base.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
}

/** The host a saved short link is on (`go.example.com`), or null. */
function hostOf(shortUrl: string | null): string | null {
  if (!shortUrl) return null;
  try {
    return new URL(shortUrl).hostname;
  } catch {
    return null;
  }
}

/** The Domain select's value for the app's own address (a domain's is its id). */
export const APP_DOMAIN = 'app';

/**
 * The Domain select's choices: the app's own address first (its base without the scheme), then each
 * domain of the workspace by its host name. A domain the saved code uses that the workspace has lost since
 * stays, named by its host, as the value the code has. Empty (no select) when there is nothing to choose.
 */
export function domainChoices(
  available: AvailableDomains | undefined,
  saved?: SavedShortLink | null,
): { value: string; label: string }[] {
  if (!available) return [];
  const choices = [
    { value: APP_DOMAIN, label: shortLinkPrefix(available.defaultBase) },
    ...available.items.map((d) => ({ value: String(d.id), label: d.hostname })),
  ];
  const lost = saved?.domainId ?? null;
  if (lost !== null && !available.items.some((d) => d.id === lost)) {
    choices.push({ value: String(lost), label: hostOf(saved?.shortUrl ?? null) ?? t`Domain ${lost}` });
  }
  return choices.length > 1 ? choices : [];
}

/**
 * The domain the form's `domainId` stands for: itself while the list is loading, or when the workspace
 * may use it or the saved code has it; otherwise (a draft's domain taken away since) the app's own (null).
 */
export function knownDomainId(
  domainId: number | null,
  available: AvailableDomains | undefined,
  saved?: SavedShortLink | null,
): number | null {
  if (domainId === null || !available) return domainId;
  if (available.items.some((d) => d.id === domainId)) return domainId;
  return saved?.domainId === domainId ? domainId : null;
}

/**
 * The domain a save sends. Creating (no saved code): the chosen one, or undefined for the app's own (the
 * server's default). Editing: undefined while it is the saved one, so an untouched select changes nothing.
 */
export function domainIdToSend(
  domainId: number | null,
  saved?: SavedShortLink | null,
): number | null | undefined {
  if (!saved) return domainId ?? undefined;
  return domainId === saved.domainId ? undefined : domainId;
}

/** A random back-half's stand-in: 7 characters of either case, as the server draws (server/features/qr/slug.ts). */
const STAND_IN_SLUG = 'Qz7xKp2';

/**
 * What a new dynamic code will print before it exists, for the scan check: the chosen base and the
 * back-half typed when it can be one, else a random one's stand-in of the same length and alphabet, so the
 * QR encoding mode and length are those of the real link.
 */
export function standInShortLink(base: string, wanted?: string | null): string {
  const slug =
    typeof wanted === 'string' && wanted !== '' && slugProblem(wanted) === null ? wanted : STAND_IN_SLUG;
  return `${base}${slug}`;
}

/** What the field knows about the back-half asked for. */
export type SlugCheck =
  /** Nothing to check: an empty field on a new code, or the saved back-half untouched. */
  | { state: 'none' }
  /** The owner is typing, or the server is being asked. */
  | { state: 'checking'; slug: string }
  | { state: 'available'; slug: string; message: string }
  /** Taken, reserved or not a back-half at all: saving is blocked with `message` on the field. */
  | { state: 'refused'; slug: string; message: string }
  /** The server could not be asked: nothing is said, and the save itself decides. */
  | { state: 'unknown'; slug: string };

/**
 * The field's state from the back-half asked for (`slugToSend`), whether the text has rested long enough
 * to be judged, and the server's answer so far. A problem the text has on its own is said without asking
 * once the owner pauses, never on each key; an answer already known for this very back-half is used at once.
 */
export function slugCheckOf({
  wanted,
  rested,
  answer,
  failed,
}: {
  wanted: string | null | undefined;
  rested: boolean;
  answer: SlugAvailability | undefined;
  failed: boolean;
}): SlugCheck {
  if (typeof wanted !== 'string') return { state: 'none' };
  const problem = slugProblem(wanted);
  if (problem) {
    return rested ? { state: 'refused', slug: wanted, message: problem } : { state: 'none' };
  }
  if (answer && answer.slug === wanted) {
    return answer.status === 'available'
      ? { state: 'available', slug: wanted, message: answer.message || slugMessages.available }
      : { state: 'refused', slug: wanted, message: answer.message };
  }
  if (rested && failed) return { state: 'unknown', slug: wanted };
  return { state: 'checking', slug: wanted };
}

type ErrorData = {
  httpStatus?: number;
  issues?: readonly { path?: string; message?: string }[];
  extras?: Record<string, unknown>;
} | null;

const errorData = (error: Error): ErrorData | undefined => (error as Error & { data?: ErrorData }).data;

/** The message of a refusal that names `field` (a validation issue's path, or the `field` extra), or null. */
function fieldMessageOf(error: Error, field: string): string | null {
  const data = errorData(error);
  const issue = data?.issues?.find((i) => i.path === field && typeof i.message === 'string');
  if (issue?.message) return issue.message;
  if (data?.extras?.field === field && error.message) return error.message;
  return null;
}

/**
 * The message a refused save has for the Short link field, or null when the refusal is about something
 * else: a 409 (SLUG_TAKEN, "This short link is taken", when another link took it since the check) or a
 * 400 whose validation issue (or `field` extra) names `slug`, or whose message is about the short link.
 */
export function slugRefusalOf(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const named = fieldMessageOf(error, 'slug');
  if (named) return named;
  const status = errorData(error)?.httpStatus;
  if ((status === 409 || status === 400) && /short link/i.test(error.message)) return error.message;
  return null;
}

/** A refusal said on a field of the designer (QrDesigner's `fieldRefusal`). */
export interface FieldRefusal {
  field: 'slug' | 'domainId';
  message: string;
}

/**
 * The field a refused save belongs to and what it says there: the Domain select for a domain the
 * workspace may no longer use ("This domain is not available in this workspace", a 400 naming
 * `domainId`), the Short link field for the back-half (slugRefusalOf); null for any other refusal.
 */
export function fieldRefusalOf(error: unknown): FieldRefusal | null {
  if (!(error instanceof Error)) return null;
  const domain = fieldMessageOf(error, 'domainId');
  if (domain) return { field: 'domainId', message: domain };
  const slug = slugRefusalOf(error);
  return slug ? { field: 'slug', message: slug } : null;
}

/**
 * What 'Change the short link?' says (SlugChangeDialog.tsx): how often the code was scanned, and that its
 * old link stays. `scans` null: they could not be counted, so the old link's fate is said as the server
 * decides it (kept once the code has been scanned). `oldDomain`: the code's link is on a short domain, which
 * answers it only while the code's workspace may use that domain; its address on the app itself
 * (`<PUBLIC_URL>/r/<slug>`) keeps working whatever the domain.
 */
export function slugChangeText(
  scans: number | null,
  oldShortUrl: string,
  oldDomain?: { hostname: string; appLink: string; lost?: boolean } | null,
): string {
  // A domain this workspace may no longer use answers only for the codes that use it: after the change,
  // only the app's own address keeps the old link.
  if (oldDomain?.lost) {
    const { hostname, appLink } = oldDomain;
    return scans === null
      ? t`This code's scans could not be counted. This workspace may no longer use ${hostname}, so its old link ${oldShortUrl} will stop answering; ${appLink} keeps redirecting here.`
      : plural(scans, {
          one: `This code has been scanned # time. This workspace may no longer use ${hostname}, so its old link ${oldShortUrl} will stop answering; ${appLink} keeps redirecting here.`,
          other: `This code has been scanned # times. This workspace may no longer use ${hostname}, so its old link ${oldShortUrl} will stop answering; ${appLink} keeps redirecting here.`,
        });
  }
  if (oldDomain) {
    const { hostname, appLink } = oldDomain;
    return scans === null
      ? t`This code's scans could not be counted. If it has been scanned, its old link ${oldShortUrl} will keep redirecting here, because it may already be printed. The domain ${hostname} keeps answering while this workspace may use it, and ${appLink} keeps working too.`
      : plural(scans, {
          one: `This code has been scanned # time. Its old link ${oldShortUrl} will keep redirecting here, because it may already be printed. The domain ${hostname} keeps answering while this workspace may use it, and ${appLink} keeps working too.`,
          other: `This code has been scanned # times. Its old link ${oldShortUrl} will keep redirecting here, because it may already be printed. The domain ${hostname} keeps answering while this workspace may use it, and ${appLink} keeps working too.`,
        });
  }
  return scans === null
    ? t`This code's scans could not be counted. If it has been scanned, its old link ${oldShortUrl} will keep redirecting here, because it may already be printed.`
    : plural(scans, {
        one: `This code has been scanned # time. Its old link ${oldShortUrl} will keep redirecting here, because it may already be printed.`,
        other: `This code has been scanned # times. Its old link ${oldShortUrl} will keep redirecting here, because it may already be printed.`,
      });
}
