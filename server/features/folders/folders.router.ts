import { createFolderInput, idInput } from '../../../src/qr/qr.schema.js';
import { authedProcedure, router } from '../../trpc/init.js';
import { createFolder, deleteFolder, listFolders } from './folders.service.js';

export const foldersRouter = router({
  list: authedProcedure.query(({ ctx }) => listFolders(ctx, ctx.user)),
  create: authedProcedure
    .input(createFolderInput)
    .mutation(({ ctx, input }) => createFolder(ctx, ctx.user, input.name)),
  delete: authedProcedure.input(idInput).mutation(({ ctx, input }) => deleteFolder(ctx, ctx.user, input.id)),
});
