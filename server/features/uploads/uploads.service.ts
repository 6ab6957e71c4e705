import { randomUUID } from 'node:crypto';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../trpc/errors.js';
import { sanitizeSvg, sniffImage, type ImageMime } from './image-sniff.js';
import { findUploadContentOf, insertUpload } from './uploads.repository.js';

export const uploadMessages = {
  tooLarge: 'Logo image must be less than 5MB',
  wrongType: 'Only JPG, PNG and SVG files are allowed',
  notFound: 'Upload not found',
} as const;

export const UPLOAD_URL_PREFIX = '/api/uploads/';

export async function storeImage(
  deps: AppDeps,
  user: User,
  kind: 'logo' | 'profile-picture',
  bytes: Buffer,
  wrongTypeMessage: string = uploadMessages.wrongType,
): Promise<{ url: string; mime: ImageMime; size: number }> {
  const mime = sniffImage(bytes);
  if (!mime) throw appError('UNSUPPORTED_MEDIA_TYPE', wrongTypeMessage);
  const data = mime === 'image/svg+xml' ? sanitizeSvg(bytes) : bytes;
  const id = randomUUID();
  await insertUpload(deps.db, {
    id,
    userId: user.id,
    kind,
    mime,
    data,
    createdAt: deps.clock.now().toISOString(),
  });
  return { url: `${UPLOAD_URL_PREFIX}${id}`, mime, size: data.length };
}

/** The owner's upload (another user's is 404, like a missing one). */
export async function findUploadOf(deps: AppDeps, userId: number, id: string) {
  if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
  return findUploadContentOf(deps.db, userId, id);
}

/** Resolves an own-upload URL (/api/uploads/<id>) to its bytes; anything else resolves to null. */
export function uploadResolverFor(deps: AppDeps, userId: number) {
  return async (url: string) => {
    if (!url.startsWith(UPLOAD_URL_PREFIX)) return null;
    const row = await findUploadOf(deps, userId, url.slice(UPLOAD_URL_PREFIX.length));
    return row ? { bytes: Buffer.from(row.data), mime: row.mime } : null;
  };
}

export function uploadNotFound() {
  return appError('NOT_FOUND', uploadMessages.notFound);
}
