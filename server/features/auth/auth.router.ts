import {
  emailLinkInput,
  loginInput,
  registerInput,
  resetPasswordInput,
  ssoLinkInput,
  tokenInput,
} from '../../../src/auth/auth.schema.js';
import { twoFactorCodeInput } from '../../../src/auth/account.schema.js';
import { authedProcedure, publicProcedure, router } from '../../trpc/init.js';
import { finishPendingLogin } from './two-factor.service.js';
import { getPublicConfig, login, logout, register } from './auth.service.js';
import { completeLink, pendingLink } from './sso-sign-in.js';
import {
  requestPasswordReset,
  resendVerification,
  resetPassword,
  undoEmailChange,
  verifyEmailToken,
  verifyResetToken,
} from './recovery.service.js';

export const authRouter = router({
  /** The signed-in user, or null when signed out (never an error). */
  me: publicProcedure.query(({ ctx }) => ctx.user),
  /** Like `me`, but an error when signed out: the REST path GET /api/user answers 401. */
  current: authedProcedure.query(({ ctx }) => ctx.user),
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => login(ctx, input)),
  /** The second step of a sign-in with two-factor on: the code for this browser's pending sign-in. */
  loginTwoFactor: publicProcedure
    .input(twoFactorCodeInput)
    .mutation(({ ctx, input }) => finishPendingLogin(ctx, input.code)),
  register: publicProcedure.input(registerInput).mutation(({ ctx, input }) => register(ctx, input)),
  logout: publicProcedure.mutation(({ ctx }) => logout(ctx)),
  requestPasswordReset: publicProcedure
    .input(emailLinkInput)
    .mutation(({ ctx, input }) => requestPasswordReset(ctx, input)),
  verifyResetToken: publicProcedure
    .input(tokenInput)
    .mutation(({ ctx, input }) => verifyResetToken(ctx, input.token)),
  resetPassword: publicProcedure
    .input(resetPasswordInput)
    .mutation(({ ctx, input }) => resetPassword(ctx, input)),
  undoEmailChange: publicProcedure
    .input(tokenInput)
    .mutation(({ ctx, input }) => undoEmailChange(ctx, input.token)),
  verifyEmail: publicProcedure
    .input(tokenInput)
    .mutation(({ ctx, input }) => verifyEmailToken(ctx, input.token)),
  resendVerification: publicProcedure
    .input(emailLinkInput)
    .mutation(({ ctx, input }) => resendVerification(ctx, input)),
  publicConfig: publicProcedure.query(({ ctx }) => getPublicConfig(ctx)),
  /** This browser's pending link of a company account to an existing local account (by address). */
  ssoLink: publicProcedure.query(({ ctx }) => pendingLink(ctx)),
  /** The existing account's password, once: links the company account and signs in. */
  ssoLinkComplete: publicProcedure.input(ssoLinkInput).mutation(async ({ ctx, input }) => {
    const result = await completeLink(ctx, input.password);
    if (result.status === 'two-factor') return { requiresTwoFactor: true as const, message: result.message };
    if (result.status === 'signed-in') return result.user;
    throw new Error('a proved link always signs in');
  }),
});
