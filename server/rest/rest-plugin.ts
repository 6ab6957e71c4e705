import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RuntimeDeps } from '../app-deps.js';
import { analyticsRest } from '../features/analytics/analytics.rest.js';
import { exportRest } from '../features/analytics/export.rest.js';
import { authRest } from '../features/auth/auth.rest.js';
import { foldersRest } from '../features/folders/folders.rest.js';
import { qrRest } from '../features/qr/qr.rest.js';
import { uploadsRest } from '../features/uploads/uploads.rest.js';
import { appRouter } from '../trpc/app-router.js';
import { createContext, type Context } from '../trpc/context.js';
import { createCallerFactory } from '../trpc/init.js';

const createCaller = createCallerFactory(appRouter);
export type Caller = ReturnType<typeof createCaller>;
export type CallerFor = (req: FastifyRequest, reply: FastifyReply) => Promise<Caller>;
/** For the few paths that are not procedures (multipart uploads, binary images). */
export type ContextFor = (req: FastifyRequest, reply: FastifyReply) => Promise<Context>;

/** The documented /api paths: each calls its tRPC procedure, so the two front doors cannot drift. */
export function restPlugin(deps: RuntimeDeps) {
  return async (app: FastifyInstance) => {
    const contextFor: ContextFor = (req, reply) => createContext(deps, req, reply);
    const callerFor: CallerFor = async (req, reply) => createCaller(await contextFor(req, reply));
    authRest(app, callerFor);
    qrRest(app, callerFor, deps, contextFor);
    foldersRest(app, callerFor);
    analyticsRest(app, callerFor);
    exportRest(app, contextFor);
    await uploadsRest(app, deps, contextFor);
  };
}
