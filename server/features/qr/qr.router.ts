import { moveToWorkspaceInput } from '../../../src/workspaces/workspace.schema.js';
import { moveQrCodeToWorkspace } from './move-workspace.service.js';
import { bulkCreateInput } from '../../../src/qr/bulk.js';
import {
  createQrCodeInput,
  idInput,
  moveQrCodeInput,
  slugAvailabilityInput,
  updateQrCodeInput,
} from '../../../src/qr/qr.schema.js';
import { slugAvailability } from './slug.js';
import { availableDomains } from '../domains/short-domains.service.js';
import { bulkCreateQrCodes } from './bulk.service.js';
import { bulkRepeatsInput, checkBulkRepeats } from './bulk-repeats.js';
import { historyProcedures } from './history.router.js';
import { router, workspaceProcedure } from '../../trpc/init.js';
import {
  createQrCode,
  deleteQrCode,
  getQrCode,
  getQrLimit,
  listQrCodes,
  moveQrCode,
  scanQrCode,
  updateQrCode,
} from './qr.service.js';

export const qrRouter = router({
  list: workspaceProcedure('viewer').query(({ ctx }) => listQrCodes(ctx, ctx.owner)),
  get: workspaceProcedure('viewer')
    .input(idInput)
    .query(({ ctx, input }) => getQrCode(ctx, ctx.owner, input.id)),
  limit: workspaceProcedure('viewer').query(({ ctx }) => getQrLimit(ctx, ctx.owner)),
  create: workspaceProcedure('editor')
    .input(createQrCodeInput)
    .mutation(({ ctx, input }) => createQrCode(ctx, ctx.owner, input)),
  /** Many codes at once (a spreadsheet's rows): all checked, then created in one transaction. */
  bulkCreate: workspaceProcedure('editor')
    .input(bulkCreateInput)
    .mutation(({ ctx, input }) => bulkCreateQrCodes(ctx, ctx.owner, input)),
  /** Which rows of a bulk import repeat one of the caller's codes; stores nothing. */
  bulkRepeats: workspaceProcedure('editor')
    .input(bulkRepeatsInput)
    .mutation(({ ctx, input }) => checkBulkRepeats(ctx, ctx.owner, input)),
  /**
   * Whether a back-half could be a code's (the designer asks while the owner types). Short links are one
   * namespace for the whole server, so this says whether anyone's link has it, never whose.
   */
  slugAvailability: workspaceProcedure('editor')
    .input(slugAvailabilityInput)
    .query(async ({ ctx, input }) => {
      // The code being edited must be the caller's: another user's is a 404, as everywhere.
      if (input.id !== undefined) await getQrCode(ctx, ctx.owner, input.id);
      return slugAvailability(ctx.db, input.slug, input.id);
    }),
  /** The short domains a code of this workspace may use (the designer's Domain list). */
  domains: workspaceProcedure('viewer').query(({ ctx }) => availableDomains(ctx, ctx.owner.id)),
  update: workspaceProcedure('editor')
    .input(updateQrCodeInput)
    .mutation(({ ctx, input }) => updateQrCode(ctx, ctx.owner, input)),
  move: workspaceProcedure('editor')
    .input(moveQrCodeInput)
    .mutation(({ ctx, input }) => moveQrCode(ctx, ctx.owner, input)),
  /** Records a scan like a real one: a mutation, although the REST path is a GET. */
  scan: workspaceProcedure('editor')
    .input(idInput)
    .mutation(({ ctx, input }) => scanQrCode(ctx, ctx.owner, input.id)),
  delete: workspaceProcedure('editor')
    .input(idInput)
    .mutation(({ ctx, input }) => deleteQrCode(ctx, ctx.owner, input.id)),
  /** Into a team the caller edits: the short link never changes. */
  moveToWorkspace: workspaceProcedure('editor')
    .input(moveToWorkspaceInput)
    .mutation(({ ctx, input }) => moveQrCodeToWorkspace(ctx, ctx.owner, ctx.user, input)),
  /** qr.history, qr.restore: a code's versions, and bringing one back. */
  ...historyProcedures,
});
