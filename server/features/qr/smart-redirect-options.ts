import { qrTypeLabels, redirectingQrTypes, type QrType } from '../../../src/qr/qr-types.js';
import { isPlainRedirect, smartDestinations, type SmartRedirect } from '../../../src/qr/smart-redirect.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors.js';
import { hashPassword } from '../auth/passwords.js';
import { pointsAtLocalHost, pointsAtOwnShortLink } from './destination.js';
import { shortDomainsOf } from '../domains/short-domains.registry.js';

export const smartRedirectMessages = {
  staticOptions: 'Redirect options apply to dynamic codes only',
  staticPassword: 'A password applies to dynamic codes only',
  rulesOnLinks: `Redirect rules apply to link codes only (${redirectingQrTypes.map((t) => qrTypeLabels[t]).join(', ')})`,
  trackingOnLinks: 'UTM parameters and query forwarding apply to link codes only',
} as const;

/**
 * A code's smart-redirect options as they will be stored: `undefined` (unchanged), null (nothing on) or
 * JSON text. Refused (400 naming the field): options on a static code, rules or UTM/forwarding on a code
 * that shows a landing page instead of redirecting, and any rule destination or fallback URL that
 * points at one of our own short links or a local address (the same checks as a dynamic code's content).
 */
export function storedRedirectOptions(
  deps: Pick<AppDeps, 'config' | 'db'>,
  type: QrType,
  isDynamic: boolean,
  options: SmartRedirect | null | undefined,
): string | null | undefined {
  if (options === undefined || options === null) return options;
  if (isPlainRedirect(options)) return null;
  if (!isDynamic)
    throw appError('BAD_REQUEST', smartRedirectMessages.staticOptions, { field: 'redirectOptions' });
  if (!redirectingQrTypes.includes(type)) {
    if (options.rules.length > 0)
      throw appError('BAD_REQUEST', smartRedirectMessages.rulesOnLinks, { field: 'redirectOptions.rules' });
    if (options.utm !== null || options.forwardQuery)
      throw appError('BAD_REQUEST', smartRedirectMessages.trackingOnLinks, {
        field: options.utm !== null ? 'redirectOptions.utm' : 'redirectOptions.forwardQuery',
      });
  }
  for (const [i, { label, url }] of smartDestinations(options).entries()) {
    const field =
      i < options.rules.length ? `redirectOptions.rules.${i}.destination` : 'redirectOptions.fallbackUrl';
    if (pointsAtOwnShortLink(deps.config.publicUrl, url, shortDomainsOf(deps.db).isShortDomain))
      throw appError('BAD_REQUEST', `${label} cannot be one of this server's own short links`, { field });
    if (pointsAtLocalHost(url))
      throw appError('BAD_REQUEST', `${label} cannot be a local or private address`, { field });
  }
  return JSON.stringify(options);
}

/** The stored hash of a new password: `undefined` (unchanged), null (removed) or an argon2 hash. */
export async function storedPasswordHash(
  isDynamic: boolean,
  password: string | null | undefined,
): Promise<string | null | undefined> {
  if (password === undefined || password === null) return password;
  if (!isDynamic) throw appError('BAD_REQUEST', smartRedirectMessages.staticPassword, { field: 'password' });
  return hashPassword(password);
}
