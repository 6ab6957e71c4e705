import {
  adminMessages,
  cancelInput,
  extendInput,
  upgradeInput,
  type AdminUser,
} from '../../../src/admin/admin.schema.js';
import type { SubscriptionTier, User } from '../../../src/auth/auth.schema.js';
import { workspaceMessages } from '../../../src/workspaces/workspace.schema.js';
import type { RequestDeps } from '../../app-deps.js';
import { parseInput, appError } from '../../errors.js';
import { cancelStripeSubscription } from './stripe.js';
import { DAY_MS } from '../scans/rollup-model.js';
import { toUser } from '../users/users.mapper.js';
import { findAccountById, updateUserColumns } from '../users/users.repository.js';
import { recordAudit } from '../../audit.js';
import { securityEvent } from '../../security-log.js';
import { getAdminUser } from './admin-user.js';

/**
 * Whose plan an admin changes: a person (the plan of their personal workspace, on their own row) or a
 * team workspace (the plan on the team's row). The same rules for both; only the lookup, the words and
 * the audit entry's target differ.
 */
export type PlanAccountKind = 'person' | 'team';

/** An account's plan as an admin changes it. */
export interface PlanHolder {
  id: number;
  kind: PlanAccountKind;
  /** The row's username (a team's handle): what security events name. */
  username: string;
  /** What the toast and the audit log call it: the person's username, the team's name. */
  label: string;
  subscriptionTier: SubscriptionTier;
  subscriptionStatus: string | null;
  subscriptionEndDate: string | null;
  hasUnlimitedAccess: boolean;
}

function holderOf(user: User, kind: PlanAccountKind): PlanHolder {
  return {
    id: user.id,
    kind,
    username: user.username,
    label: kind === 'team' ? (user.name ?? user.username) : user.username,
    subscriptionTier: user.subscriptionTier,
    subscriptionStatus: user.subscriptionStatus,
    subscriptionEndDate: user.subscriptionEndDate,
    hasUnlimitedAccess: user.hasUnlimitedAccess,
  };
}

/** The account of this kind with this id; another kind or an unknown id is a 404 in that kind's words. */
export async function getPlanHolder(
  db: RequestDeps['db'],
  id: number,
  kind: PlanAccountKind,
): Promise<PlanHolder> {
  const row = await findAccountById(db, id, kind);
  if (!row) {
    throw appError('NOT_FOUND', kind === 'team' ? workspaceMessages.notFound : adminMessages.userNotFound);
  }
  return holderOf(toUser(row), kind);
}

function subscriptionView(
  plan: Pick<PlanHolder, 'subscriptionTier' | 'subscriptionStatus' | 'subscriptionEndDate'>,
) {
  return {
    subscriptionTier: plan.subscriptionTier,
    subscriptionStatus: plan.subscriptionStatus,
    subscriptionEndDate: plan.subscriptionEndDate,
  };
}

interface PlanChange {
  tier: string;
  status: string | null;
  endDate: string | null;
}

/**
 * Sets an account's plan: tier, status and end date, with its audit entry (target 'subscription' for a
 * person, 'workspace' for a team), in one transaction; then logs `plan.changed` (audited by that entry).
 */
async function applyPlanChange(
  deps: RequestDeps,
  admin: User,
  now: Date,
  before: PlanHolder,
  action: string,
  change: PlanChange,
): Promise<void> {
  const after = {
    subscriptionTier: change.tier,
    subscriptionStatus: change.status,
    subscriptionEndDate: change.endDate,
  };
  await deps.db.transaction().execute(async (trx) => {
    await updateUserColumns(trx, before.id, {
      subscription_tier: change.tier,
      subscription_status: change.status,
      subscription_end_date: change.endDate,
    });
    await recordAudit(trx, admin, now, {
      action,
      targetType: before.kind === 'team' ? 'workspace' : 'subscription',
      targetId: before.id,
      targetLabel: before.label,
      before: subscriptionView(before),
      after,
    });
  });
  const whose = before.kind === 'team' ? `team workspace "${before.label}"` : before.username;
  await securityEvent(deps, 'plan.changed', {
    user: { id: before.id, username: before.username },
    by: admin,
    message: `plan of ${whose} set to ${change.tier} (${change.status ?? 'no status'}) by ${admin.username}`,
    details: {
      action,
      fromTier: before.subscriptionTier,
      tier: change.tier,
      status: change.status,
      endDate: change.endDate,
      ...(before.kind === 'team' ? { workspace: true } : {}),
    },
    audit: false,
  });
}

/** Sets a person's plan (an admin's change, an approved upgrade request) and answers them as the admin pages show them. */
export async function setSubscription(
  deps: RequestDeps,
  admin: User,
  now: Date,
  before: AdminUser,
  action: string,
  change: PlanChange,
): Promise<AdminUser> {
  await applyPlanChange(deps, admin, now, holderOf(before, 'person'), action, change);
  return getAdminUser(deps.db, before.id);
}

/** Pro or Premium for 1–365 days from now, active. Answers the toast's words. */
export async function upgradePlan(
  deps: RequestDeps,
  admin: User,
  account: { id: number; kind: PlanAccountKind },
  raw: unknown,
): Promise<string> {
  const input = parseInput(upgradeInput, raw);
  const before = await getPlanHolder(deps.db, account.id, account.kind);
  const now = deps.clock.now();
  await applyPlanChange(deps, admin, now, before, 'subscription.upgrade', {
    tier: input.tier,
    status: 'active',
    endDate: new Date(now.getTime() + input.duration * DAY_MS).toISOString(),
  });
  const plan = input.tier === 'pro' ? 'Pro' : 'Premium';
  return `${before.label} is on ${plan} for ${input.duration} days`;
}

/** 1–365 more days, counted from the end date (or from now when it has passed). Paid tiers only. */
export async function extendPlan(
  deps: RequestDeps,
  admin: User,
  account: { id: number; kind: PlanAccountKind },
  raw: unknown,
): Promise<string> {
  const input = parseInput(extendInput, raw);
  const before = await getPlanHolder(deps.db, account.id, account.kind);
  if (before.subscriptionTier === 'free') throw appError('BAD_REQUEST', adminMessages.extendFree);
  const now = deps.clock.now();
  const end = before.subscriptionEndDate ? new Date(before.subscriptionEndDate).getTime() : now.getTime();
  const from = Math.max(end, now.getTime());
  await applyPlanChange(deps, admin, now, before, 'subscription.extend', {
    tier: before.subscriptionTier,
    status: 'active',
    endDate: new Date(from + input.days * DAY_MS).toISOString(),
  });
  return `Subscription of ${before.label} extended by ${input.days} days`;
}

/**
 * `immediate`: back to Free now. Otherwise canceled at period end: the tier stays until the end date
 * (which is now when the plan had none). Paid tiers only; a Stripe subscription is canceled at Stripe too.
 */
export async function cancelPlan(
  deps: RequestDeps,
  admin: User,
  account: { id: number; kind: PlanAccountKind },
  raw: unknown,
): Promise<string> {
  const input = parseInput(cancelInput, raw);
  const before = await getPlanHolder(deps.db, account.id, account.kind);
  if (before.subscriptionTier === 'free') throw appError('BAD_REQUEST', adminMessages.cancelFree);
  const now = deps.clock.now();
  await cancelStripeSubscription(deps, before.id, input.immediate);
  await applyPlanChange(
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
  return input.immediate
    ? `Subscription of ${before.label} canceled: back on Free now`
    : `Subscription of ${before.label} canceled at the end of its period`;
}

// A person's plan: /api/admin/users/{id}/subscription/… (their personal workspace), answered with the user.

export async function upgradeSubscription(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const message = await upgradePlan(deps, admin, { id, kind: 'person' }, raw);
  return { success: true, message, user: await getAdminUser(deps.db, id) };
}

export async function extendSubscription(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const message = await extendPlan(deps, admin, { id, kind: 'person' }, raw);
  return { success: true, message, user: await getAdminUser(deps.db, id) };
}

export async function cancelSubscription(deps: RequestDeps, admin: User, id: number, raw: unknown) {
  const message = await cancelPlan(deps, admin, { id, kind: 'person' }, raw);
  return { success: true, message, user: await getAdminUser(deps.db, id) };
}
