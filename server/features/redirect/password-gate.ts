import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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

function macOf(secret: Buffer, codeId: number, expires: number, passwordHash: string): Buffer {
  return createHmac('sha256', secret).update(`${codeId}.${expires}.${passwordHash}`).digest();
}

/** A new cookie value for the code, valid PASSWORD_COOKIE_HOURS from `nowMs`. */
export function passwordCookieValue(
  secret: Buffer,
  code: { id: number; password_hash: string },
  nowMs: number,
): { value: string; maxAgeSeconds: number } {
  const expires = nowMs + PASSWORD_COOKIE_MS;
  const mac = macOf(secret, code.id, expires, code.password_hash).toString('base64url');
  return { value: `${expires}.${mac}`, maxAgeSeconds: PASSWORD_COOKIE_MS / 1000 };
}

/** Whether the cookie was made by this server for this code and its current password, and is unexpired. */
export function isValidPasswordCookie(
  secret: Buffer,
  code: { id: number; password_hash: string },
  value: string | undefined,
  nowMs: number,
): boolean {
  if (!value || value.length > 200) return false;
  const m = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires <= nowMs || expires > nowMs + PASSWORD_COOKIE_MS) return false;
  const given = Buffer.from(m[2]!, 'base64url');
  const expected = macOf(secret, code.id, expires, code.password_hash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
