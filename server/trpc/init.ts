import { initTRPC } from '@trpc/server';
import type { Context } from './context.js';
import { checkAccess, type Access } from './access.js';
import { extrasOf, publicMessageOf, validationIssuesOf } from './errors.js';

/** Each procedure says who may call it; the authorization matrix reads it from here. */
export interface ProcedureMeta {
  access: Access;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
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
export const publicProcedure = t.procedure.meta({ access: 'public' });

export const authedProcedure = t.procedure.meta({ access: 'user' }).use(({ ctx, next }) => {
  checkAccess('user', ctx.user);
  return next({ ctx: { ...ctx, user: ctx.user! } });
});

export const adminProcedure = t.procedure.meta({ access: 'admin' }).use(({ ctx, next }) => {
  checkAccess('admin', ctx.user);
  return next({ ctx: { ...ctx, user: ctx.user! } });
});
