import { TRPCError } from '@trpc/server';
import type { User } from '../../../src/auth/auth.schema.js';
import { imageDataOf, qrImageInput } from '../../../src/qr/qr.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { uploadResolverFor } from '../uploads/uploads.service.js';
import { createQrImageCache, renderQrImage } from './qr-image.js';
import { getQrCode } from './qr.service.js';

/** One cache per process: the same design at the same size is rendered once. */
const imageCache = createQrImageCache(500);

/**
 * The code's image rendered on the server by the same renderer as the browser (styled-qr-code).
 * Own uploaded logos are read from the database; an external logo URL is never fetched, so it is
 * left out of server-rendered images.
 */
export async function getQrImage(deps: AppDeps, user: User, query: unknown) {
  const parsed = qrImageInput.safeParse(query);
  if (!parsed.success) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid image request', cause: parsed.error });
  }
  const { id, format, size } = parsed.data;
  const code = await getQrCode(deps, user, id);
  const bytes = await renderQrImage(
    imageCache,
    { data: imageDataOf(code), customization: code.customization, size, format },
    uploadResolverFor(deps, user.id),
  );
  return { bytes, format, code };
}
