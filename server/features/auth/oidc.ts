import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import * as client from 'openid-client';
import type { AppDeps, RuntimeDeps } from '../../app-deps.js';
import { appError } from '../../errors.js';
import { sendRestError } from '../../rest/rest-errors.js';
import { createContext } from '../../trpc/context.js';
import { claimsOf, configurationOf, describeOidcError, isOAuthRefusal, profileOf } from './oidc-client.js';
import { deleteOidcSessions } from './sso-identities.repository.js';
import { signInExternal, type ExternalProfile } from './sso-sign-in.js';
import type { OidcProviderConfig } from './sso.config.js';

// Sign-in with an OpenID Provider: the authorization code flow with PKCE, state and nonce (the code
// exchange and the ID token's signature, issuer, audience and nonce are checked by openid-client), the
// person handed to signInExternal, and the provider's ways of ending our sessions: a refresh that is
// refused (sso-recheck.ts), a back-channel logout token, and RP-initiated logout when we sign out.

/** The round trip's secrets between /start and /callback: a cookie of this browser only, 10 minutes. */
const FLOW_COOKIE = 'qr_oidc';
const FLOW_PATH = '/api/auth/oidc/';
const FLOW_TTL_S = 600;
const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** How old a logout token may be: it is sent the moment the person signs out at the provider. */
const LOGOUT_TOKEN_MAX_AGE_S = 300;

export const oidcMessages = {
  unknownProvider: 'No such sign-in provider.',
  failed: (name: string) => `Sign-in with ${name} failed. Try again.`,
  expired: (name: string) =>
    `Sign-in with ${name} took too long or was started in another browser. Try again.`,
  unavailable: (name: string) => `${name} is not answering. Try again in a minute.`,
  invalidLogoutToken: 'logout_token is missing or not a valid logout token of this provider.',
} as const;

interface Flow {
  /** The provider's id: a round trip started for one provider does not finish at another. */
  p: string;
  state: string;
  nonce: string;
  verifier: string;
  redirect: string;
}

function providerOf(deps: AppDeps, id: string): OidcProviderConfig {
  const provider = deps.config.sso?.oidc.find((p) => p.id === id);
  if (!provider) throw appError('NOT_FOUND', oidcMessages.unknownProvider);
  return provider;
}

function callbackUrl(deps: AppDeps, provider: OidcProviderConfig): string {
  return `${deps.config.publicUrl}/api/auth/oidc/${provider.id}/callback`;
}

/** A path of this site to land on after signing in; anything else (another site, `//host`) is `/`. */
export function safeRedirect(publicUrl: string, wanted: unknown): string {
  if (typeof wanted !== 'string' || wanted.length > 2000 || !wanted.startsWith('/')) return '/';
  // `//host` and `/\host` are other sites to a browser; control characters have no business here.
  // eslint-disable-next-line no-control-regex
  if (/^\/[/\\]/.test(wanted) || /[\u0000-\u001f\u007f]/.test(wanted)) return '/';
  const origin = new URL(publicUrl).origin;
  const url = new URL(wanted, origin);
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : '/';
}

function flowCookieOptions(deps: AppDeps) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: FLOW_PATH,
    secure: deps.config.publicUrl.startsWith('https:'),
  };
}

function readFlow(value: string | undefined, providerId: string): Flow | undefined {
  if (!value || value.length > 2000) return undefined;
  try {
    const flow = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Flow>;
    const fields = [flow.p, flow.state, flow.nonce, flow.verifier, flow.redirect];
    if (fields.some((f) => typeof f !== 'string') || flow.p !== providerId) return undefined;
    return flow as Flow;
  } catch {
    return undefined;
  }
}

function signInError(reply: FastifyReply, message: string) {
  return reply.redirect(`/auth?sso_error=${encodeURIComponent(message)}`, 302);
}

/** The message a person sees for a failed sign-in: ours when we refused, else a generic one. */
function messageOf(error: unknown, provider: OidcProviderConfig): string {
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') return error.message;
  return oidcMessages.failed(provider.name);
}

async function start(deps: RuntimeDeps, req: FastifyRequest, reply: FastifyReply) {
  const { id } = req.params as { id: string };
  const provider = providerOf(deps, id);
  const redirect = safeRedirect(deps.config.publicUrl, (req.query as { redirect?: unknown }).redirect);
  let configuration: client.Configuration;
  try {
    configuration = await configurationOf(provider);
  } catch (error) {
    req.log.warn({ provider: id, reason: describeOidcError(error) }, 'OpenID provider discovery failed');
    return signInError(reply, oidcMessages.unavailable(provider.name));
  }
  const scopes = new Set(['openid', ...provider.scopes.split(/\s+/).filter(Boolean)]);
  // A refresh token lets the re-check ask the provider whether the person is still welcome.
  if (configuration.serverMetadata().scopes_supported?.includes('offline_access'))
    scopes.add('offline_access');
  const flow: Flow = {
    p: provider.id,
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    redirect,
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: callbackUrl(deps, provider),
    scope: [...scopes].join(' '),
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
  });
  void reply.setCookie(FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
    ...flowCookieOptions(deps),
    maxAge: FLOW_TTL_S,
  });
  void reply.header('Cache-Control', 'no-store');
  return reply.redirect(url.href, 302);
}

async function callback(deps: RuntimeDeps, req: FastifyRequest, reply: FastifyReply) {
  const { id } = req.params as { id: string };
  const provider = providerOf(deps, id);
  const flow = readFlow(req.cookies[FLOW_COOKIE], provider.id);
  // One use only, whatever happens next.
  void reply.clearCookie(FLOW_COOKIE, flowCookieOptions(deps));
  void reply.header('Cache-Control', 'no-store');
  if (!flow) {
    req.log.warn({ provider: id }, 'OpenID Connect callback without its round trip cookie');
    return signInError(reply, oidcMessages.expired(provider.name));
  }
  let profile: ExternalProfile;
  let session: { sid: string | null; refreshToken: string | null; idToken: string | null };
  try {
    const configuration = await configurationOf(provider);
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    const tokens = await client.authorizationCodeGrant(
      configuration,
      new URL(`${callbackUrl(deps, provider)}${query}`),
      {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      },
    );
    const idClaims = tokens.claims();
    const claims = await claimsOf(configuration, provider, idClaims, tokens.access_token);
    profile = profileOf(provider, claims);
    session = {
      sid: typeof idClaims?.sid === 'string' ? idClaims.sid : null,
      refreshToken: tokens.refresh_token ?? null,
      idToken: tokens.id_token ?? null,
    };
  } catch (error) {
    req.log.warn({ provider: id, reason: describeOidcError(error) }, 'OpenID Connect sign-in refused');
    return signInError(reply, messageOf(error, provider));
  }
  try {
    const ctx = await createContext(deps, req, reply);
    const result = await signInExternal(ctx, profile, session);
    if (result.status === 'two-factor') return reply.redirect('/auth?sso=two-factor', 302);
    if (result.status === 'link-required') return reply.redirect('/auth/link', 302);
    return reply.redirect(flow.redirect, 302);
  } catch (error) {
    const expected = error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR';
    if (expected) req.log.warn({ provider: id, reason: error.message }, 'OpenID Connect sign-in refused');
    else req.log.error({ provider: id, err: error }, 'OpenID Connect sign-in failed');
    return signInError(reply, messageOf(error, provider));
  }
}

const keySets = new WeakMap<OidcProviderConfig, { uri: string; keys: JWTVerifyGetKey }>();

function keysOf(provider: OidcProviderConfig, configuration: client.Configuration): JWTVerifyGetKey {
  const uri = configuration.serverMetadata().jwks_uri;
  if (!uri) throw new Error('the provider publishes no jwks_uri');
  let found = keySets.get(provider);
  if (found?.uri !== uri) {
    found = { uri, keys: createRemoteJWKSet(new URL(uri), { timeoutDuration: 10_000 }) };
    keySets.set(provider, found);
  }
  return found.keys;
}

/** The session (`sid`) or person (`sub`) a valid logout token of this provider names; throws otherwise. */
async function verifyLogoutToken(
  provider: OidcProviderConfig,
  token: string,
): Promise<{ sid: string | null; sub: string | null }> {
  const configuration = await configurationOf(provider);
  const { payload } = await jwtVerify(token, keysOf(provider, configuration), {
    issuer: configuration.serverMetadata().issuer,
    audience: provider.clientId,
    requiredClaims: ['iat'],
    maxTokenAge: LOGOUT_TOKEN_MAX_AGE_S,
  });
  const events = payload.events as Record<string, unknown> | undefined;
  if (typeof events !== 'object' || events === null || typeof events[BACKCHANNEL_EVENT] !== 'object') {
    throw new Error('the token names no back-channel logout event');
  }
  // A nonce is what an ID token has: an ID token passed off as a logout token.
  if ('nonce' in payload) throw new Error('the token carries a nonce');
  const sid = typeof payload.sid === 'string' ? payload.sid : null;
  const sub = typeof payload.sub === 'string' ? payload.sub : null;
  if (!sid && !sub) throw new Error('the token names neither sid nor sub');
  return { sid, sub };
}

async function backchannelLogout(deps: RuntimeDeps, req: FastifyRequest, reply: FastifyReply) {
  const { id } = req.params as { id: string };
  const provider = providerOf(deps, id);
  void reply.header('Cache-Control', 'no-store');
  const token = (req.body as Record<string, unknown> | undefined)?.logout_token;
  let named: { sid: string | null; sub: string | null };
  try {
    if (typeof token !== 'string' || token.length > 16_384) throw new Error('no logout_token');
    named = await verifyLogoutToken(provider, token);
  } catch (error) {
    req.log.warn({ provider: id, reason: describeOidcError(error) }, 'Back-channel logout refused');
    return sendRestError(appError('BAD_REQUEST', oidcMessages.invalidLogoutToken), req, reply);
  }
  const ended = await deleteOidcSessions(deps.db, `oidc:${provider.id}`, {
    sid: named.sid,
    subject: named.sub,
  });
  req.log.info({ provider: id, ended }, 'Back-channel logout');
  return reply.status(200).send();
}

/** GET /api/auth/oidc/:id/start, GET /api/auth/oidc/:id/callback, POST /api/auth/oidc/:id/backchannel-logout. */
export function registerOidcRoutes(app: FastifyInstance, deps: RuntimeDeps): void {
  app.get('/api/auth/oidc/:id/start', (req, reply) => start(deps, req, reply));
  app.get('/api/auth/oidc/:id/callback', (req, reply) => callback(deps, req, reply));
  // The provider's server posts a form (no Origin, no cookie: the CSRF check lets it through). Form
  // bodies are parsed for this route only: nowhere else may a foreign page's form reach the API.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 32 * 1024 },
      (_req, body, parsed) => parsed(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.post('/api/auth/oidc/:id/backchannel-logout', (req, reply) => backchannelLogout(deps, req, reply));
    done();
  });
}

export type OidcRecheck =
  | { status: 'active'; profile: ExternalProfile; refreshToken: string | null; idToken: string | null }
  | { status: 'ended' };

/** A refresh grant: the provider still vouches for the person (with fresh claims), or not. Throws when unreachable. */
export async function oidcRecheck(
  deps: AppDeps,
  provider: OidcProviderConfig,
  refreshToken: string,
): Promise<OidcRecheck> {
  void deps;
  const configuration = await configurationOf(provider);
  let tokens;
  try {
    tokens = await client.refreshTokenGrant(configuration, refreshToken);
  } catch (error) {
    // invalid_grant and its kin: the provider ended the person's grant (removed, disabled, signed out).
    if (isOAuthRefusal(error)) return { status: 'ended' };
    throw error;
  }
  const claims = await claimsOf(configuration, provider, tokens.claims(), tokens.access_token);
  return {
    status: 'active',
    profile: profileOf(provider, claims),
    refreshToken: tokens.refresh_token ?? null,
    idToken: tokens.id_token ?? null,
  };
}

/** The provider's end-session URL for RP-initiated logout, if it has one. */
export async function oidcLogoutUrl(
  deps: AppDeps,
  provider: OidcProviderConfig,
  idToken: string | null,
): Promise<string | undefined> {
  const configuration = await configurationOf(provider);
  if (!configuration.serverMetadata().end_session_endpoint) return undefined;
  return client.buildEndSessionUrl(configuration, {
    client_id: provider.clientId,
    post_logout_redirect_uri: `${deps.config.publicUrl}/auth`,
    ...(idToken ? { id_token_hint: idToken } : {}),
  }).href;
}
