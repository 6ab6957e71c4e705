import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app-deps.js';
import { authRest } from '../features/auth/auth.rest.js';
import { appRouter } from '../trpc/app-router.js';
import { createContext } from '../trpc/context.js';
import { createCallerFactory } from '../trpc/init.js';

const createCaller = createCallerFactory(appRouter);
export type Caller = ReturnType<typeof createCaller>;
export type CallerFor = (req: FastifyRequest, reply: FastifyReply) => Promise<Caller>;

/** The documented /api paths: each calls its tRPC procedure, so the two front doors cannot drift. */
export function restPlugin(deps: AppDeps) {
  return (app: FastifyInstance, _options: unknown, done: () => void) => {
    const callerFor: CallerFor = async (req, reply) => createCaller(await createContext(deps, req, reply));
    authRest(app, callerFor);
    done();
  };
}
