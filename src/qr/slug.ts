/**
 * Your own back-half (issue 35, item 1): the end of a dynamic code's short link, chosen by its owner
 * (`PUBLIC_URL/r/menu`) instead of the random one drawn at creation. Shared by the server (the check
 * that counts) and the designer (the same words, live). zod-free: the designer's first screen loads it.
 *
 * A chosen back-half is kept in lower case: short links are matched without regard to case, so `Menu`,
 * `MENU` and `menu` are one link and only one code can have it. Random back-halves keep their case.
 */

export const SLUG_MIN_LENGTH = 3;
export const SLUG_MAX_LENGTH = 64;

export const SLUG_CHARACTERS = /^[a-z0-9_-]+$/;

/**
 * What a short link's path may carry as a slug: a random one (7 characters, either case) or a chosen one
 * in any case. Anything else is a 404 without a database read.
 */
export const SHORT_LINK_SLUG = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Back-halves that name the app's own pages and endpoints (or may one day, on a short domain where a link
 * sits at the root): never a short link. Compared in lower case.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  // The server's own paths.
  'api',
  'assets',
  'trpc',
  'r',
  's',
  'metrics',
  'healthz',
  'readyz',
  'favicon.ico',
  'favicon.svg',
  'robots.txt',
  'index.html',
  'static',
  'uploads',
  'docs',
  'openapi',
  'well-known',
  '_short-domain',
  // The app's pages.
  'auth',
  'login',
  'logout',
  'register',
  'signup',
  'create',
  'import',
  'integrations',
  'share',
  'edit-qr',
  'my-qr-codes',
  'qr-details',
  'analytics',
  'dashboard',
  'settings',
  'profile',
  'account',
  'admin',
  'workspace',
  'workspaces',
  'invitations',
  'upgrade',
  'scan-demo',
  'reset-password',
  'verify-email',
  'undo-email-change',
  'help',
  'new',
]);

export const slugMessages = {
  tooShort: `Short link must be at least ${SLUG_MIN_LENGTH} characters`,
  tooLong: `Short link must be at most ${SLUG_MAX_LENGTH} characters`,
  characters: 'Short link may contain only letters, digits, - and _',
  reserved: 'This short link is reserved',
  taken: 'This short link is taken',
  available: 'Available',
  staticCode: 'Only dynamic codes have a short link',
} as const;

/** What a back-half is compared and stored as: trimmed, lower case. */
export function normalizeSlug(text: string): string {
  return text.trim().toLowerCase();
}

/** Why a back-half (normalized) cannot be one, or null when it can (taken or not is the server's to say). */
export function slugProblem(slug: string): string | null {
  if (slug.length < SLUG_MIN_LENGTH) return slugMessages.tooShort;
  if (slug.length > SLUG_MAX_LENGTH) return slugMessages.tooLong;
  if (!SLUG_CHARACTERS.test(slug)) return slugMessages.characters;
  if (RESERVED_SLUGS.has(slug)) return slugMessages.reserved;
  return null;
}

/** The answer of `qr.slugAvailability` and `GET /api/qr-codes/slug-availability`. */
export type SlugStatus = 'available' | 'taken' | 'reserved' | 'invalid';
export interface SlugAvailability {
  /** The back-half as it would be stored (lower case). */
  slug: string;
  status: SlugStatus;
  /** In words, for the designer: "Available", "This short link is taken", or what is wrong with it. */
  message: string;
}
