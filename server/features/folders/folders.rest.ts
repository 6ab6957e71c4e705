import { z } from 'zod';
import { successMessageAnswer } from '../../../src/api/answers.js';
import { createFolderInput, folderSchema, idInput } from '../../../src/qr/qr.schema.js';
import { folderListQuery } from '../../../src/qr/qr-list.schema.js';
import { sendPage } from '../../rest/paging.js';
import { defineRoute } from '../../rest/rest-kit.js';
import { listFolderPage } from './folders.service.js';

export const foldersRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/folders',
    tokens: 'read',
    summary:
      "The caller's folders: [{ id, name, created, qrCodeCount }], A to Z; one page (?page, ?pageSize ≤ 500, 100 by default), searched by name (?search), sorted (?sort=name|created|qrCodeCount, ?order=asc|desc); X-Total-Count and Link headers.",
    access: 'user',
    role: 'viewer',
    paged: true,
    query: folderListQuery,
    answer: z.array(folderSchema),
    handler: async ({ ctx, owner, query, req, reply }) =>
      sendPage(req, reply, await listFolderPage(ctx, owner, query)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/folders',
    tokens: 'write',
    summary: '{ name } → 201 the folder; a blank name is refused.',
    access: 'user',
    role: 'editor',
    answer: folderSchema,
    body: createFolderInput,
    status: 201,
    handler: ({ caller, body }) => caller.folders.create(body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/folders/:id',
    tokens: 'write',
    summary: "Deletes the folder; its codes move to the root. Another user's folder is 404.",
    access: 'user',
    role: 'editor',
    object: 'folder',
    answer: successMessageAnswer,
    params: idInput,
    handler: ({ caller, params }) => caller.folders.delete(params),
  }),
];
