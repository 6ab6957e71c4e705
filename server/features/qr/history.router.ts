import { restoreVersionInput } from '../../../src/qr/history.js';
import { idInput } from '../../../src/qr/qr.schema.js';
import { workspaceProcedure } from '../../trpc/init.js';
import { listQrHistory, restoreQrVersion } from './history.service.js';

/** qr.history and qr.restore (spread into the qr router: a code's history is the code's). */
export const historyProcedures = {
  history: workspaceProcedure('viewer')
    .input(idInput)
    .query(({ ctx, input }) => listQrHistory(ctx, ctx.owner, input.id)),
  restore: workspaceProcedure('editor')
    .input(restoreVersionInput)
    .mutation(({ ctx, input }) => restoreQrVersion(ctx, ctx.owner, input)),
};
