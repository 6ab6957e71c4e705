import { successMessageAnswer } from '../../../src/api/answers.js';
import { uploadAnswer } from '../../../src/qr/qr.schema.js';
import { z } from 'zod';
import { defineRoute } from '../../rest/rest-kit.js';
import { MAX_UPLOAD_BYTES } from './image-sniff.js';
import {
  deleteUpload,
  findVisibleUpload,
  storeImage,
  uploadMessages,
  uploadNotFound,
} from './uploads.service.js';

/** The stored image's id as its URL carries it (`/api/uploads/<id>`); anything else is simply not found. */
const uploadIdParams = z.object({ id: z.string() });

export const uploadsRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/upload/logo',
    tokens: 'write',
    summary: 'Multipart field `logo`: a JPEG, PNG or SVG (sanitised) of at most 5 MB → 201 { url }.',
    access: 'user',
    role: 'editor',
    answer: uploadAnswer,
    multipart: { field: 'logo', maxBytes: MAX_UPLOAD_BYTES, tooLargeMessage: uploadMessages.tooLarge },
    status: 201,
    handler: async ({ ctx, owner, file }) => {
      const { url } = await storeImage(ctx, owner, 'logo', file);
      return { url };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/uploads/:id',
    tokens: 'read',
    summary: "The owner's image, with our own Content-Type and no scripts, ever.",
    access: 'user',
    role: 'viewer',
    object: 'upload',
    produces: {
      'image/png': 'A PNG upload.',
      'image/jpeg': 'A JPEG upload.',
      'image/svg+xml': 'An SVG upload, sanitised when it was stored.',
    },
    params: uploadIdParams,
    handler: async ({ ctx, owner, params, reply }) => {
      const row = await findVisibleUpload(ctx, ctx.user, owner.id, params.id, ctx.apiToken === null);
      if (!row) throw uploadNotFound();
      return reply
        .header('Content-Type', row.mime)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('Content-Disposition', 'inline')
        .header('Cache-Control', 'private, max-age=31536000, immutable')
        .send(Buffer.from(row.data));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/uploads/:id',
    tokens: 'write',
    summary: "Deletes one of the caller's uploads (its storage is freed); any other id is 404.",
    access: 'user',
    role: 'editor',
    object: 'upload',
    answer: successMessageAnswer,
    params: uploadIdParams,
    handler: ({ ctx, owner, params }) => deleteUpload(ctx, owner.id, params.id),
  }),
];
