import { createTokenInput, tokenIdInput } from '../../../src/auth/api-token.schema.js';
import { authedProcedure, router } from '../../trpc/init.js';
import { createToken, listTokens, revokeToken } from './tokens.service.js';

/** The signed-in user's personal API tokens (managed from the app's session only). */
export const tokensRouter = router({
  list: authedProcedure.query(({ ctx }) => listTokens(ctx, ctx.user)),
  create: authedProcedure
    .input(createTokenInput)
    .mutation(({ ctx, input }) => createToken(ctx, ctx.user, input)),
  revoke: authedProcedure
    .input(tokenIdInput)
    .mutation(({ ctx, input }) => revokeToken(ctx, ctx.user, input.id)),
});
