// The designer's Short link field (issue 35, "your own back-half"): what the owner's text asks for, what
// the field says about it while they type, and which refusals of a save belong to it. The rules are
// src/qr/slug.ts, shared with the server; it is zod-free, so the designer's first screen stays without zod.
import { normalizeSlug, slugMessages, slugProblem, type SlugAvailability } from '../../../src/qr/slug';
import { formatCount } from '../../lib/format';

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
  return `Saved in lower case: ${slug}`;
}

/**
 * The fixed part shown before the field: the saved short link less its back-half when editing, which is
 * exactly what the server makes links with; a new code's is `<origin>/r/`, as the scan check's stand-in.
 */
export function shortLinkPrefix(
  origin: string,
  saved?: { shortUrl: string | null; slug: string | null } | null,
): string {
  if (saved?.shortUrl && saved.slug && saved.shortUrl.endsWith(`/${saved.slug}`)) {
    return saved.shortUrl.slice(0, saved.shortUrl.length - saved.slug.length);
  }
  return `${origin}/r/`;
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

/**
 * The message a refused save has for the Short link field, or null when the refusal is about something
 * else: a 409 (SLUG_TAKEN, "This short link is taken", when another link took it since the check) or a
 * 400 whose validation issue (or `field` extra) names `slug`, or whose message is about the short link.
 */
export function slugRefusalOf(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const data = (
    error as Error & {
      data?: {
        httpStatus?: number;
        issues?: readonly { path?: string; message?: string }[];
        extras?: Record<string, unknown>;
      } | null;
    }
  ).data;
  const issue = data?.issues?.find((i) => i.path === 'slug' && typeof i.message === 'string');
  if (issue?.message) return issue.message;
  if (data?.extras?.field === 'slug' && error.message) return error.message;
  const status = data?.httpStatus;
  if ((status === 409 || status === 400) && /short link/i.test(error.message)) return error.message;
  return null;
}

/**
 * What 'Change the short link?' says (SlugChangeDialog.tsx): how often the code was scanned, and that its
 * old link stays. `scans` null: they could not be counted, so the old link's fate is said as the server
 * decides it (kept once the code has been scanned).
 */
export function slugChangeText(scans: number | null, oldShortUrl: string): string {
  if (scans === null) {
    return (
      "This code's scans could not be counted. If it has been scanned, its old link " +
      `${oldShortUrl} will keep redirecting here, because it may already be printed.`
    );
  }
  return (
    `This code has been scanned ${formatCount(scans)} ${scans === 1 ? 'time' : 'times'}. ` +
    `Its old link ${oldShortUrl} will keep redirecting here, because it may already be printed.`
  );
}
