import { z } from 'zod';
import {
  IMPORT_FILE_MAX_BYTES,
  IMPORT_ROWS_PER_CALL,
  codeImportSchema,
  importConnectInput,
  importFileQuery,
  importMessages,
  importPreviewSchema,
  importRowsAnswer,
  importRowsInput,
} from '../../../src/imports/import.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';
import { startFileImport } from './imports.service.js';

const idParams = z.object({ id: z.string().min(1).max(64) });
const codeIdParams = z.object({ id: z.coerce.number().int().positive() });

/** Imports from other shorteners (issue 35): read a source, review, then carry out a page of rows at a time. */
export const importRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/imports/file',
    tokens: 'write',
    status: 201,
    summary:
      'Multipart field `file`: a Shlink CSV export, a YOURLS SQL dump or CSV, or a Bitly CSV export (at most 20 MB; ?source= shlink|yourls|bitly, default auto) → the import to review { id, source, links: [{ row, slug, destination, visits, conflict, result }], totals }, kept 24 hours. Creates no code.',
    access: 'user',
    role: 'editor',
    query: importFileQuery,
    answer: importPreviewSchema,
    multipart: {
      field: 'file',
      maxBytes: IMPORT_FILE_MAX_BYTES,
      tooLargeMessage: importMessages.tooLarge,
      what: 'file',
    },
    // It stores the file's links for review, as the logo upload stores its image: not a procedure.
    handler: ({ ctx, owner, file, fileName, query }) =>
      startFileImport(ctx, owner, file, fileName, query.source),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/imports/connect',
    tokens: 'write',
    status: 201,
    summary:
      '{ source: shlink|kutt, url, apiKey } → every link of that server read through its API, as an import to review (as POST /api/imports/file). The key is kept with the import only while Shlink visits remain to be read.',
    access: 'user',
    role: 'editor',
    body: importConnectInput,
    answer: importPreviewSchema,
    handler: ({ caller, body }) => caller.imports.connect(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/imports/:id',
    tokens: 'read',
    summary:
      'An import of the current workspace: its links, each with what stands in its way now (conflict: taken, yours, invalid, repeated, destination) and the result of rows carried out.',
    access: 'user',
    role: 'editor',
    object: 'linkImport',
    params: idParams,
    answer: importPreviewSchema,
    handler: ({ caller, params }) => caller.imports.get({ id: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/imports/:id/rows',
    tokens: 'write',
    summary: `{ rows: [{ row, action: create|skip|rename|overwrite, slug? }] (at most ${IMPORT_ROWS_PER_CALL}), folderId?, domainId? } → { results: [{ row, status: created|overwritten|skipped|failed, codeId, slug, shortUrl, visits, message }], done, currentCount, maxCount }. A row made or overwritten before answers its result again; a skipped or failed row may be decided again.`,
    access: 'user',
    role: 'editor',
    object: 'linkImport',
    params: idParams,
    body: importRowsInput.omit({ id: true }),
    answer: importRowsAnswer,
    handler: ({ caller, params, body }) => caller.imports.run({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/imports/:id',
    tokens: 'write',
    summary: 'Discards an import (the codes it made stay).',
    access: 'user',
    role: 'editor',
    object: 'linkImport',
    params: idParams,
    answer: z.object({ success: z.literal(true) }),
    handler: ({ caller, params }) => caller.imports.discard({ id: params.id }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/qr-codes/:id/import',
    tokens: 'read',
    summary:
      'Where a code came from → { import: { source, sourceLabel, sourceLink, visits, importedAt } } or { import: null } when it was made here.',
    access: 'user',
    role: 'viewer',
    object: 'qrCode',
    params: codeIdParams,
    answer: z.object({ import: codeImportSchema.nullable() }),
    handler: async ({ caller, params }) => ({ import: await caller.imports.ofCode({ id: params.id }) }),
  }),
];
