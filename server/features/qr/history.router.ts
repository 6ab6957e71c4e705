import { restoreVersionInput } from '../../../src/qr/history.js';
import { idInput } from '../../../src/qr/qr.schema.js';
import { authedProcedure } from '../../trpc/init.js';
import { listQrHistory, restoreQrVersion } from './history.service.js';

/** qr.history and qr.restore (spread into the qr router: a code's history is the code's). */
export const historyProcedures = {
  history: authedProcedure.input(idInput).query(({ ctx, input }) => listQrHistory(ctx, ctx.user, input.id)),
  restore: authedProcedure
    .input(restoreVersionInput)
    .mutation(({ ctx, input }) => restoreQrVersion(ctx, ctx.user, input)),
};
