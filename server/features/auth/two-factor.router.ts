import {
  twoFactorCodeInput,
  twoFactorDisableInput,
  twoFactorPasswordInput,
} from '../../../src/auth/account.schema.js';
import { authedProcedure, router } from '../../trpc/init.js';
import {
  beginTwoFactor,
  confirmTwoFactor,
  disableTwoFactor,
  getTwoFactorStatus,
} from './two-factor.service.js';

export const twoFactorRouter = router({
  status: authedProcedure.query(({ ctx }) => getTwoFactorStatus(ctx, ctx.user)),
  begin: authedProcedure
    .input(twoFactorPasswordInput)
    .mutation(({ ctx, input }) => beginTwoFactor(ctx, ctx.user, input.password)),
  confirm: authedProcedure
    .input(twoFactorCodeInput)
    .mutation(({ ctx, input }) => confirmTwoFactor(ctx, ctx.user, input.code)),
  disable: authedProcedure
    .input(twoFactorDisableInput)
    .mutation(({ ctx, input }) => disableTwoFactor(ctx, ctx.user, input.password, input.code)),
});
