import {
  changePasswordInput,
  emailTestInput,
  sessionIdInput,
  signOutOthersInput,
  updatePreferencesInput,
  updateProfileInput,
} from '../../../src/auth/account.schema.js';
import { adminProcedure, authedProcedure, router } from '../../trpc/init.js';
import {
  changePassword,
  getPreferences,
  listSessions,
  revokeOtherSessions,
  revokeSession,
  sendTestEmail,
  sendVerificationLink,
  updatePreferences,
  updateProfile,
  verifyEmailService,
} from './account.service.js';

/** The signed-in user's own account; the mail tools are for admins. */
export const accountRouter = router({
  updateProfile: authedProcedure
    .input(updateProfileInput)
    .mutation(({ ctx, input }) => updateProfile(ctx, ctx.user, input)),
  changePassword: authedProcedure
    .input(changePasswordInput)
    .mutation(({ ctx, input }) => changePassword(ctx, ctx.user, input)),
  sendVerificationLink: authedProcedure.mutation(({ ctx }) => sendVerificationLink(ctx, ctx.user)),
  preferences: authedProcedure.query(({ ctx }) => getPreferences(ctx, ctx.user)),
  updatePreferences: authedProcedure
    .input(updatePreferencesInput)
    .mutation(({ ctx, input }) => updatePreferences(ctx, ctx.user, input)),
  sessions: authedProcedure.query(({ ctx }) => listSessions(ctx, ctx.user)),
  revokeSession: authedProcedure
    .input(sessionIdInput)
    .mutation(({ ctx, input }) => revokeSession(ctx, ctx.user, input.id)),
  revokeOtherSessions: authedProcedure
    .input(signOutOthersInput)
    .mutation(({ ctx, input }) => revokeOtherSessions(ctx, ctx.user, input)),
  verifyEmailService: adminProcedure.mutation(({ ctx }) => verifyEmailService(ctx)),
  sendTestEmail: adminProcedure
    .input(emailTestInput)
    .mutation(({ ctx, input }) => sendTestEmail(ctx, ctx.user, input)),
});
