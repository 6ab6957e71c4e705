import fastifyMultipart from '@fastify/multipart';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import type { ContextFor } from '../../rest/rest-plugin.js';
import { appError } from '../../trpc/errors.js';
import { MAX_UPLOAD_BYTES } from './image-sniff.js';
import { findUploadOf, storeImage, uploadMessages, uploadNotFound } from './uploads.service.js';

/** Reads the one file part named `field`, refusing more than 5 MB while it streams in. */
async function readImagePart(req: FastifyRequest, field: string): Promise<Buffer> {
  if (!req.isMultipart()) {
    throw appError('UNSUPPORTED_MEDIA_TYPE', `Send the image as multipart/form-data in the field "${field}"`);
  }
  const part = await req.file({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 1 } });
  if (!part || part.fieldname !== field) {
    part?.file.resume();
    throw appError('BAD_REQUEST', `No image received: send it in the field "${field}"`);
  }
  return part.toBuffer();
}

/** The multipart parser's own failures (cut-off bodies, bad boundaries, extra parts) in our words. */
async function readUpload(req: FastifyRequest, field: string): Promise<Buffer> {
  try {
    return await readImagePart(req, field);
  } catch (error) {
    if (error instanceof TRPCError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw appError('PAYLOAD_TOO_LARGE', uploadMessages.tooLarge);
    }
    throw appError(
      'BAD_REQUEST',
      `The upload could not be read: send one image as multipart/form-data in the field "${field}"`,
    );
  }
}

export async function uploadsRest(app: FastifyInstance, deps: AppDeps, contextFor: ContextFor) {
  // Multipart is parsed only here: every other path keeps answering 415 to anything but JSON.
  await app.register(async (uploads) => {
    await uploads.register(fastifyMultipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 1 },
    });

    // POST /api/upload/logo — multipart field `logo`: JPEG, PNG or SVG (sanitised), at most 5 MB → 201 { url }.
    uploads.post('/api/upload/logo', async (req, reply) => {
      const { user } = await contextFor(req, reply);
      if (!user) throw appError('UNAUTHORIZED', 'Not signed in');
      const bytes = await readUpload(req, 'logo');
      const { url } = await storeImage(deps, user, 'logo', bytes);
      return reply.status(201).send({ url });
    });
  });

  // GET /api/uploads/{id} — the owner's image, with our own Content-Type and no scripts, ever.
  app.get<{ Params: { id: string } }>('/api/uploads/:id', async (req, reply) => {
    const { user } = await contextFor(req, reply);
    if (!user) throw appError('UNAUTHORIZED', 'Not signed in');
    const row = await findUploadOf(deps, user.id, req.params.id);
    if (!row) throw uploadNotFound();
    return reply
      .header('Content-Type', row.mime)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('Content-Disposition', 'inline')
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      .send(Buffer.from(row.data));
  });
}
