import type { SessionDeps } from '../../app-deps.js';
import { isKnownDevice, rememberDevices } from './known-devices.repository.js';
import { cookieOptions } from './sessions.js';
import { hashToken, newToken } from './tokens.js';

/**
 * A browser that has signed in to an account before carries a device cookie (a random token; only its
 * hash is stored, beside the account's known devices). Such a browser is not held by the per-account
 * lockout, so someone who knows a username cannot keep its owner out by failing on purpose (OWASP's
 * authentication guidance); the per-address limit still applies to it.
 */
const DEVICE_MAX_AGE_S = 365 * 86_400;

function deviceCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-qr_device' : 'qr_device';
}

const fingerprintOf = (token: string) => `device:${hashToken(token)}`;

export async function isTrustedDevice(ctx: SessionDeps, userId: number): Promise<boolean> {
  const token = ctx.cookies.read(deviceCookieName(ctx.config.publicUrl));
  if (!token || token.length > 200) return false;
  return isKnownDevice(ctx.db, userId, fingerprintOf(token));
}

/** After a right password: this browser is one the account has signed in from. */
export async function trustThisDevice(ctx: SessionDeps, userId: number): Promise<void> {
  if (await isTrustedDevice(ctx, userId)) return;
  const token = newToken();
  await rememberDevices(ctx.db, userId, [fingerprintOf(token)], ctx.clock.now().toISOString());
  ctx.cookies.set(deviceCookieName(ctx.config.publicUrl), token, {
    ...cookieOptions(ctx.config.publicUrl),
    maxAge: DEVICE_MAX_AGE_S,
  });
}
