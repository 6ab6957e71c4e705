import { createTokenInput, tokenIdInput } from '../../../src/auth/api-token.schema.js';
import { router, workspaceProcedure } from '../../trpc/init.js';
import { createToken, listTokens, revokeToken } from './tokens.service.js';

/**
 * The API tokens of the current workspace (managed from the app's session only): one's own in one's own
 * workspace; in a team, its admins manage every member's token for it.
 */
export const tokensRouter = router({
  list: workspaceProcedure('admin').query(({ ctx }) => listTokens(ctx, ctx.user, ctx.workspace.id)),
  create: workspaceProcedure('admin')
    .input(createTokenInput)
    .mutation(({ ctx, input }) => createToken(ctx, ctx.user, input, ctx.workspace.id)),
  revoke: workspaceProcedure('admin')
    .input(tokenIdInput)
    .mutation(({ ctx, input }) => revokeToken(ctx, ctx.user, input.id, ctx.workspace.id)),
});
