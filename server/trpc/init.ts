import { initTRPC } from '@trpc/server';
import type { Context } from './context.js';
import { checkAccess, type Access } from './access.js';
import { isNulInTextError, nulInTextMessage } from '../db/db-errors.js';
import { appError, extrasOf, publicMessageOf, validationIssuesOf } from '../errors.js';

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

/** Every procedure: a NUL character PostgreSQL refuses in text is the caller's bad input (400), not a 500. */
const procedure = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (!result.ok && isNulInTextError(result.error.cause)) throw appError('BAD_REQUEST', nulInTextMessage);
  return result;
});

export const publicProcedure = procedure.meta({ access: 'public' });

export const authedProcedure = procedure.meta({ access: 'user' }).use(({ ctx, next }) => {
  checkAccess('user', ctx.user);
  return next({ ctx: { ...ctx, user: ctx.user! } });
});

export const adminProcedure = procedure.meta({ access: 'admin' }).use(({ ctx, next }) => {
  checkAccess('admin', ctx.user);
  return next({ ctx: { ...ctx, user: ctx.user! } });
});
