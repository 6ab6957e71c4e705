import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  currentPlanLabel,
  DEFAULT_FREE_LIMIT,
  effectiveTier,
  includedInEveryPlan,
  limitDialogText,
  limitReachedMessage,
  monthlyPrice,
  paidPlansLine,
  plans,
  planSellingPoints,
  PRO_PLAN_LIMIT,
  UPLOAD_QUOTA_FACTOR,
  upgradeOffer,
  uploadQuotaFor,
  maxCodesFor,
  type PlanHolder,
} from './plans';

const root = path.resolve(import.meta.dirname, '..');

/** Every source file of the app (tests and the plan table itself excepted). */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.(test|e2e)\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => file !== path.join(root, 'src', 'plans.ts'));
}

describe('plan texts', () => {
  it('are written from the plan table', () => {
    expect(monthlyPrice('pro')).toBe(`$${plans.pro.priceMonthly}/month`);
    expect(paidPlansLine).toBe(
      `Pro ($${plans.pro.priceMonthly}/month, up to ${PRO_PLAN_LIMIT} codes) and ` +
        `Premium ($${plans.premium.priceMonthly}/month, unlimited codes)`,
    );
    expect(limitDialogText(3, 3)).toBe(
      `You've created 3 of 3 QR codes on the free plan. Upgrade to Pro to create up to ${PRO_PLAN_LIMIT} QR codes with advanced features.`,
    );
    expect(limitReachedMessage(DEFAULT_FREE_LIMIT)).toBe(
      `QR code limit reached. Your plan allows ${DEFAULT_FREE_LIMIT} QR codes: upgrade to Pro to create up to ${PRO_PLAN_LIMIT}.`,
    );
  });

  it('are not written out anywhere else, so a plan change is one edit in src/plans.ts', () => {
    const literals = [
      `up to ${PRO_PLAN_LIMIT}`,
      `$${plans.pro.priceMonthly}/`,
      `$${plans.premium.priceMonthly}/`,
      `$${plans.pro.priceMonthly} `,
      `$${plans.premium.priceMonthly} `,
    ];
    const found = ['src', 'server', 'client'].flatMap(sourceFiles).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return literals.filter((l) => text.includes(l)).map((l) => `${path.relative(root, file)}: ${l}`);
    });
    expect(found).toEqual([]);
  });
});

describe('upgradeOffer and currentPlanLabel', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const user = (changes: Partial<PlanHolder> = {}): PlanHolder => ({
    isAdmin: false,
    hasUnlimitedAccess: false,
    subscriptionTier: 'free',
    subscriptionEndDate: null,
    ...changes,
  });

  it('offers Pro to Free, Premium to Pro, and nothing to Premium, unlimited access or admins', () => {
    expect(upgradeOffer(user(), now)?.label).toBe('Upgrade to Pro');
    expect(upgradeOffer(user({ subscriptionTier: 'pro' }), now)?.label).toBe('Upgrade to Premium');
    expect(upgradeOffer(user({ subscriptionTier: 'premium' }), now)).toBeNull();
    expect(upgradeOffer(user({ subscriptionTier: 'pro', hasUnlimitedAccess: true }), now)).toBeNull();
    expect(upgradeOffer(user({ isAdmin: true }), now)).toBeNull();
  });

  it('treats a lapsed paid plan as Free', () => {
    const lapsed = user({ subscriptionTier: 'pro', subscriptionEndDate: '2026-11-01T00:00:00Z' });
    expect(upgradeOffer(lapsed, now)?.label).toBe('Upgrade to Pro');
    expect(currentPlanLabel(lapsed, now)).toBe('Free plan');
  });

  it('offers Premium in the limit dialog of a Pro user', () => {
    expect(limitDialogText(100, 100, 'pro')).toBe(
      "You've created 100 of 100 QR codes on the Pro plan. Upgrade to Premium for unlimited QR codes.",
    );
    expect(limitDialogText(3, 3)).toBe(limitDialogText(3, 3, 'free'));
    expect(limitDialogText(3, 3)).toContain('on the free plan. Upgrade to Pro');
  });

  it('names the current plan', () => {
    expect(currentPlanLabel(user({ subscriptionTier: 'pro' }), now)).toBe('Pro plan');
    expect(currentPlanLabel(user({ subscriptionTier: 'premium' }), now)).toBe('Premium plan');
    expect(currentPlanLabel(user({ hasUnlimitedAccess: true }), now)).toBe('Unlimited access');
    expect(currentPlanLabel(user({ isAdmin: true }), now)).toBeNull();
  });
});

describe('planSellingPoints', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const on = (subscriptionTier: PlanHolder['subscriptionTier']): PlanHolder => ({
    isAdmin: false,
    hasUnlimitedAccess: false,
    subscriptionTier,
    subscriptionEndDate: null,
  });

  it('sells only what the plan really changes: the code limit and the upload storage', () => {
    expect(planSellingPoints('free')).toEqual([
      `Up to ${DEFAULT_FREE_LIMIT} QR codes`,
      'Storage for your logos and profile picture',
    ]);
    expect(planSellingPoints('pro')).toEqual([
      `Up to ${PRO_PLAN_LIMIT} QR codes`,
      `${UPLOAD_QUOTA_FACTOR.pro}× the Free plan's storage for logos and pictures`,
    ]);
    expect(planSellingPoints('premium')).toEqual([
      'Unlimited QR codes',
      `${UPLOAD_QUOTA_FACTOR.premium}× the Free plan's storage for logos and pictures`,
    ]);
  });

  it("follows the instance's free limit", () => {
    expect(planSellingPoints('free', 10)[0]).toBe('Up to 10 QR codes');
  });

  it('matches what the server enforces for a user on each plan', () => {
    for (const tier of ['free', 'pro', 'premium'] as const) {
      const user = on(tier);
      expect(effectiveTier(user, now)).toBe(tier);
      const max = maxCodesFor(user, DEFAULT_FREE_LIMIT, now);
      expect(planSellingPoints(tier)[0]).toBe(max === null ? 'Unlimited QR codes' : `Up to ${max} QR codes`);
      const factor = uploadQuotaFor(user, 1, now);
      expect(planSellingPoints(tier)[1]).toContain(factor === 1 ? 'Storage' : `${factor}×`);
    }
  });

  it('never sells what every plan already has', () => {
    const all = (['free', 'pro', 'premium'] as const).flatMap((tier) => planSellingPoints(tier)).join(' ');
    for (const claim of ['customisation', 'analytics', 'support', 'dynamic'])
      expect(all.toLowerCase()).not.toContain(claim);
    expect(includedInEveryPlan).toContain('scan analytics');
  });
});
