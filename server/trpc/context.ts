import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../src/auth/auth.schema.js';
import type { RequestDeps, RuntimeDeps } from '../app-deps.js';
import { readSession, type SessionCookies } from '../features/auth/sessions.js';

export interface Context extends RequestDeps {
  user: User | null;
  /** Hash of the current session token, when signed in. */
  sessionId: string | null;
  cookies: SessionCookies;
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
  return {
    ...deps,
    log: req.log,
    user: session?.user ?? null,
    sessionId: session?.id ?? null,
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    cookies,
  };
}
