import * as client from 'openid-client';
import type { ExternalProfile } from './sso-sign-in.js';
import type { OidcProviderConfig } from './sso.config.js';

// The relying party's side of each configured OpenID Provider: its discovered configuration (asked once,
// asked again after a failure), and the person its claims describe.

const configurations = new WeakMap<OidcProviderConfig, Promise<client.Configuration>>();

/** Seconds an answer of the provider may take before the request counts as failed. */
const TIMEOUT_S = 10;

async function discover(provider: OidcProviderConfig): Promise<client.Configuration> {
  const issuer = new URL(provider.issuer);
  // The ID token's signature is checked against the provider's keys even though it comes straight from
  // the token endpoint: an http:// issuer (allowed, for a provider on the same host) has no TLS to vouch.
  const execute = [
    client.enableNonRepudiationChecks,
    ...(issuer.protocol === 'http:' ? [client.allowInsecureRequests] : []),
  ];
  const secret = provider.clientSecret;
  const discovered = await client.discovery(
    issuer,
    provider.clientId,
    secret,
    secret ? client.ClientSecretBasic(secret) : client.None(),
    { execute, timeout: TIMEOUT_S },
  );
  // client_secret_basic is the default of the standard (and what most providers register a client
  // with); a provider that takes the secret only in the body gets it there.
  const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
  let configuration = discovered;
  if (
    secret &&
    methods &&
    !methods.includes('client_secret_basic') &&
    methods.includes('client_secret_post')
  ) {
    configuration = new client.Configuration(
      discovered.serverMetadata(),
      provider.clientId,
      secret,
      client.ClientSecretPost(secret),
    );
    for (const run of execute) run(configuration);
  }
  configuration.timeout = TIMEOUT_S;
  return configuration;
}

/**
 * The provider's configuration, discovered at its first use (not at start: the server starts while a
 * provider is down). A failed discovery is forgotten, so that the next sign-in asks again.
 */
export function configurationOf(provider: OidcProviderConfig): Promise<client.Configuration> {
  let found = configurations.get(provider);
  if (!found) {
    const pending = discover(provider);
    found = pending;
    configurations.set(provider, pending);
    pending.catch(() => {
      if (configurations.get(provider) === pending) configurations.delete(provider);
    });
  }
  return found;
}

export type Claims = Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A groups claim as providers give it: an array of names (Keycloak, Authentik, Okta) or one name. */
function groupsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (!Array.isArray(value)) return [];
  return value.filter((g): g is string => typeof g === 'string' && g.trim() !== '');
}

/** The person the provider's claims (ID token, with userinfo where it lacks some) describe. */
export function profileOf(provider: OidcProviderConfig, claims: Claims): ExternalProfile {
  const sub = String(claims.sub);
  const email = text(claims.email);
  const given = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return {
    provider: `oidc:${provider.id}`,
    subject: sub,
    username: text(claims[provider.usernameClaim]) ?? (email ? email.split('@')[0]! : null) ?? sub,
    email,
    // Only a literal true: a provider that says nothing (or "true" as text) does not vouch for it.
    emailVerified: email !== null && claims.email_verified === true,
    name: text(claims.name) ?? (given || null),
    groups: groupsOf(claims[provider.groupsClaim]),
  };
}

/**
 * The ID token's claims, completed by the userinfo endpoint when the token lacks the groups or the
 * address (many providers put only `sub` and the basics in the token). `sub` must be the token's.
 */
export async function claimsOf(
  configuration: client.Configuration,
  provider: OidcProviderConfig,
  idClaims: Claims | undefined,
  accessToken: string,
): Promise<Claims> {
  const complete =
    idClaims !== undefined && provider.groupsClaim in idClaims && 'email' in idClaims && 'sub' in idClaims;
  if (complete || !configuration.serverMetadata().userinfo_endpoint) {
    if (!idClaims) throw new Error('the provider answered neither an ID token nor a userinfo endpoint');
    return idClaims;
  }
  const userinfo = await client.fetchUserInfo(
    configuration,
    accessToken,
    typeof idClaims?.sub === 'string' ? idClaims.sub : client.skipSubjectCheck,
  );
  return { ...userinfo, ...idClaims };
}

/** What an error of the provider's round trip was, for the log: never a token or a code. */
export function describeOidcError(error: unknown): Record<string, unknown> {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
    return { error: error.error, description: error.error_description ?? null };
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const cause = error.cause instanceof Error ? error.cause.message : undefined;
    return {
      name: error.name,
      message: error.message,
      ...(code ? { code } : {}),
      ...(cause ? { cause } : {}),
    };
  }
  return { message: String(error) };
}

/** Whether the provider answered with an OAuth error (a verdict), not with an outage. */
export function isOAuthRefusal(error: unknown): boolean {
  return error instanceof client.ResponseBodyError && error.status >= 400 && error.status < 500;
}
