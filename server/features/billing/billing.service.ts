import { actorOf, type Owner } from '../workspaces/owner.js';
import { claimNotification } from '../notifications/notifications.repository.js';
import {
  adminMessages,
  decideRequestInput,
  type BillingStatus,
  upgradeRequestInput,
  type PaidTier,
} from '../../../src/admin/admin.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import { effectiveTier, maxCodesFor, plans } from '../../../src/plans.js';
import type { AppDeps, RequestDeps } from '../../app-deps.js';
import { appError, parseInput } from '../../errors.js';
import { recordAudit } from '../../audit.js';
import { setSubscription } from './subscriptions.service.js';
import { composeMailFor, mailLocaleOf } from '../mail/layout.js';
import { formatters, mailMessages } from '../mail/messages/index.js';
import { sendInBackground } from '../mail/mailer.js';
import { countQrCodesOf } from '../qr/qr.repository.js';
import { getInstanceSettings } from '../settings/instance-settings.js';
import { DAY_MS } from '../scans/rollup-model.js';
import { findUserById, listAdminEmails } from '../users/users.repository.js';
import { getAdminUser, toUpgradeRequest } from './admin-user.js';
import {
  decidePendingRequest,
  findUpgradeRequest,
  insertUpgradeRequest,
  pendingRequestsOf,
} from './billing.repository.js';
import { createCheckout } from './stripe.js';

export async function getBillingStatus(deps: AppDeps, user: User): Promise<BillingStatus> {
  const settings = await getInstanceSettings(deps);
  const now = deps.clock.now();
  const [pending] = await pendingRequestsOf(deps.db, [user.id]);
  return {
    tier: user.subscriptionTier,
    effectiveTier: effectiveTier(user, now),
    status: user.subscriptionStatus,
    endDate: user.subscriptionEndDate,
    currentCount: await countQrCodesOf(deps.db, user.id),
    maxCount: maxCodesFor(user, settings.freePlanLimit, now),
    payments: deps.config.stripe ? 'stripe' : 'request',
    pendingRequest: pending ? toUpgradeRequest(pending) : null,
  };
}

/** With Stripe: the payment page for the tier. */
export async function startCheckout(deps: AppDeps, user: User, raw: unknown) {
  const { tier } = parseInput(upgradeRequestInput, raw);
  return createCheckout(deps, user, tier);
}

export const billingMessages = {
  requested: 'Your request was sent to the administrators. You will get an e-mail when they decide.',
  teamRequested: "Your request was sent to the administrators: they set the team's plan.",
  useCheckout: 'This server takes payments through Stripe: use the checkout instead.',
} as const;

/**
 * A team's owner asks for a paid plan: the admins are mailed (once a day per plan) and set the team's plan
 * on /admin/workspaces; nothing waits in the users' request list, which is about people.
 */
async function requestTeamUpgrade(ctx: RequestDeps, team: Owner, tier: PaidTier) {
  const day = ctx.clock.now().toISOString().slice(0, 10);
  const actor = actorOf(team);
  const fresh = await claimNotification(
    ctx.db,
    `team-upgrade:${team.id}:${tier}:${day}`,
    actor.id,
    ctx.clock.now().toISOString(),
  );
  const name = team.name ?? '';
  if (fresh) {
    for (const admin of await listAdminEmails(ctx.db)) {
      sendInBackground(
        ctx,
        composeMailFor(
          { to: admin.email, locale: mailLocaleOf(admin), name: null },
          mailMessages(mailLocaleOf(admin)).teamUpgradeRequest({
            username: actor.username,
            team: name,
            plan: plans[tier].name,
          }),
          `${ctx.config.publicUrl}/admin/workspaces?search=${encodeURIComponent(name)}`,
          ctx.config.publicUrl,
        ),
      );
    }
  }
  return { success: true, message: billingMessages.teamRequested, request: null };
}

/** Without Stripe: a request an admin approves or declines; the admins are told by e-mail. */
export async function requestUpgrade(ctx: RequestDeps, user: Owner, raw: unknown) {
  const { tier } = parseInput(upgradeRequestInput, raw);
  if (ctx.config.stripe) throw appError('BAD_REQUEST', billingMessages.useCheckout);
  if (user.actor) return requestTeamUpgrade(ctx, user, tier);
  const [existing] = await pendingRequestsOf(ctx.db, [user.id]);
  if (existing) throw appError('CONFLICT', adminMessages.requestPending);
  const row = await insertUpgradeRequest(ctx.db, user.id, tier, ctx.clock.now().toISOString());
  const who = user.name ? `${user.name} (${user.username})` : user.username;
  for (const admin of await listAdminEmails(ctx.db)) {
    sendInBackground(
      ctx,
      composeMailFor(
        { to: admin.email, locale: mailLocaleOf(admin), name: null },
        mailMessages(mailLocaleOf(admin)).upgradeRequest({ who, plan: plans[tier].name }),
        `${ctx.config.publicUrl}/admin/subscriptions?show=requests`,
        ctx.config.publicUrl,
      ),
    );
  }
  return { success: true, message: billingMessages.requested, request: toUpgradeRequest(row) };
}

/** An admin approves (an upgrade for `duration` days) or declines a request; the user is told by e-mail. */
export async function decideUpgradeRequest(ctx: RequestDeps, admin: User, raw: unknown) {
  const input = parseInput(decideRequestInput, raw);
  const request = await findUpgradeRequest(ctx.db, input.id);
  if (!request) throw appError('NOT_FOUND', adminMessages.requestNotFound);
  if (request.status !== 'pending') throw appError('CONFLICT', adminMessages.requestDecided);
  const now = ctx.clock.now();
  const tier = request.tier as PaidTier;
  const before = await getAdminUser(ctx.db, request.user_id);
  const claimed = await decidePendingRequest(ctx.db, request.id, {
    status: input.approve ? 'approved' : 'declined',
    at: now.toISOString(),
    by: admin.id,
  });
  // Two admins deciding at once: the first one wins.
  if (!claimed) throw appError('CONFLICT', adminMessages.requestDecided);
  let user = before;
  if (input.approve) {
    user = await setSubscription(ctx, admin, now, before, 'subscription.approve-request', {
      tier,
      status: 'active',
      endDate: new Date(now.getTime() + input.duration * DAY_MS).toISOString(),
    });
  } else {
    await recordAudit(ctx.db, admin, now, {
      action: 'subscription.decline-request',
      targetType: 'upgrade-request',
      targetId: request.id,
      targetLabel: before.username,
      after: { tier, status: 'declined' },
    });
  }
  const row = await findUserById(ctx.db, request.user_id);
  if (row?.email) {
    const locale = mailLocaleOf(row);
    const words = mailMessages(locale);
    sendInBackground(
      ctx,
      composeMailFor(
        { to: row.email, locale, name: row },
        input.approve
          ? words.upgradeApproved({
              plan: plans[tier].name,
              until: formatters(locale).date(new Date(user.subscriptionEndDate!), row.time_zone),
            })
          : words.upgradeDeclined({ plan: plans[tier].name }),
        `${ctx.config.publicUrl}/upgrade`,
        ctx.config.publicUrl,
      ),
    );
  }
  return {
    success: true,
    message: input.approve
      ? `${before.username} is on ${plans[tier].name} for ${input.duration} days`
      : `Request of ${before.username} declined`,
    user: await getAdminUser(ctx.db, request.user_id),
  };
}
