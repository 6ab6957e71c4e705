import { actorOf, type Owner } from '../workspaces/owner.js';
import { recordActivity } from '../workspaces/activity.js';
import { emitLimitReached, emitWebhookEvents, webhookCodeOf } from '../webhooks/webhooks.service.js';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { maxCodesFor, upgradeOffer, type PlanHolder } from '../../../src/plans.js';
import {
  bulkMessages,
  fieldMessage,
  type BulkCreateAnswer,
  type bulkCreateInput,
} from '../../../src/qr/bulk.js';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import { normalizeQrType } from '../../../src/qr/qr-types.js';
import type { AppDeps } from '../../app-deps.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import { appError, extrasOf, refuse } from '../../errors.js';
import { toQrCode } from './qr.mapper.js';
import { reloadShortDomains, shortLinksOf } from '../domains/short-domains.registry.js';
import { checkCodeDomain } from '../domains/short-domains.service.js';
import { checkContent, isLimitRefusal, planLimitMessage } from './qr.service.js';
import { generateSlug } from './slug.js';
import { wakeScanChecks } from './scan-verdicts.js';
import { getInstanceSettings } from '../settings/instance-settings.js';
import { insertQrCodesOfOwner, type BulkCodeRow } from './bulk.repository.js';

/** The checked create call (defaults filled in); `repeats` absent: 'create', as before it existed. */
export type BulkCreate = z.output<typeof bulkCreateInput>;

/** The 403 of an all-or-nothing call that does not fit: the next plan up is the one offered. */
function doesNotFitMessage(user: PlanHolder, rows: number, count: number, max: number, now: Date): string {
  if (upgradeOffer(user, now)?.tier !== 'premium') return bulkMessages.doesNotFit(rows, count, max);
  return (
    `These ${rows} QR codes do not fit: your plan allows ${max} QR codes and you have ${count}. ` +
    `Create at most ${Math.max(0, max - count)}, or upgrade to Premium.`
  );
}

/** A 400 lists at most this many rows' problems (the message names the first). */
const MAX_ISSUES = 100;

interface RowIssue {
  path: (string | number)[];
  message: string;
}

/** The cause of a refused call: its issues, read as an input check's (validationIssuesOf). */
class RowIssues extends Error {
  constructor(readonly issues: RowIssue[]) {
    super('Invalid rows');
  }
}

/** Fresh slugs for the dynamic rows, none twice in the call. */
function withSlugs(rows: BulkCodeRow[]): BulkCodeRow[] {
  const drawn = new Set<string>();
  return rows.map((row) => {
    if (!row.isDynamic) return { ...row, slug: null };
    let slug = generateSlug();
    while (drawn.has(slug)) slug = generateSlug();
    drawn.add(slug);
    return { ...row, slug };
  });
}

/**
 * Checks every row as createQrCode checks one (valid payload of its type, never one of our own short
 * links, a dynamic link never to a local address). Any refused row refuses the call: a 400 whose issues
 * name each row and field (`codes.3.content`, 'Row 4: URL must be a valid URL').
 */
function checkRows(deps: AppDeps, input: BulkCreate): BulkCodeRow[] {
  const issues: RowIssue[] = [];
  const rows = input.codes.map((code, i): BulkCodeRow => {
    const type = normalizeQrType(code.type);
    try {
      checkContent(deps, type, code.content, code.isDynamic);
    } catch (error) {
      if (!(error instanceof TRPCError) || error.code !== 'BAD_REQUEST') throw error;
      const field = extrasOf(error)?.field;
      const message = typeof field === 'string' ? fieldMessage(type, field, error.message) : error.message;
      if (issues.length < MAX_ISSUES) {
        issues.push({ path: ['codes', i, 'content'], message: `Row ${i + 1}: ${message}` });
      }
    }
    return {
      name: code.name,
      type,
      content: code.content,
      isDynamic: code.isDynamic,
      slug: null,
      folderName: code.folder ?? null,
    };
  });
  if (issues.length > 0) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid input', cause: new RowIssues(issues) });
  }
  return rows;
}

/**
 * Creates many codes in one call: every row is checked first (nothing is created when one is refused),
 * then all are inserted in one transaction (see insertQrCodesOfOwner), their folders found by name or
 * created. With `repeats: 'skip'`, rows repeating one of the user's codes (same name, type and content)
 * are left out and listed in `repeated`. At the plan limit (counting only the rows to create):
 * allOrNothing refuses the call as POST /api/qr-codes does (403 limitReached); otherwise the first codes
 * that fit are created and the others listed in `skipped` (when none fits, the call is refused too).
 * Their scan-safety check runs in the background afterwards (a verdict appears on each code later).
 */
export async function bulkCreateQrCodes(
  deps: AppDeps,
  user: Owner,
  input: BulkCreate,
): Promise<BulkCreateAnswer> {
  const domainId = input.domainId ?? null;
  const rows = checkRows(deps, input).map((row) => ({ ...row, domainId: row.isDynamic ? domainId : null }));
  // Read again first, as a single create does: a domain renamed on another instance must not name these links.
  if (domainId !== null) {
    await checkCodeDomain(deps.db, user.id, domainId);
    await reloadShortDomains(deps.db);
  }
  const now = deps.clock.now();
  const max = maxCodesFor(user, (await getInstanceSettings(deps)).freePlanLimit, now);
  const owner = {
    userId: user.id,
    actorId: actorOf(user).id,
    folderId: input.folderId,
    customization: JSON.stringify(input.customization),
    now: now.toISOString(),
  };
  const fit = ({
    count,
    folderFound,
    rows: wanted,
  }: {
    count: number;
    folderFound: boolean;
    rows: number;
  }) => {
    if (!folderFound) throw appError('NOT_FOUND', qrMessages.folderNotFound);
    if (max === null) return wanted;
    const room = Math.max(0, max - count);
    // Some fit: without allOrNothing those are made and the rest listed. None fits: refused either way,
    // as a single create is (a 201 that made nothing would read as a success to a script).
    if (room >= wanted || (!input.allOrNothing && room > 0)) return Math.min(room, wanted);
    throw refuse(
      'LIMIT_REACHED',
      count >= max ? planLimitMessage(user, max, now) : doesNotFitMessage(user, wanted, count, max, now),
      { limitReached: true, currentCount: count, maxCount: max },
    );
  };

  for (let attempt = 0; ; attempt++) {
    try {
      const result = await insertQrCodesOfOwner(deps.db, owner, withSlugs(rows), fit, {
        skipRepeats: input.repeats === 'skip',
        // The workspace's webhooks hear of every code, as of a single save: in the same transaction.
        afterInsert: (trx, inserted) =>
          emitWebhookEvents(
            trx,
            now,
            user.id,
            'code.created',
            inserted.map((row) => ({ code: webhookCodeOf(deps, row) })),
          ),
      });
      const links = shortLinksOf(deps.db, deps.config.publicUrl);
      const codes = result.rows.map((row) => toQrCode(row, links));
      // Not inline as a single save is: hundreds of renders would hold the answer for minutes.
      if (codes.length > 0) {
        wakeScanChecks(deps);
        await recordActivity(deps.db, user.id, actorOf(user), now, {
          action: 'code.created',
          targetType: 'codes',
          targetLabel: codes.length === 1 ? codes[0]!.name : `${codes.length} QR codes (bulk)`,
          details: { count: codes.length },
        });
      }
      // Rows the plan left out: the workspace's webhooks hear that its limit was reached.
      if (result.overLimit.length > 0 && max !== null) await emitLimitReached(deps, user.id, max);
      return {
        created: codes.map((code, i) => ({
          id: code.id,
          name: code.name,
          type: code.type,
          isDynamic: code.isDynamic,
          folderId: code.folderId,
          shortUrl: code.shortUrl,
          row: result.taken[i]!,
        })),
        skipped: result.overLimit.map((row) => ({ row, message: bulkMessages.overLimit(max ?? 0) })),
        repeated: result.repeats,
        currentCount: result.countBefore + codes.length,
        maxCount: max,
      };
    } catch (error) {
      // Refused by the plan: the workspace's webhooks hear of it (outside the refused transaction).
      if (isLimitRefusal(error) && max !== null) await emitLimitReached(deps, user.id, max);
      // A slug already taken (about one call in a billion at 1,000 codes): the transaction rolled back; draw again.
      if (isUniqueViolation(error) && attempt < 5) continue;
      throw error;
    }
  }
}
