import { forgotPasswordInput, loginInput, registerInput } from '../../../src/auth/auth.schema.js';
import { authedProcedure, publicProcedure, router } from '../../trpc/init.js';
import { getPublicConfig, login, logout, register, requestPasswordReset } from './auth.service.js';

export const authRouter = router({
  /** The signed-in user, or null when signed out (never an error). */
  me: publicProcedure.query(({ ctx }) => ctx.user),
  /** Like `me`, but an error when signed out: the REST path GET /api/user answers 401. */
  current: authedProcedure.query(({ ctx }) => ctx.user),
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => login(ctx, input)),
  register: publicProcedure.input(registerInput).mutation(({ ctx, input }) => register(ctx, input)),
  logout: publicProcedure.mutation(({ ctx }) => logout(ctx)),
  requestPasswordReset: publicProcedure
    .input(forgotPasswordInput)
    .mutation(({ ctx, input }) => requestPasswordReset(ctx, input)),
  publicConfig: publicProcedure.query(({ ctx }) => getPublicConfig(ctx)),
});
