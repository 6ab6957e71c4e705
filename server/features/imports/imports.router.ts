import { importConnectInput, importIdInput, importRowsInput } from '../../../src/imports/import.schema.js';
import { idInput } from '../../../src/qr/qr.schema.js';
import { router, workspaceProcedure } from '../../trpc/init.js';
import {
  codeImportOf,
  discardImport,
  getImportPreview,
  runImportRows,
  startApiImport,
} from './imports.service.js';

/**
 * Link imports (issue 35): editors bring links from another shortener into the current workspace. A
 * file is sent to POST /api/imports/file (multipart, REST only, as the bulk spreadsheet).
 */
export const importsRouter = router({
  /** Reads a Shlink or Kutt server's links through its API. */
  connect: workspaceProcedure('editor')
    .input(importConnectInput)
    .mutation(({ ctx, input }) => startApiImport(ctx, ctx.owner, input)),
  get: workspaceProcedure('editor')
    .input(importIdInput)
    .query(({ ctx, input }) => getImportPreview(ctx, ctx.owner, input.id)),
  /** Carries out a page of decisions. */
  run: workspaceProcedure('editor')
    .input(importRowsInput)
    .mutation(({ ctx, input }) => runImportRows(ctx, ctx.owner, input)),
  discard: workspaceProcedure('editor')
    .input(importIdInput)
    .mutation(({ ctx, input }) => discardImport(ctx, ctx.owner, input.id)),
  /** Where a code came from (null: made here). */
  ofCode: workspaceProcedure('viewer')
    .input(idInput)
    .query(({ ctx, input }) => codeImportOf(ctx, ctx.owner, input.id)),
});
