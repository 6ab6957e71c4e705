import { maxCodesFor } from '../../../src/plans.js';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import type { User } from '../../../src/auth/auth.schema.js';
import { workspaceMessages } from '../../../src/workspaces/workspace.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { appError, refuse } from '../../errors.js';
import { checkRole, membershipOf } from '../../trpc/workspace-access.js';
import { moveCodeRollups } from '../scans/scan-rollups.js';
import { getInstanceSettings } from '../settings/instance-settings.js';
import { lockUserRow } from '../users/users.repository.js';
import { recordActivity } from '../workspaces/activity.js';
import { actorOf, type Owner } from '../workspaces/owner.js';
import { recordMovedVersion } from './history.recorder.js';
import { domainMessages } from '../../../src/qr/short-domain.schema.js';
import { mayUseDomain } from '../domains/short-domains.service.js';
import { countQrCodesOf, findQrCodeOf } from './qr.repository.js';
import { isLimitRefusal, planLimitMessage } from './qr.service.js';
import { emitLimitReached, emitWebhookEvent, webhookCodeOf } from '../webhooks/webhooks.service.js';

/**
 * Moves a code of the current workspace into a team the caller edits: its owner changes, its short link,
 * slug, design, history and scans stay with it (the scans move to the team's analytics). It lands at the
 * team's root (folders are the workspace's own), counts against the team's plan, and both workspaces'
 * activity feeds say so, as does the code's history.
 */
export async function moveQrCodeToWorkspace(
  deps: AppDeps,
  owner: Owner,
  person: User,
  input: { id: number; workspaceId: number },
) {
  if (input.workspaceId === owner.id) throw appError('BAD_REQUEST', workspaceMessages.sameWorkspace);
  const target = await membershipOf(deps.db, person, input.workspaceId);
  if (!target) throw appError('NOT_FOUND', workspaceMessages.notFound);
  if (target.kind !== 'team') throw appError('BAD_REQUEST', 'A code moves into a team workspace');
  checkRole(target, 'editor');
  const max = maxCodesFor(target.owner, (await getInstanceSettings(deps)).freePlanLimit, deps.clock.now());
  const actor = actorOf(owner);
  const now = deps.clock.now();
  await deps.db
    .transaction()
    .execute(async (trx) => {
      await lockUserRow(trx, target.id);
      const code = await findQrCodeOf(trx, owner.id, input.id);
      if (!code) throw appError('NOT_FOUND', qrMessages.notFound);
      // Its link on a short domain the team may not use would hand that domain to the team's editors.
      if (code.domain_id !== null && !(await mayUseDomain(trx, target.id, Number(code.domain_id))))
        throw appError('BAD_REQUEST', domainMessages.moveNotAvailable, { field: 'domainId' });
      const count = await countQrCodesOf(trx, target.id);
      if (max !== null && count >= max) {
        throw refuse('LIMIT_REACHED', planLimitMessage(target.owner, max, now), {
          limitReached: true,
          currentCount: count,
          maxCount: max,
        });
      }
      const moved = await trx
        .updateTable('qr_codes')
        .set({ user_id: target.id, folder_id: null, updated: now.toISOString() })
        .where('id', '=', code.id)
        .where('user_id', '=', owner.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await moveCodeRollups(trx, owner.id, target.id, code.id);
      await recordMovedVersion(trx, actor.id, moved, now.toISOString());
      const label = code.name;
      await recordActivity(trx, owner.id, actor, now, {
        action: 'code.moved-out',
        targetType: 'code',
        targetId: code.id,
        targetLabel: label,
        details: { to: target.name, toWorkspaceId: target.id },
      });
      await recordActivity(trx, target.id, actor, now, {
        action: 'code.moved-in',
        targetType: 'code',
        targetId: code.id,
        targetLabel: label,
        details: { from: owner.actor ? owner.name : 'Personal', fromWorkspaceId: owner.id },
      });
      // Each workspace's webhooks: the code left the one, and arrived in the other.
      await emitWebhookEvent(trx, now, owner.id, 'code.deleted', {
        code: webhookCodeOf(deps, code),
        movedTo: { workspaceId: target.id },
      });
      await emitWebhookEvent(trx, now, target.id, 'code.created', {
        code: webhookCodeOf(deps, moved),
        movedFrom: { workspaceId: owner.id },
      });
    })
    .catch(async (error: unknown) => {
      // Refused by the team's plan: the team's webhooks hear of it (outside the refused transaction).
      if (isLimitRefusal(error) && max !== null) await emitLimitReached(deps, target.id, max);
      throw error;
    });
  return { success: true as const, message: workspaceMessages.moved };
}
