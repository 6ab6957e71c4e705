import type { SubscriptionTier } from './auth/auth.schema.js';

/** How many codes the Free plan allows unless the instance sets FREE_PLAN_LIMIT. */
export const DEFAULT_FREE_LIMIT = 3;
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

/**
 * The plan prompt a user sees (header, sidebar, avatar menu, limit messages): the next tier up, or none
 * for Premium, unlimited access and admins, who have nothing to upgrade to.
 */
export function upgradeOffer(
  user: PlanHolder,
  now: Date,
): { tier: 'pro' | 'premium'; label: 'Upgrade to Pro' | 'Upgrade to Premium' } | null {
  if (user.isAdmin || user.hasUnlimitedAccess) return null;
  const tier = effectiveTier(user, now);
  if (tier === 'free') return { tier: 'pro', label: 'Upgrade to Pro' };
  if (tier === 'pro') return { tier: 'premium', label: 'Upgrade to Premium' };
  return null;
}

/** The plan a user is on, as the sidebar's badge says it (admins see none). */
export function currentPlanLabel(user: PlanHolder, now: Date): string | null {
  if (user.isAdmin) return null;
  if (user.hasUnlimitedAccess) return 'Unlimited access';
  return `${plans[effectiveTier(user, now)].name} plan`;
}

/** Upload storage (logos, the profile picture): the Free quota × this for each tier; admins as Premium. */
export const UPLOAD_QUOTA_FACTOR: Record<SubscriptionTier, number> = { free: 1, pro: 4, premium: 20 };

/** Bytes of uploads a user may keep; `freeBytes` is the instance's UPLOAD_QUOTA_MB. */
export function uploadQuotaFor(user: PlanHolder, freeBytes: number, now: Date): number {
  const tier = user.isAdmin || user.hasUnlimitedAccess ? 'premium' : effectiveTier(user, now);
  return freeBytes * UPLOAD_QUOTA_FACTOR[tier];
}

// Every text that names a plan's price or limit is written from the table above, so a plan change is one edit.

/** '$10/month'. */
export function monthlyPrice(tier: SubscriptionTier): string {
  return `$${plans[tier].priceMonthly}/month`;
}

/** "Upgrade to Pro to create up to 100 QR codes with advanced features." */
export const upgradeToProPitch = `Upgrade to Pro to create up to ${PRO_PLAN_LIMIT} QR codes with advanced features.`;

/** The message of the plan-limit error (the error also carries limitReached, currentCount and maxCount). */
export function limitReachedMessage(max: number): string {
  return `QR code limit reached. Your plan allows ${max} QR codes: upgrade to Pro to create up to ${PRO_PLAN_LIMIT}.`;
}

/** The body of the 'QR Code Limit Reached' dialog; a Pro user is offered Premium. */
export function limitDialogText(count: number, max: number, tier: SubscriptionTier = 'free'): string {
  if (tier === 'pro')
    return `You've created ${count} of ${max} QR codes on the Pro plan. Upgrade to Premium for unlimited QR codes.`;
  return `You've created ${count} of ${max} QR codes on the free plan. ${upgradeToProPitch}`;
}

/** One line per paid plan: 'Pro ($10/month, up to 100 codes) and Premium ($25/month, unlimited codes)'. */
export const paidPlansLine =
  `${plans.pro.name} (${monthlyPrice('pro')}, up to ${PRO_PLAN_LIMIT} codes) and ` +
  `${plans.premium.name} (${monthlyPrice('premium')}, unlimited codes)`;

/**
 * What a plan really gives, derived from the limits above — the only things the server changes by plan
 * (the code limit in qr.service and bulk.service, the upload quota in uploads.service). Everything else
 * (every code type, the designer, analytics, bulk import, API tokens) is on every plan: see
 * `includedInEveryPlan`. `freeLimit` is the instance's FREE_PLAN_LIMIT.
 */
export function planSellingPoints(tier: SubscriptionTier, freeLimit: number = DEFAULT_FREE_LIMIT): string[] {
  const codes: number = tier === 'free' ? freeLimit : plans[tier].maxCodes;
  const factor = UPLOAD_QUOTA_FACTOR[tier];
  const points = [
    codes === Infinity ? 'Unlimited QR codes' : `Up to ${codes} QR codes`,
    factor === 1
      ? 'Storage for your logos and profile picture'
      : `${factor}× the ${plans.free.name} plan's storage for logos and pictures`,
  ];
  return points;
}

/** The features no plan holds back: shown beside the plans so nobody pays for what they already have. */
export const includedInEveryPlan =
  'Every plan has every code type, dynamic codes, the full designer, scan analytics, bulk import and API tokens.';
