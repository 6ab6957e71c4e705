import {
  adminMessages,
  cancelInput,
  extendInput,
  upgradeInput,
  type AdminUser,
} from '../../../src/admin/admin.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { RequestDeps } from '../../app-deps.js';
import { parseInput, appError } from '../../errors.js';
import { cancelStripeSubscription } from './stripe.js';
import { DAY_MS } from '../scans/rollup-model.js';
import { updateUserColumns } from '../users/users.repository.js';
import { recordAudit } from '../../audit.js';
import { securityEvent } from '../../security-log.js';
import { getAdminUser } from './admin-user.js';

function subscriptionView(user: AdminUser) {
  return {
    subscriptionTier: user.subscriptionTier,
    subscriptionStatus: user.subscriptionStatus,
    subscriptionEndDate: user.subscriptionEndDate,
  };
}

/**
 * Sets a user's plan: tier, status and end date, with its audit entry, in one transaction; then logs
 * `plan.changed` (audited by that entry already).
 */
export async function setSubscription(
  deps: RequestDeps,
  admin: User,
  now: Date,
  before: AdminUser,
  action: string,
  change: { tier: string; status: string | null; endDate: string | null },
): Promise<AdminUser> {
  const user = await deps.db.transaction().execute(async (trx) => {
    await updateUserColumns(trx, before.id, {
      subscription_tier: change.tier,
      subscription_status: change.status,
      subscription_end_date: change.endDate,
    });
    const after = await getAdminUser(trx, before.id);
    await recordAudit(trx, admin, now, {
      action,
      targetType: 'subscription',
      targetId: before.id,
      targetLabel: before.username,
      before: subscriptionView(before),
      after: subscriptionView(after),
    });
    return after;
  });
  await securityEvent(deps, 'plan.changed', {
    user,
    by: admin,
    message: `plan of ${user.username} set to ${user.subscriptionTier} (${user.subscriptionStatus ?? 'no status'}) by ${admin.username}`,
    details: {
      action,
      fromTier: before.subscriptionTier,
      tier: user.subscriptionTier,
      status: user.subscriptionStatus,
      endDate: user.subscriptionEndDate,
    },
    audit: false,
  });
  return user;
}

/** Pro or Premium for 1–365 days from now, active. */
export async function upgradeSubscription(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const input = parseInput(upgradeInput, raw);
  const before = await getAdminUser(deps.db, id);
  const now = deps.clock.now();
  const user = await setSubscription(deps, admin, now, before, 'subscription.upgrade', {
    tier: input.tier,
    status: 'active',
    endDate: new Date(now.getTime() + input.duration * DAY_MS).toISOString(),
  });
  const plan = input.tier === 'pro' ? 'Pro' : 'Premium';
  return { success: true, message: `${before.username} is on ${plan} for ${input.duration} days`, user };
}

/** 1–365 more days, counted from the end date (or from now when it has passed). Paid tiers only. */
export async function extendSubscription(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const input = parseInput(extendInput, raw);
  const before = await getAdminUser(deps.db, id);
  if (before.subscriptionTier === 'free') throw appError('BAD_REQUEST', adminMessages.extendFree);
  const now = deps.clock.now();
  const end = before.subscriptionEndDate ? new Date(before.subscriptionEndDate).getTime() : now.getTime();
  const from = Math.max(end, now.getTime());
  const user = await setSubscription(deps, admin, now, before, 'subscription.extend', {
    tier: before.subscriptionTier,
    status: 'active',
    endDate: new Date(from + input.days * DAY_MS).toISOString(),
  });
  return {
    success: true,
    message: `Subscription of ${before.username} extended by ${input.days} days`,
    user,
  };
}

/**
 * `immediate`: back to Free now. Otherwise canceled at period end: the tier stays until the end date
 * (which is now when the plan had none). Paid tiers only; a Stripe subscription is canceled at Stripe too.
 */
export async function cancelSubscription(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const input = parseInput(cancelInput, raw);
  const before = await getAdminUser(deps.db, id);
  if (before.subscriptionTier === 'free') throw appError('BAD_REQUEST', adminMessages.cancelFree);
  const now = deps.clock.now();
  await cancelStripeSubscription(deps, id, input.immediate);
  const user = await setSubscription(
    deps,
    admin,
    now,
    before,
    input.immediate ? 'subscription.cancel-now' : 'subscription.cancel-at-period-end',
    input.immediate
      ? { tier: 'free', status: 'canceled', endDate: now.toISOString() }
      : {
          tier: before.subscriptionTier,
          status: 'canceled',
          endDate: before.subscriptionEndDate ?? now.toISOString(),
        },
  );
  return {
    success: true,
    message: input.immediate
      ? `Subscription of ${before.username} canceled: back on Free now`
      : `Subscription of ${before.username} canceled at the end of its period`,
    user,
  };
}
