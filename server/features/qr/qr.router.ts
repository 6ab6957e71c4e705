import { bulkCreateInput } from '../../../src/qr/bulk.js';
import { createQrCodeInput, idInput, moveQrCodeInput, updateQrCodeInput } from '../../../src/qr/qr.schema.js';
import { bulkCreateQrCodes } from './bulk.service.js';
import { bulkRepeatsInput, checkBulkRepeats } from './bulk-repeats.js';
import { historyProcedures } from './history.router.js';
import { authedProcedure, router } from '../../trpc/init.js';
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
  list: authedProcedure.query(({ ctx }) => listQrCodes(ctx, ctx.user)),
  get: authedProcedure.input(idInput).query(({ ctx, input }) => getQrCode(ctx, ctx.user, input.id)),
  limit: authedProcedure.query(({ ctx }) => getQrLimit(ctx, ctx.user)),
  create: authedProcedure
    .input(createQrCodeInput)
    .mutation(({ ctx, input }) => createQrCode(ctx, ctx.user, input)),
  /** Many codes at once (a spreadsheet's rows): all checked, then created in one transaction. */
  bulkCreate: authedProcedure
    .input(bulkCreateInput)
    .mutation(({ ctx, input }) => bulkCreateQrCodes(ctx, ctx.user, input)),
  /** Which rows of a bulk import repeat one of the caller's codes; stores nothing. */
  bulkRepeats: authedProcedure
    .input(bulkRepeatsInput)
    .mutation(({ ctx, input }) => checkBulkRepeats(ctx, ctx.user, input)),
  update: authedProcedure
    .input(updateQrCodeInput)
    .mutation(({ ctx, input }) => updateQrCode(ctx, ctx.user, input)),
  move: authedProcedure.input(moveQrCodeInput).mutation(({ ctx, input }) => moveQrCode(ctx, ctx.user, input)),
  /** Records a scan like a real one: a mutation, although the REST path is a GET. */
  scan: authedProcedure.input(idInput).mutation(({ ctx, input }) => scanQrCode(ctx, ctx.user, input.id)),
  delete: authedProcedure.input(idInput).mutation(({ ctx, input }) => deleteQrCode(ctx, ctx.user, input.id)),
  /** qr.history, qr.restore: a code's versions, and bringing one back. */
  ...historyProcedures,
});
