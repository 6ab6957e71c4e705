import { createHash, randomBytes } from 'node:crypto';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import {
  SHARE_TOKEN,
  shareMessages,
  sharePath,
  type AnalyticsShare,
  type PublicShare,
} from '../../../src/shares/share.schema.js';
import type { z } from 'zod';
import type {
  createShareInput,
  listSharesInput,
  unlockShareInput,
  viewShareInput,
} from '../../../src/shares/share.schema.js';
import type { AppDeps, SessionDeps } from '../../app-deps.js';
import { toIso, type Db } from '../../db/database.js';
import { appError } from '../../errors.js';
import { getScopeAnalytics } from '../analytics/analytics.service.js';
import { deleteAttemptsById, deleteAttemptsByKey } from '../auth/auth.repository.js';
import { recordAttempt } from '../auth/login-throttle.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { findFolderOf } from '../folders/folders.repository.js';
import { findQrCodeOf } from '../qr/qr.repository.js';
import { passwordCookieSecret } from '../redirect/password-gate.js';
import { storedAddress } from '../scans/client-address.js';
import {
  countShareView,
  findShareByTokenHash,
  findShareOf,
  insertShare,
  listCodesInFolder,
  listLiveSharesOf,
  revokeShareRow,
  type ShareWithTitle,
} from './shares.repository.js';
import {
  isValidShareCookie,
  shareCookieName,
  shareCookiePath,
  shareCookieValue,
  ShareRateLimit,
} from './share-gate.js';

/**
 * Shared dashboards (issue 36): the workspace's editors make and revoke read-only links to one code's
 * or one folder's analytics; anyone holding a link sees those figures, and nothing else of the owner.
 */

/** Wrong passwords one address may try on one link in SHARE_PASSWORD_WINDOW_MS (shared by every instance). */
export const SHARE_PASSWORD_TRIES = 5;
export const SHARE_PASSWORD_WINDOW_MS = 15 * 60_000;

const tokenHashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const isoOrNull = (v: Date | string | null) => (v === null ? null : toIso(v));

function toShare(row: ShareWithTitle, publicUrl: string): AnalyticsShare {
  return {
    id: row.id,
    kind: row.qr_code_id !== null ? 'code' : 'folder',
    qrCodeId: row.qr_code_id,
    folderId: row.folder_id,
    title: row.title ?? '',
    url: `${publicUrl}${sharePath(row.token)}`,
    hasPassword: row.password_hash !== null,
    expiresAt: isoOrNull(row.expires_at),
    createdAt: toIso(row.created_at),
    views: Number(row.views),
    lastViewedAt: isoOrNull(row.last_viewed_at),
  };
}

export async function listShares(
  deps: AppDeps,
  ownerId: number,
  input: z.output<typeof listSharesInput>,
): Promise<{ items: AnalyticsShare[] }> {
  const now = deps.clock.now().toISOString();
  const rows = await listLiveSharesOf(deps.db, ownerId, now, input);
  return { items: rows.map((r) => toShare(r, deps.config.publicUrl)) };
}

/** A new link to one of the owner's codes or folders (another workspace's: 404 as elsewhere). */
export async function createShare(
  deps: AppDeps,
  ownerId: number,
  createdBy: number,
  input: z.output<typeof createShareInput>,
): Promise<AnalyticsShare> {
  const { qrCodeId, folderId } = input;
  if ((qrCodeId === undefined) === (folderId === undefined))
    throw appError('BAD_REQUEST', shareMessages.oneTarget);
  if (qrCodeId !== undefined && !(await findQrCodeOf(deps.db, ownerId, qrCodeId)))
    throw appError('NOT_FOUND', qrMessages.notFound);
  if (folderId !== undefined && !(await findFolderOf(deps.db, ownerId, folderId)))
    throw appError('NOT_FOUND', qrMessages.folderNotFound);
  const now = deps.clock.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    throw appError('BAD_REQUEST', shareMessages.pastExpiry);
  const token = randomBytes(24).toString('base64url');
  const { id } = await insertShare(deps.db, {
    owner_id: ownerId,
    created_by: createdBy,
    qr_code_id: qrCodeId ?? null,
    folder_id: folderId ?? null,
    token,
    token_hash: tokenHashOf(token),
    password_hash: input.password ? await hashPassword(input.password) : null,
    expires_at: expiresAt ? expiresAt.toISOString() : null,
    created_at: now.toISOString(),
  });
  const row = await findShareOf(deps.db, ownerId, id);
  return toShare(row!, deps.config.publicUrl);
}

/** Revokes one of the owner's live links; the link then answers 404 like an unknown one. */
export async function revokeShare(deps: AppDeps, ownerId: number, id: number): Promise<void> {
  if (!(await revokeShareRow(deps.db, ownerId, id, deps.clock.now().toISOString())))
    throw appError('NOT_FOUND', shareMessages.shareNotFound);
}

// ---- The public side ----

const limits = new WeakMap<Db, ShareRateLimit>();

/** Counts the request against its address's limit (one limiter per app, that is per database handle). */
function limitRequest(deps: AppDeps & { ip: string }) {
  let limit = limits.get(deps.db);
  if (!limit) limits.set(deps.db, (limit = new ShareRateLimit()));
  limit.hit(deps.ip, deps.clock.now().getTime());
}

/** The live link a token names: unknown, revoked, expired, or whose code or folder is gone are all 404. */
async function liveShare(deps: AppDeps, token: string): Promise<ShareWithTitle & { title: string }> {
  const row = SHARE_TOKEN.test(token) ? await findShareByTokenHash(deps.db, tokenHashOf(token)) : undefined;
  const now = deps.clock.now().getTime();
  if (
    !row ||
    row.title === null ||
    row.revoked_at !== null ||
    (row.expires_at !== null && new Date(row.expires_at).getTime() <= now)
  )
    throw appError('NOT_FOUND', shareMessages.notFound);
  return { ...row, title: row.title };
}

async function isUnlocked(deps: SessionDeps, share: ShareWithTitle): Promise<boolean> {
  if (share.password_hash === null) return true;
  return isValidShareCookie(
    await passwordCookieSecret(deps.db),
    { id: share.id, password_hash: share.password_hash },
    deps.cookies.read(shareCookieName(share.id)),
    deps.clock.now().getTime(),
  );
}

/**
 * What a link shows: its kind, title and expiry, and, once unlocked (or without a password), the
 * analytics of its period. Each answer with analytics counts as a view.
 */
export async function viewShare(
  deps: SessionDeps,
  input: z.output<typeof viewShareInput>,
): Promise<PublicShare> {
  limitRequest(deps);
  const share = await liveShare(deps, input.token);
  const head = {
    kind: share.qr_code_id !== null ? ('code' as const) : ('folder' as const),
    title: share.title,
    expiresAt: isoOrNull(share.expires_at),
  };
  if (!(await isUnlocked(deps, share))) return { ...head, needsPassword: true, analytics: null };
  const options = { days: input.days, tz: input.tz, excludeBots: input.excludeBots };
  const analytics =
    share.qr_code_id !== null
      ? await getScopeAnalytics(
          deps,
          { ownerId: share.owner_id, codeId: share.qr_code_id },
          [{ id: share.qr_code_id, name: share.title }],
          options,
        )
      : await getScopeAnalytics(
          deps,
          { userId: share.owner_id, folderId: share.folder_id! },
          await listCodesInFolder(deps.db, share.owner_id, share.folder_id!),
          options,
        );
  await countShareView(deps.db, share.id, deps.clock.now().toISOString());
  return {
    ...head,
    needsPassword: false,
    analytics: { ...analytics, codes: share.qr_code_id !== null ? null : analytics.codes },
  };
}

/**
 * Checks a link's password and remembers it in a cookie for that link; wrong ones are limited per
 * address and link (SHARE_PASSWORD_TRIES in 15 minutes, then 429), as the short links' passwords are.
 */
export async function unlockShare(
  deps: SessionDeps,
  input: z.output<typeof unlockShareInput>,
): Promise<{ unlocked: true }> {
  limitRequest(deps);
  const share = await liveShare(deps, input.token);
  if (share.password_hash === null) return { unlocked: true };
  const key = `share:${share.id}:${storedAddress(deps.config, deps.ip)}`;
  const now = deps.clock.now();
  const attempt = await recordAttempt(
    deps.db,
    [{ key, max: SHARE_PASSWORD_TRIES }],
    SHARE_PASSWORD_WINDOW_MS,
    now,
    'password attempts',
  );
  if (!(await verifyPassword(share.password_hash, input.password)))
    throw appError('UNAUTHORIZED', shareMessages.wrongPassword);
  // Right: this address's failures on this link are forgotten, and so is this attempt.
  await deleteAttemptsById(deps.db, attempt);
  await deleteAttemptsByKey(deps.db, key);
  const cookie = shareCookieValue(
    await passwordCookieSecret(deps.db),
    { id: share.id, password_hash: share.password_hash },
    now.getTime(),
  );
  deps.cookies.set(shareCookieName(share.id), cookie.value, {
    path: shareCookiePath(input.token),
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    maxAge: cookie.maxAgeSeconds,
  });
  return { unlocked: true };
}
