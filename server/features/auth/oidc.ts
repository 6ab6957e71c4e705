import type { FastifyInstance } from 'fastify';
import type { AppDeps, RuntimeDeps } from '../../app-deps.js';
import type { ExternalProfile } from './sso-sign-in.js';
import type { OidcProviderConfig } from './sso.config.js';

// PLACEHOLDER — the OIDC helper replaces this whole file (same exports).

/** GET /api/auth/oidc/:id/start, GET /api/auth/oidc/:id/callback, POST /api/auth/oidc/:id/backchannel-logout. */
export function registerOidcRoutes(app: FastifyInstance, deps: RuntimeDeps): void {
  void app;
  void deps;
}

export type OidcRecheck =
  | { status: 'active'; profile: ExternalProfile; refreshToken: string | null; idToken: string | null }
  | { status: 'ended' };

/** A refresh grant: the provider still vouches for the person (with fresh claims), or not. Throws when unreachable. */
export function oidcRecheck(
  deps: AppDeps,
  provider: OidcProviderConfig,
  refreshToken: string,
): Promise<OidcRecheck> {
  void deps;
  void provider;
  void refreshToken;
  return Promise.reject(new Error('OIDC re-check is not built yet'));
}

/** The provider's end-session URL for RP-initiated logout, if it has one. */
export function oidcLogoutUrl(
  deps: AppDeps,
  provider: OidcProviderConfig,
  idToken: string | null,
): Promise<string | undefined> {
  void deps;
  void provider;
  void idToken;
  return Promise.resolve(undefined);
}
