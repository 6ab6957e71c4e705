import type { User } from '../../../src/auth/auth.schema.js';
import { imageDataOf, type QrImageInput } from '../../../src/qr/qr.schema.js';
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
export async function getQrImage(deps: AppDeps, user: User, input: QrImageInput) {
  const { id, format, size } = input;
  const code = await getQrCode(deps, user, id);
  const bytes = await renderQrImage(
    imageCache,
    { data: imageDataOf(code), customization: code.customization, size, format },
    uploadResolverFor(deps, user.id),
  );
  return { bytes, format, code };
}
