import { initTRPC } from '@trpc/server';
import type { Context } from './context.js';
import { checkAccess, type Access } from './access.js';
import { checkRole, resolveWorkspace } from './workspace-access.js';
import { ownerActing } from '../features/workspaces/owner.js';
import type { WorkspaceRole } from '../../src/workspaces/workspace.schema.js';
import { isNulInTextError, nulInTextMessage } from '../db/db-errors.js';
import { appError, extrasOf, publicMessageOf, validationIssuesOf } from '../errors.js';

/** Each procedure says who may call it; the authorization matrix reads it from here. */
export interface ProcedureMeta {
  access: Access;
  /**
   * The role the caller needs in the workspace the call acts on: the current one (`workspaceProcedure`),
   * or the one its input names (the workspace's own settings). Unset: not about a workspace (the
   * caller's account, sign-in, the admin area).
   */
  role?: WorkspaceRole;
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

/**
 * A call on the current workspace (server/trpc/workspace-access.ts): signed in, a member with at least
 * `role`. `ctx.owner` is the workspace's account (what owns codes and the plan), `ctx.user` who acts.
 */
export function workspaceProcedure(role: WorkspaceRole) {
  return procedure.meta({ access: 'user', role }).use(async ({ ctx, next }) => {
    checkAccess('user', ctx.user);
    const user = ctx.user!;
    const workspace = await resolveWorkspace(ctx.db, user, ctx.workspaceRequest);
    checkRole(workspace, role);
    return next({ ctx: { ...ctx, user, workspace, owner: ownerActing(workspace.owner, user) } });
  });
}

/** A call about a workspace its input names (members, invitations): the service checks the role. */
export function workspaceAdminProcedure(role: WorkspaceRole) {
  return procedure.meta({ access: 'user', role }).use(({ ctx, next }) => {
    checkAccess('user', ctx.user);
    return next({ ctx: { ...ctx, user: ctx.user! } });
  });
}
