import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { User } from '../../../src/auth/auth.schema.js';
import { uploadQuotaFor } from '../../../src/plans.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors.js';
import { limitUploads } from '../auth/login-throttle.js';
import { sanitizeSvg, sniffImage, type ImageMime } from './image-sniff.js';
import { membershipOf } from '../../trpc/workspace-access.js';
import {
  deleteUnusedLogos,
  deleteUploadOf,
  findUploadContentOf,
  insertUpload,
  sumUploadBytesOf,
  findUploadOwner,
} from './uploads.repository.js';

export const uploadMessages = {
  tooLarge: 'Logo image must be less than 5MB',
  wrongType: 'Only JPG, PNG and SVG files are allowed',
  notFound: 'Upload not found',
  deleted: 'Upload deleted',
  quotaFull: (quotaBytes: number) =>
    `Upload storage is full: your plan keeps up to ${Math.round(quotaBytes / 1048576)} MB of images. Delete logos you no longer use, or upgrade your plan.`,
} as const;

/** Logos no code uses are deleted once they are this old (a design being made has a day to use its logo). */
export const UNUSED_UPLOAD_MAX_AGE_MS = 24 * 60 * 60_000;

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
  await limitUploads(deps, user.id);
  const quota = uploadQuotaFor(user, deps.config.uploadQuotaBytes, deps.clock.now());
  if ((await sumUploadBytesOf(deps.db, user.id)) + data.length > quota) {
    throw appError('PAYLOAD_TOO_LARGE', uploadMessages.quotaFull(quota));
  }
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

/**
 * An image as a signed-in person may see it: one of the current workspace's, or (a logo in an `<img>`
 * of a page of another workspace they work in) one of any workspace they are a member of. A token sees
 * only its own workspace's.
 */
export async function findVisibleUpload(
  deps: AppDeps,
  person: User,
  ownerId: number,
  id: string,
  anyWorkspace: boolean,
) {
  const own = await findUploadOf(deps, ownerId, id);
  if (own || !anyWorkspace || !/^[0-9a-f-]{36}$/.test(id)) return own;
  const accountId = await findUploadOwner(deps.db, id);
  if (accountId === undefined || !(await membershipOf(deps.db, person, accountId))) return undefined;
  return findUploadContentOf(deps.db, accountId, id);
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

/** Deletes one of the user's uploads; a code still naming it shows no logo from then on. */
export async function deleteUpload(deps: AppDeps, userId: number, id: string) {
  if (!/^[0-9a-f-]{36}$/.test(id) || !(await deleteUploadOf(deps.db, userId, id))) throw uploadNotFound();
  return { success: true, message: uploadMessages.deleted };
}

/** Deletes logos no code has used for a day, now and then every hour; answers the function that stops it. */
export function startUploadSweep(deps: AppDeps, log: Pick<FastifyBaseLogger, 'info' | 'error'>): () => void {
  const sweep = async () => {
    try {
      const before = new Date(deps.clock.now().getTime() - UNUSED_UPLOAD_MAX_AGE_MS).toISOString();
      const deleted = await deleteUnusedLogos(deps.db, before);
      if (deleted > 0) log.info({ deleted }, 'unused logos deleted');
    } catch (error) {
      log.error({ err: error }, 'the sweep of unused logos failed');
    }
  };
  const first = setTimeout(() => void sweep(), 60_000);
  const hourly = setInterval(() => void sweep(), 60 * 60_000);
  first.unref();
  hourly.unref();
  return () => {
    clearTimeout(first);
    clearInterval(hourly);
  };
}
