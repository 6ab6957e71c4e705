import { describe, expect, it } from 'vitest';
import { PRO_PLAN_LIMIT } from '../../../src/plans.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { insertManyQrRows } from '../../test/fixtures.js';
import { call, signedInUser, useTestApp, type PlanFields, type Response } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { createCode, postCode, urlBody } from './qr.test-helpers.js';

const DAY = 86_400_000;

describeEachDb('QR code REST paths', (getDb) => {
  describe('POST /api/qr-codes plan limits', () => {
    const t = useTestApp(getDb);

    /** The exact 403 of the plan limit; nothing is written. */
    async function expectLimit(res: Response, count: number, max: number) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({
        message: expect.stringContaining('QR code limit reached') as string,
        code: 'LIMIT_REACHED',
        limitReached: true,
        currentCount: count,
        maxCount: max,
      });
      expect(await countRows(t().db, 'qr_codes')).toBe(count);
    }

    it('lets a free user create 3 codes (FREE_PLAN_LIMIT default), then answers 403 with the counts', async () => {
      expect(t().config.freePlanLimit).toBe(3);
      const { cookie } = await signedInUser(t(), 'free');
      await createCode(t(), cookie);
      await createCode(t(), cookie, { isDynamic: false });
      await createCode(t(), cookie);
      await expectLimit(await postCode(t(), cookie, urlBody()), 3, 3);
      // A static code counts as much as a dynamic one.
      await expectLimit(await postCode(t(), cookie, urlBody({ isDynamic: false })), 3, 3);
    });

    it('counts only the caller’s own codes', async () => {
      const other = await signedInUser(t(), 'busy');
      await insertManyQrRows(t().db, other.user.id, 5);
      const { cookie } = await signedInUser(t(), 'fresh');
      await createCode(t(), cookie);
    });

    it('frees a place when a code is deleted', async () => {
      const { user, cookie } = await signedInUser(t(), 'deleter');
      await insertManyQrRows(t().db, user.id, 3);
      await expectLimit(await postCode(t(), cookie, urlBody()), 3, 3);
      const [code] = (await call(t().app, 'GET', '/api/qr-codes', { cookie })).json<QrCode[]>();
      expect((await call(t().app, 'DELETE', `/api/qr-codes/${code!.id}`, { cookie })).statusCode).toBe(200);
      await createCode(t(), cookie);
    });

    it('holds the limit when several creations arrive at once', async () => {
      const { cookie } = await signedInUser(t(), 'racer');
      const results = await Promise.all(Array.from({ length: 6 }, () => postCode(t(), cookie, urlBody())));
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 201, 201, 403, 403, 403]);
      expect(await countRows(t().db, 'qr_codes')).toBe(3);
    });

    it.each([
      ['pro with an end date in the future', { subscriptionTier: 'pro', subscriptionEndDate: '+' }],
      ['pro without an end date', { subscriptionTier: 'pro', subscriptionEndDate: null }],
    ] as const)('lets a %s create up to 100 codes, then answers 403 maxCount 100', async (_n, plan) => {
      const { user, cookie } = await signedInUser(t(), 'pro', {
        ...plan,
        subscriptionEndDate:
          plan.subscriptionEndDate === '+'
            ? new Date(t().clock.now().getTime() + 30 * DAY).toISOString()
            : null,
      });
      await insertManyQrRows(t().db, user.id, PRO_PLAN_LIMIT - 1);
      await createCode(t(), cookie);
      await expectLimit(await postCode(t(), cookie, urlBody()), PRO_PLAN_LIMIT, PRO_PLAN_LIMIT);
    });

    it('lets pro go past the free limit', async () => {
      const { user, cookie } = await signedInUser(t(), 'pro4', {
        subscriptionTier: 'pro',
        subscriptionEndDate: new Date(t().clock.now().getTime() + DAY).toISOString(),
      });
      await insertManyQrRows(t().db, user.id, 3);
      const code = await createCode(t(), cookie);
      expect(code.userId).toBe(user.id);
      expect(await countRows(t().db, 'qr_codes')).toBe(4);
    });

    it.each([
      ['pro', 'pro' as const],
      ['premium', 'premium' as const],
    ])('counts an expired %s subscription as free', async (_n, tier) => {
      const { user, cookie } = await signedInUser(t(), `expired${tier}`, {
        subscriptionTier: tier,
        subscriptionEndDate: new Date(t().clock.now().getTime() - DAY).toISOString(),
      });
      await insertManyQrRows(t().db, user.id, 3);
      await expectLimit(await postCode(t(), cookie, urlBody()), 3, 3);
    });

    it('falls back to the free limit once the clock passes the pro end date', async () => {
      const { user, cookie } = await signedInUser(t(), 'lapsing', {
        subscriptionTier: 'pro',
        subscriptionEndDate: new Date(t().clock.now().getTime() + DAY).toISOString(),
      });
      await insertManyQrRows(t().db, user.id, 3);
      await createCode(t(), cookie);
      t().clock.advance(2 * DAY);
      await expectLimit(await postCode(t(), cookie, urlBody()), 4, 3);
    });

    it.each<[string, PlanFields]>([
      ['premium', { subscriptionTier: 'premium', subscriptionEndDate: 'future' }],
      ['premium without an end date', { subscriptionTier: 'premium', subscriptionEndDate: null }],
      ['has_unlimited_access', { hasUnlimitedAccess: true }],
      ['is_admin', { isAdmin: true }],
      [
        'has_unlimited_access with an expired pro plan',
        { hasUnlimitedAccess: true, subscriptionTier: 'pro', subscriptionEndDate: 'past' },
      ],
    ])('sets no limit for %s', async (_n, plan) => {
      const now = t().clock.now().getTime();
      const end =
        plan.subscriptionEndDate === 'future'
          ? new Date(now + 30 * DAY).toISOString()
          : plan.subscriptionEndDate === 'past'
            ? new Date(now - DAY).toISOString()
            : plan.subscriptionEndDate;
      const { user, cookie } = await signedInUser(t(), 'unlimited', {
        ...plan,
        ...(end !== undefined ? { subscriptionEndDate: end } : {}),
      });
      await insertManyQrRows(t().db, user.id, PRO_PLAN_LIMIT + 5);
      await createCode(t(), cookie);
      expect(await countRows(t().db, 'qr_codes')).toBe(PRO_PLAN_LIMIT + 6);
    });
  });

  describe('POST /api/qr-codes with FREE_PLAN_LIMIT=1', () => {
    const t = useTestApp(getDb, { config: { freePlanLimit: 1 } });

    it('uses the configured limit', async () => {
      const { cookie } = await signedInUser(t(), 'one');
      await createCode(t(), cookie);
      const res = await postCode(t(), cookie, urlBody());
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: expect.stringContaining('QR code limit reached') as string,
        code: 'LIMIT_REACHED',
        limitReached: true,
        currentCount: 1,
        maxCount: 1,
      });
      expect(await countRows(t().db, 'qr_codes')).toBe(1);
    });

    it('does not lower the pro limit', async () => {
      const { user, cookie } = await signedInUser(t(), 'prouser', {
        subscriptionTier: 'pro',
        subscriptionEndDate: new Date(t().clock.now().getTime() + DAY).toISOString(),
      });
      await insertManyQrRows(t().db, user.id, 5);
      await createCode(t(), cookie);
    });
  });

  describe('POST /api/qr-codes with FREE_PLAN_LIMIT=0', () => {
    const t = useTestApp(getDb, { config: { freePlanLimit: 0 } });

    it('refuses the first code of a free user', async () => {
      const { cookie } = await signedInUser(t(), 'zero');
      const res = await postCode(t(), cookie, urlBody());
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ limitReached: true, currentCount: 0, maxCount: 0 });
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });
  });
});
