import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenScope } from '../../src/auth/api-token.schema.js';
import type { User } from '../../src/auth/auth.schema.js';
import type { RuntimeDeps, SessionCookies, SessionDeps } from '../app-deps.js';
import { proxySession } from '../features/auth/proxy-sign-in.js';
import { readSession } from '../features/auth/sessions.js';
import { authenticateToken, bearerOf } from '../features/tokens/tokens.service.js';
import type { WorkspaceRequest } from './workspace-access.js';

/** A tRPC or REST request: the deps services take (SessionDeps), and who is calling. */
export interface Context extends SessionDeps {
  user: User | null;
  /** Set when the caller authenticated with `Authorization: Bearer` (REST only), not a session. */
  apiToken: { id: number; scope: TokenScope; prefix: string } | null;
  /** What the request says about its workspace; procedures resolve it (server/trpc/workspace-access.ts). */
  workspaceRequest: WorkspaceRequest;
}

/** The `X-Workspace` header, else a link's `?workspace=` (a download opened in a new tab has no header). */
function askedWorkspace(req: FastifyRequest): string | undefined {
  const header = req.headers['x-workspace'];
  if (typeof header === 'string') return header.trim();
  const query = req.query as Record<string, unknown> | undefined;
  const value = query?.workspace;
  return typeof value === 'string' ? value.trim() : undefined;
}

export async function createContext(
  deps: RuntimeDeps,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<Context> {
  const cookies: SessionCookies = {
    read: (name) => req.cookies[name],
    set: (name, value, options) => void reply.setCookie(name, value, options),
    clear: (name, options) => void reply.clearCookie(name, options),
  };
  const session = await readSession(deps, cookies);
  const context: Context = {
    ...deps,
    log: req.log,
    user: session?.user ?? null,
    sessionId: session?.id ?? null,
    apiToken: null,
    workspaceRequest: {
      asked: askedWorkspace(req),
      remembered: session?.currentWorkspaceId ?? null,
      tokenWorkspace: null,
    },
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    acceptLanguage: req.headers['accept-language'] ?? null,
    cookies,
  };
  // Signed in by a trusted reverse proxy: its headers say who is calling (proxy-sign-in.ts).
  const proxy = deps.config.sso?.proxy;
  if (proxy) {
    const signed = await proxySession(
      context,
      proxy,
      { peer: req.socket.remoteAddress, headers: req.headers },
      session,
    );
    context.user = signed?.user ?? null;
    context.sessionId = signed?.sessionId ?? null;
    if (signed?.sessionId !== session?.id) context.workspaceRequest.remembered = null;
  }
  return context;
}

type TokenAuth = Awaited<ReturnType<typeof authenticateToken>>;
const tokenAuths = new WeakMap<FastifyRequest, Promise<TokenAuth>>();

/**
 * The bearer token of a REST request, looked up and counted against its rate limit once per request:
 * as soon as the request arrives (so that a request refused later, even before its body is read, still
 * counts), and reused by the context.
 */
export function authenticateBearer(
  deps: RuntimeDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  bearer: string,
): Promise<TokenAuth> {
  let auth = tokenAuths.get(req);
  if (!auth) {
    auth = authenticateToken(
      { ...deps, log: req.log, ip: req.ip, route: `${req.method} ${req.routeOptions.url ?? '?'}` },
      bearer,
      reply,
    );
    tokenAuths.set(req, auth);
  }
  return auth;
}

/**
 * A REST request's context: a bearer token when the request carries one (then cookies are not read), else
 * the session cookie as for tRPC.
 */
export async function createRestContext(
  deps: RuntimeDeps,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<Context> {
  const bearer = bearerOf(req.headers.authorization);
  if (bearer === undefined) return createContext(deps, req, reply);
  const auth = await authenticateBearer(deps, req, reply, bearer);
  const noCookies = { read: () => undefined, set: () => undefined, clear: () => undefined };
  return {
    ...deps,
    log: req.log,
    user: auth.user,
    sessionId: null,
    apiToken: { id: auth.tokenId, scope: auth.scope, prefix: auth.prefix },
    workspaceRequest: { asked: askedWorkspace(req), remembered: null, tokenWorkspace: auth.workspaceId },
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    acceptLanguage: req.headers['accept-language'] ?? null,
    cookies: noCookies,
  };
}
