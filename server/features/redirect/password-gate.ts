import { randomBytes } from 'node:crypto';
import { isValidSignedCookie, signedCookieValue } from '../../signed-cookie.js';
import type { Db } from '../../db/database.js';
import { findServerSecret, insertServerSecretIfAbsent } from './redirect.repository.js';

/**
 * A password-protected short link remembers a right password in a cookie of its own: `<expiry>.<mac>`,
 * where the mac is an HMAC-SHA256, under a server secret, of the code's id, the expiry and the code's
 * current password hash — so it opens that code only, until it expires, and no longer once the owner
 * changes or removes the password. HttpOnly, SameSite=Lax, scoped to the short link's path, Secure
 * behind https. The secret is made once and kept in the database (`server_secrets`), so every
 * instance sharing a PostgreSQL database accepts the cookies of the others.
 */
export const PASSWORD_COOKIE_HOURS = 12;
const PASSWORD_COOKIE_MS = PASSWORD_COOKIE_HOURS * 3_600_000;
const SECRET_NAME = 'short-link-password-cookies';

const secrets = new WeakMap<Db, Promise<Buffer>>();

async function readOrMakeSecret(db: Db, name: string): Promise<Buffer> {
  // Two instances starting together both insert; one wins and both read the winner's value.
  await insertServerSecretIfAbsent(db, name, randomBytes(32).toString('base64url'));
  const row = await findServerSecret(db, name);
  return Buffer.from(row.value, 'base64url');
}

/** The cookie key, read once per database (a failed read is retried at the next request). */
export function passwordCookieSecret(db: Db): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = readOrMakeSecret(db, SECRET_NAME);
    secrets.set(db, secret);
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

export const passwordCookieName = (codeId: number) => `qr_pass_${codeId}`;

/** A new cookie value for the code, valid PASSWORD_COOKIE_HOURS from `nowMs`. */
export function passwordCookieValue(
  secret: Buffer,
  code: { id: number; password_hash: string },
  nowMs: number,
): { value: string; maxAgeSeconds: number } {
  return signedCookieValue(secret, String(code.id), code.password_hash, PASSWORD_COOKIE_MS, nowMs);
}

/** Whether the cookie was made by this server for this code and its current password, and is unexpired. */
export function isValidPasswordCookie(
  secret: Buffer,
  code: { id: number; password_hash: string },
  value: string | undefined,
  nowMs: number,
): boolean {
  return isValidSignedCookie(secret, String(code.id), code.password_hash, PASSWORD_COOKIE_MS, value, nowMs);
}
