import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A cookie that remembers a right password: `<expiry>.<mac>`, the mac an HMAC-SHA256 under a server secret
 * of `<subject>.<expiry>.<password hash>` — it opens that subject only (a short link, a shared dashboard),
 * until it expires, and no longer once the password is changed or removed. The short links'
 * (features/redirect/password-gate.ts) and the shared dashboards' (features/shares/share-gate.ts).
 */

function macOf(secret: Buffer, subject: string, expires: number, passwordHash: string): Buffer {
  return createHmac('sha256', secret).update(`${subject}.${expires}.${passwordHash}`).digest();
}

/** A new cookie value for `subject`, valid `lifetimeMs` from `nowMs`. */
export function signedCookieValue(
  secret: Buffer,
  subject: string,
  passwordHash: string,
  lifetimeMs: number,
  nowMs: number,
): { value: string; maxAgeSeconds: number } {
  const expires = nowMs + lifetimeMs;
  const mac = macOf(secret, subject, expires, passwordHash).toString('base64url');
  return { value: `${expires}.${mac}`, maxAgeSeconds: lifetimeMs / 1000 };
}

/** Whether `value` was made by this server for `subject` and its current password, and is unexpired. */
export function isValidSignedCookie(
  secret: Buffer,
  subject: string,
  passwordHash: string,
  lifetimeMs: number,
  value: string | undefined,
  nowMs: number,
): boolean {
  if (!value || value.length > 200) return false;
  const m = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires <= nowMs || expires > nowMs + lifetimeMs) return false;
  const given = Buffer.from(m[2]!, 'base64url');
  const expected = macOf(secret, subject, expires, passwordHash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
