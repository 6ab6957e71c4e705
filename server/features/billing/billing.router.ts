import { upgradeRequestInput } from '../../../src/admin/admin.schema.js';
import { authedProcedure, router } from '../../trpc/init.js';
import { getBillingStatus, requestUpgrade, startCheckout } from './billing.service.js';

/** The signed-in user's plan: where it stands, and the way up (Stripe Checkout, or a request). */
export const billingRouter = router({
  status: authedProcedure.query(({ ctx }) => getBillingStatus(ctx, ctx.user)),
  checkout: authedProcedure
    .input(upgradeRequestInput)
    .mutation(({ ctx, input }) => startCheckout(ctx, ctx.user, input)),
  requestUpgrade: authedProcedure
    .input(upgradeRequestInput)
    .mutation(({ ctx, input }) => requestUpgrade(ctx, ctx.user, input)),
});
