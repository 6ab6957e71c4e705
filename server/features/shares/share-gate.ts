import { isValidSignedCookie, signedCookieValue } from '../../signed-cookie.js';
import { appError } from '../../errors.js';
import { shareMessages } from '../../../src/shares/share.schema.js';

/**
 * A shared dashboard's password, once given, is remembered as the short links' is
 * (redirect/password-gate.ts): a cookie `<expiry>.<mac>` whose HMAC-SHA256, under the same server
 * secret, covers the link's id, the expiry and its password hash — so it opens that link only, until it
 * expires. The mac's input starts with `share.` so a short link's cookie can never pass for one.
 */
export const SHARE_COOKIE_HOURS = 12;
const SHARE_COOKIE_MS = SHARE_COOKIE_HOURS * 3_600_000;

export const shareCookieName = (shareId: number) => `qr_share_${shareId}`;
/** The cookie goes only to the link's own API path. */
export const shareCookiePath = (token: string) => `/api/public/shares/${token}`;

export function shareCookieValue(
  secret: Buffer,
  share: { id: number; password_hash: string },
  nowMs: number,
): { value: string; maxAgeSeconds: number } {
  return signedCookieValue(secret, `share.${share.id}`, share.password_hash, SHARE_COOKIE_MS, nowMs);
}

export function isValidShareCookie(
  secret: Buffer,
  share: { id: number; password_hash: string },
  value: string | undefined,
  nowMs: number,
): boolean {
  return isValidSignedCookie(secret, `share.${share.id}`, share.password_hash, SHARE_COOKIE_MS, value, nowMs);
}

/**
 * The public paths' rate limit: PUBLIC_SHARE_REQUESTS a minute per client address (a fixed window).
 * Held in memory, per app: with several instances each counts its own requests, so the limit is per
 * instance — enough to stop one client from walking tokens or hammering the analytics queries.
 */
export const PUBLIC_SHARE_REQUESTS = 60;
const WINDOW_MS = 60_000;
const MAX_CLIENTS = 10_000;

export class ShareRateLimit {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** Counts one request of `ip`; throws 429 (with Retry-After) past the limit. */
  hit(ip: string, nowMs: number): void {
    let w = this.windows.get(ip);
    if (!w || nowMs - w.start >= WINDOW_MS) {
      // Old windows go when the map is full: a flood of addresses cannot grow it without bound.
      if (this.windows.size >= MAX_CLIENTS) this.sweep(nowMs);
      w = { start: nowMs, count: 0 };
      this.windows.set(ip, w);
    }
    w.count += 1;
    if (w.count > PUBLIC_SHARE_REQUESTS) {
      const retryAfterSeconds = Math.max(1, Math.ceil((w.start + WINDOW_MS - nowMs) / 1000));
      throw appError('TOO_MANY_REQUESTS', `${shareMessages.tooManyRequests}: try again in a minute`, {
        retryAfterSeconds,
      });
    }
  }

  private sweep(nowMs: number) {
    for (const [ip, w] of this.windows) if (nowMs - w.start >= WINDOW_MS) this.windows.delete(ip);
    if (this.windows.size >= MAX_CLIENTS) this.windows.clear();
  }
}
