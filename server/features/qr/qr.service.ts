import { limitReachedMessage, maxCodesFor, upgradeOffer, type PlanHolder } from '../../../src/plans.js';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import type { User } from '../../../src/auth/auth.schema.js';
import { validatePayload } from '../../../src/qr/content.js';
import { normalizeQrType, redirectingQrTypes, type QrType } from '../../../src/qr/qr-types.js';
import type { Customization } from '../../../src/qr/customization.js';
import type { QrCode, QrLimitInfo } from '../../../src/qr/qr.schema.js';
import type { Page } from '../../../src/api/paging.js';
import type { QrCodeListQuery } from '../../../src/qr/qr-list.schema.js';
import type { AppDeps, RequestDeps } from '../../app-deps.js';
import type { Db, QrCodeRow } from '../../db/database.js';
import { reloadShortDomains, shortDomainsOf, shortLinksFor } from '../domains/short-domains.registry.js';
import { checkCodeDomain } from '../domains/short-domains.service.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import { getInstanceSettings } from '../settings/instance-settings.js';
import { appError, extrasOf, refuse } from '../../errors.js';
import { TRPCError } from '@trpc/server';
import { findFolderOf } from '../folders/folders.repository.js';
import { toQrCode } from './qr.mapper.js';
import {
  countQrCodesOf,
  deleteQrCodeWithScans,
  findQrCodeOf,
  insertQrCodeOfOwner,
  listQrCodePageOf,
  listQrCodesOf,
  updateQrCodeRow,
} from './qr.repository.js';
import { pointsAtLocalHost, pointsAtOwnShortLink } from './destination.js';
import { claimSlug, generateSlug, keepOldSlug, slugHeldByAnother, slugTaken } from './slug.js';
import { slugMessages } from '../../../src/qr/slug.js';
import { withScanVerdict } from './scan-verdicts.js';
import type { SmartRedirect } from '../../../src/qr/smart-redirect.js';
import { storedPasswordHash, storedRedirectOptions } from './smart-redirect-options.js';
import { recordCreatedVersions, savingVersion, type VersionNote } from './history.recorder.js';
import { actorOf, type Owner } from '../workspaces/owner.js';
import { recordActivity } from '../workspaces/activity.js';
import { emitLimitReached, emitWebhookEvent, webhookCodeOf } from '../webhooks/webhooks.service.js';

/**
 * The content must be a valid payload of its type (for links: http or https only), never one of our own
 * short links, and a dynamic code's never a local or private address (see destination.ts).
 */
export function checkContent(deps: AppDeps, type: QrType, content: string, isDynamic: boolean) {
  const result = validatePayload(type, content);
  if (!result.ok)
    throw appError('BAD_REQUEST', result.message, result.field ? { field: result.field } : undefined);
  if (pointsAtOwnShortLink(deps.config.publicUrl, content, shortDomainsOf(deps.db).isShortDomain))
    throw appError('BAD_REQUEST', qrMessages.selfLink, { field: 'content' });
  if (isDynamic && redirectingQrTypes.includes(type) && pointsAtLocalHost(content))
    throw appError('BAD_REQUEST', qrMessages.localDestination, { field: 'content' });
}

/**
 * The plan-limit error's message, for the plan the user is on: a Free user reads the product's own words
 * (limitReachedMessage, 'upgrade to Pro'); a Pro user is offered Premium, never the plan they have.
 */
export function planLimitMessage(user: PlanHolder, max: number, now: Date): string {
  const offer = upgradeOffer(user, now);
  if (offer?.tier === 'premium')
    return `QR code limit reached. Your plan allows ${max} QR codes: upgrade to Premium for unlimited QR codes.`;
  if (offer?.tier === 'pro') return limitReachedMessage(max);
  // No plan above (cannot happen while the limit is set): say only what is true.
  return `QR code limit reached. Your plan allows ${max} QR codes.`;
}

async function getOrThrow(db: Db, user: User, id: number) {
  const row = await findQrCodeOf(db, user.id, id);
  if (!row) throw appError('NOT_FOUND', qrMessages.notFound);
  return row;
}

async function checkFolder(db: Db, user: User, folderId: number | null | undefined) {
  if (folderId != null && !(await findFolderOf(db, user.id, folderId))) {
    throw appError('NOT_FOUND', qrMessages.folderNotFound);
  }
}

/** The short links of these rows' codes, each on its domain. */
export const linksFor = (deps: AppDeps, rows: readonly Pick<QrCodeRow, 'domain_id'>[]) =>
  shortLinksFor(
    deps,
    rows.map((r) => r.domain_id),
  );

/** A row as the APIs answer it. */
export const codeOf = async (deps: AppDeps, row: QrCodeRow): Promise<QrCode> =>
  toQrCode(row, await linksFor(deps, [row]));

export async function listQrCodes(deps: AppDeps, user: User): Promise<QrCode[]> {
  const rows = await listQrCodesOf(deps.db, user.id);
  const links = await linksFor(deps, rows);
  return rows.map((r) => toQrCode(r, links));
}

/** One page of the owner's codes for a list query (GET /api/qr-codes). */
export async function listQrCodePage(
  deps: AppDeps,
  user: User,
  query: QrCodeListQuery,
): Promise<Page<QrCode>> {
  const { rows, total } = await listQrCodePageOf(deps.db, user.id, query);
  const links = await linksFor(deps, rows);
  return {
    items: rows.map((r) => toQrCode(r, links)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function getQrCode(deps: AppDeps, user: User, id: number): Promise<QrCode> {
  return codeOf(deps, await getOrThrow(deps.db, user, id));
}

export async function getQrLimit(deps: AppDeps, user: User): Promise<QrLimitInfo> {
  return {
    currentCount: await countQrCodesOf(deps.db, user.id),
    maxCount: maxCodesFor(user, (await getInstanceSettings(deps)).freePlanLimit, deps.clock.now()),
  };
}

export interface NewQrCode {
  name: string;
  type: string;
  content: string;
  isDynamic: boolean;
  customization: Customization;
  folderId: number | null;
  /** Dynamic codes: smart-redirect options (null or absent: none). */
  redirectOptions?: SmartRedirect | null;
  /** Dynamic codes: the short link's password (null or absent: none). */
  password?: string | null;
  /** Dynamic codes: a chosen back-half, normalized by the input schema (null or absent: a random one). */
  slug?: string | null;
  /** Dynamic codes: the short domain of its link (null or absent: the app's own address). */
  domainId?: number | null;
}

/** A random slug that another code holds in other case, or as an old one: drawn again. */
class RandomSlugHeld extends Error {}

/** The plan's refusal of one more code (its `limitReached` extra). */
export const isLimitRefusal = (error: unknown) =>
  error instanceof TRPCError && extrasOf(error)?.limitReached === true;

export async function createQrCode(deps: AppDeps, user: Owner, input: NewQrCode): Promise<QrCode> {
  const type = normalizeQrType(input.type);
  checkContent(deps, type, input.content, input.isDynamic);
  const redirectOptions = storedRedirectOptions(deps, type, input.isDynamic, input.redirectOptions) ?? null;
  const passwordHash = (await storedPasswordHash(input.isDynamic, input.password)) ?? null;
  const chosenSlug = input.slug ?? null;
  if (chosenSlug !== null && !input.isDynamic) {
    throw appError('BAD_REQUEST', slugMessages.staticCode, { field: 'slug' });
  }
  const domainId = input.domainId ?? null;
  if (domainId !== null && !input.isDynamic) {
    throw appError('BAD_REQUEST', slugMessages.staticCode, { field: 'domainId' });
  }
  // Before the row (whose foreign key names the domain); checked again in its transaction. The domains are
  // read again too: one renamed on another instance in the last REFRESH_MS must not name this link.
  if (domainId !== null) {
    await checkCodeDomain(deps.db, user.id, domainId);
    await reloadShortDomains(deps.db);
  }
  const max = maxCodesFor(user, (await getInstanceSettings(deps)).freePlanLimit, deps.clock.now());
  const now = deps.clock.now().toISOString();

  for (let attempt = 0; ; attempt++) {
    try {
      const newRow = {
        name: input.name,
        type,
        content: input.content,
        is_dynamic: input.isDynamic,
        customization: JSON.stringify(input.customization),
        user_id: user.id,
        folder_id: input.folderId,
        slug: input.isDynamic ? (chosenSlug ?? generateSlug()) : null,
        created: now,
        updated: now,
        redirect_options: redirectOptions,
        password_hash: passwordHash,
        domain_id: domainId,
      };
      const row = await insertQrCodeOfOwner(
        deps.db,
        newRow,
        ({ count, folderFound }) => {
          if (!folderFound) throw appError('NOT_FOUND', qrMessages.folderNotFound);
          if (max !== null && count >= max) {
            throw refuse('LIMIT_REACHED', planLimitMessage(user, max, deps.clock.now()), {
              limitReached: true,
              currentCount: count,
              maxCount: max,
            });
          }
        },
        async (trx, inserted) => {
          if (domainId !== null) await checkCodeDomain(trx, user.id, domainId);
          if (chosenSlug !== null) await claimSlug(trx, chosenSlug, inserted.id);
          else if (inserted.slug && (await slugHeldByAnother(trx, inserted.slug, inserted.id))) {
            throw new RandomSlugHeld();
          }
          await recordCreatedVersions(trx, actorOf(user).id, [inserted], now);
          await recordActivity(trx, user.id, actorOf(user), deps.clock.now(), {
            action: 'code.created',
            targetType: 'code',
            targetId: inserted.id,
            targetLabel: inserted.name,
          });
          await emitWebhookEvent(trx, deps.clock.now(), user.id, 'code.created', {
            code: webhookCodeOf(deps, inserted),
          });
        },
      );
      return await withScanVerdict(deps, await codeOf(deps, row));
    } catch (error) {
      // Refused by the plan: the workspace's webhooks hear of it (outside the refused transaction).
      if (isLimitRefusal(error) && max !== null) await emitLimitReached(deps, user.id, max);
      if (isUniqueViolation(error) && chosenSlug !== null) throw slugTaken();
      // A slug collision (about one in a trillion per code): draw another.
      const collided = isUniqueViolation(error) || error instanceof RandomSlugHeld;
      if (collided && input.isDynamic && attempt < 5) continue;
      throw error;
    }
  }
}

export interface QrCodeChanges {
  id: number;
  name?: string;
  type?: string;
  content?: string;
  isDynamic?: boolean;
  customization?: Customization;
  folderId?: number | null;
  /** null removes them; absent keeps them. */
  redirectOptions?: SmartRedirect | null;
  /** A new password; null removes it; absent keeps it. */
  password?: string | null;
  /** A new chosen back-half, normalized by the input schema; absent keeps the slug. */
  slug?: string;
  /** The short domain of its link (null: the app's own address; absent: unchanged). */
  domainId?: number | null;
}

/** Only dynamic codes change after creation; their type and kind never do. A change is kept as a version. */
export async function updateQrCode(
  deps: AppDeps,
  user: Owner,
  input: QrCodeChanges,
  version?: VersionNote,
): Promise<QrCode> {
  const existing = await getOrThrow(deps.db, user, input.id);
  if (!existing.is_dynamic) throw refuse('STATIC_CODE_NOT_EDITABLE', qrMessages.staticEdit);
  const type = normalizeQrType(existing.type);
  if (input.type !== undefined && normalizeQrType(input.type) !== type) {
    throw appError('BAD_REQUEST', qrMessages.typeChange);
  }
  if (input.isDynamic === false) throw appError('BAD_REQUEST', qrMessages.dynamicChange);
  // Only dynamic codes are edited (a static one was refused above).
  if (input.content !== undefined) checkContent(deps, type, input.content, true);
  const redirectOptions = storedRedirectOptions(deps, type, true, input.redirectOptions);
  const passwordHash = await storedPasswordHash(true, input.password);
  await checkFolder(deps.db, user, input.folderId);
  const newSlug = input.slug !== undefined && input.slug !== existing.slug ? input.slug : undefined;
  const currentDomain = existing.domain_id === null ? null : Number(existing.domain_id);
  const newDomain =
    input.domainId !== undefined && input.domainId !== currentDomain ? input.domainId : undefined;
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(newDomain !== undefined ? { domain_id: newDomain } : {}),
    ...(newSlug !== undefined ? { slug: newSlug } : {}),
    ...(input.content !== undefined ? { content: input.content } : {}),
    ...(input.customization !== undefined ? { customization: JSON.stringify(input.customization) } : {}),
    ...(input.folderId !== undefined ? { folder_id: input.folderId } : {}),
    ...(redirectOptions !== undefined ? { redirect_options: redirectOptions } : {}),
    ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
    updated: deps.clock.now().toISOString(),
  };
  const row = await savingVersion(deps, user, existing, version, async (db) => {
    if (newDomain !== undefined && newDomain !== null) await checkCodeDomain(db, user.id, newDomain);
    if (newSlug !== undefined) {
      // A printed code may carry the old link: a code that has scans keeps answering at it.
      await claimSlug(db, newSlug, input.id);
      if (existing.slug) await keepOldSlug(db, input.id, existing.slug, changes.updated);
    }
    return updateQrCodeRow(db, user.id, input.id, changes);
  }).catch((error: unknown) => {
    throw newSlug !== undefined && isUniqueViolation(error) ? slugTaken() : error;
  });
  if (!row) throw appError('NOT_FOUND', qrMessages.notFound);
  if (newDomain !== undefined && newDomain !== null) await reloadShortDomains(deps.db);
  return withScanVerdict(deps, await codeOf(deps, row));
}

/** Moving is organisation, not editing: static codes move too. null = the root. */
export async function moveQrCode(
  deps: AppDeps,
  user: User,
  input: { id: number; folderId: number | null },
): Promise<QrCode> {
  const existing = await getOrThrow(deps.db, user, input.id);
  await checkFolder(deps.db, user, input.folderId);
  const now = deps.clock.now();
  const row = await deps.db.transaction().execute(async (trx) => {
    const moved = await updateQrCodeRow(trx, user.id, input.id, {
      folder_id: input.folderId,
      updated: now.toISOString(),
    });
    // Its folder is part of what the workspace's webhooks are told of a code (`folderId`).
    if (moved && moved.folder_id !== existing.folder_id)
      await emitWebhookEvent(trx, now, user.id, 'code.updated', { code: webhookCodeOf(deps, moved) });
    return moved;
  });
  if (!row) throw appError('NOT_FOUND', qrMessages.notFound);
  return codeOf(deps, row);
}

export async function deleteQrCode(deps: AppDeps, user: Owner, id: number) {
  const existing = await getOrThrow(deps.db, user, id);
  const deleted = await deleteQrCodeWithScans(deps.db, user.id, id, (trx) =>
    emitWebhookEvent(trx, deps.clock.now(), user.id, 'code.deleted', {
      code: webhookCodeOf(deps, existing),
    }),
  );
  if (!deleted) throw appError('NOT_FOUND', qrMessages.notFound);
  await recordActivity(deps.db, user.id, actorOf(user), deps.clock.now(), {
    action: 'code.deleted',
    targetType: 'code',
    targetId: id,
    targetLabel: existing.name,
  });
  return { success: true as const, message: 'QR code deleted' };
}

/** The scan demo: the owner reads what a phone would, and it counts as a scan. */
export async function scanQrCode(
  deps: RequestDeps,
  user: User,
  id: number,
): Promise<{ type: QrType; content: string }> {
  const code = await getQrCode(deps, user, id);
  // Simulated: in the analytics like any scan, but never a place under the code's scan limit.
  const recorded = await deps.scans.record(
    { qrCodeId: code.id, ownerId: user.id },
    { ip: deps.ip, userAgent: deps.userAgent, referrer: null },
    'simulated',
  );
  if (!recorded) throw appError('NOT_FOUND', qrMessages.notFound);
  return { type: code.type, content: code.content };
}
