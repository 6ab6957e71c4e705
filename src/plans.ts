import type { SubscriptionTier } from './auth/auth.schema.js';

export const PRO_PLAN_LIMIT = 100;

export const plans = {
  free: { name: 'Free', priceMonthly: 0 },
  pro: { name: 'Pro', priceMonthly: 10, maxCodes: PRO_PLAN_LIMIT },
  premium: { name: 'Premium', priceMonthly: 25, maxCodes: Infinity },
} as const satisfies Record<SubscriptionTier, { name: string; priceMonthly: number; maxCodes?: number }>;
