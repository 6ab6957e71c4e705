import {
  createShareInput,
  listSharesInput,
  shareIdInput,
  unlockShareInput,
  viewShareInput,
} from '../../../src/shares/share.schema.js';
import { publicProcedure, router, workspaceProcedure } from '../../trpc/init.js';
import { createShare, listShares, revokeShare, unlockShare, viewShare } from './shares.service.js';

/** Shared dashboards (issue 36): viewers list the links, editors make and revoke them; anyone opens one. */
export const sharesRouter = router({
  list: workspaceProcedure('viewer')
    .input(listSharesInput.optional())
    .query(({ ctx, input }) => listShares(ctx, ctx.owner.id, input ?? {})),
  create: workspaceProcedure('editor')
    .input(createShareInput)
    .mutation(({ ctx, input }) => createShare(ctx, ctx.owner.id, ctx.user.id, input)),
  revoke: workspaceProcedure('editor')
    .input(shareIdInput)
    .mutation(({ ctx, input }) => revokeShare(ctx, ctx.owner.id, input.id)),
  view: publicProcedure.input(viewShareInput).query(({ ctx, input }) => viewShare(ctx, input)),
  unlock: publicProcedure.input(unlockShareInput).mutation(({ ctx, input }) => unlockShare(ctx, input)),
});
