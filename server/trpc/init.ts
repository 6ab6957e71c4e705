import { initTRPC } from '@trpc/server';
import type { Context } from './context.js';
import { appError, extrasOf, publicMessageOf, validationIssuesOf } from './errors.js';

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    return {
      ...shape,
      message: publicMessageOf(error),
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        issues: validationIssuesOf(error),
        extras: extrasOf(error),
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

export const authedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) throw appError('UNAUTHORIZED', 'Not signed in');
  return next({ ctx: { ...ctx, user: ctx.user } });
});

export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isAdmin) throw appError('FORBIDDEN', 'Admin access required');
  return next();
});
