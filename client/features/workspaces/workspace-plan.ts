import type { User } from '../../../src/auth/auth.schema';
import { currentPlanLabel, effectiveTier, upgradeOffer, type PlanHolder } from '../../../src/plans';
import type { Workspace } from '../../../src/workspaces/workspace.schema';

export interface WorkspacePlanView {
  /** The sidebar's badge: a paid plan or unlimited access; null for Free (the upgrade entry says it). */
  badge: string | null;
  /** "Upgrade to Pro/Premium", offered to the workspace's owners only: they alone buy its plan. */
  offer: ReturnType<typeof upgradeOffer>;
  /** The badge links to the plans page for an owner; for anyone else it only says the plan. */
  owner: boolean;
}

/**
 * What the shell says about the plan of the workspace in view. The plan is the workspace's (a team's own
 * plan, or the person's in their personal workspace), never the person's alone. An instance admin's
 * admin rights lift the limits of their own workspace only, so a team's plan shows to them as to anyone.
 */
export function workspacePlanView(
  user: Pick<User, 'isAdmin'>,
  workspace: Pick<Workspace, 'kind' | 'role' | 'plan'> | undefined,
  now: Date,
): WorkspacePlanView {
  if (!workspace) return { badge: null, offer: null, owner: false };
  const holder: PlanHolder = {
    isAdmin: workspace.kind === 'personal' && user.isAdmin,
    hasUnlimitedAccess: workspace.plan.hasUnlimitedAccess,
    subscriptionTier: workspace.plan.tier,
    subscriptionEndDate: workspace.plan.endDate,
  };
  const owner = workspace.role === 'owner';
  const paid = holder.hasUnlimitedAccess || effectiveTier(holder, now) !== 'free';
  return {
    badge: paid ? currentPlanLabel(holder, now) : null,
    offer: owner ? upgradeOffer(holder, now) : null,
    owner,
  };
}
