import { initTRPC } from '@trpc/server';
import type { Context } from './context.js';
import { checkAccess } from './access.js';
import { extrasOf, publicMessageOf, validationIssuesOf } from './errors.js';

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
  checkAccess('user', ctx.user);
  return next({ ctx: { ...ctx, user: ctx.user! } });
});

export const adminProcedure = t.procedure.use(({ ctx, next }) => {
  checkAccess('admin', ctx.user);
  return next({ ctx: { ...ctx, user: ctx.user! } });
});
