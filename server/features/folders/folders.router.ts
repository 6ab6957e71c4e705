import { createFolderInput, idInput } from '../../../src/qr/qr.schema.js';
import { router, workspaceProcedure } from '../../trpc/init.js';
import { createFolder, deleteFolder, listFolders } from './folders.service.js';

export const foldersRouter = router({
  list: workspaceProcedure('viewer').query(({ ctx }) => listFolders(ctx, ctx.owner)),
  create: workspaceProcedure('editor')
    .input(createFolderInput)
    .mutation(({ ctx, input }) => createFolder(ctx, ctx.owner, input.name)),
  delete: workspaceProcedure('editor')
    .input(idInput)
    .mutation(({ ctx, input }) => deleteFolder(ctx, ctx.owner, input.id)),
});
