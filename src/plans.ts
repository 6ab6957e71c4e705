import type { SubscriptionTier } from './auth/auth.schema.js';

export const PRO_PLAN_LIMIT = 100;

export const plans = {
  free: { name: 'Free', priceMonthly: 0 },
  pro: { name: 'Pro', priceMonthly: 10, maxCodes: PRO_PLAN_LIMIT },
  premium: { name: 'Premium', priceMonthly: 25, maxCodes: Infinity },
} as const satisfies Record<SubscriptionTier, { name: string; priceMonthly: number; maxCodes?: number }>;

export interface PlanHolder {
  isAdmin: boolean;
  hasUnlimitedAccess: boolean;
  subscriptionTier: SubscriptionTier;
  subscriptionEndDate: string | null;
}

/** The tier that applies now: a paid tier whose end date has passed counts as free. */
export function effectiveTier(user: PlanHolder, now: Date): SubscriptionTier {
  if (user.subscriptionTier === 'free') return 'free';
  const end = user.subscriptionEndDate ? new Date(user.subscriptionEndDate).getTime() : Infinity;
  return end > now.getTime() ? user.subscriptionTier : 'free';
}

/** How many codes a user may own; null means unlimited (premium, admins, unlimited access). */
export function maxCodesFor(user: PlanHolder, freeLimit: number, now: Date): number | null {
  if (user.isAdmin || user.hasUnlimitedAccess) return null;
  const tier = effectiveTier(user, now);
  if (tier === 'premium') return null;
  return tier === 'pro' ? PRO_PLAN_LIMIT : freeLimit;
}
