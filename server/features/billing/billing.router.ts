import { upgradeRequestInput } from '../../../src/admin/admin.schema.js';
import { router, workspaceProcedure } from '../../trpc/init.js';
import { getBillingStatus, requestUpgrade, startCheckout } from './billing.service.js';

/** The signed-in user's plan: where it stands, and the way up (Stripe Checkout, or a request). */
export const billingRouter = router({
  status: workspaceProcedure('viewer').query(({ ctx }) => getBillingStatus(ctx, ctx.owner)),
  checkout: workspaceProcedure('owner')
    .input(upgradeRequestInput)
    .mutation(({ ctx, input }) => startCheckout(ctx, ctx.owner, input)),
  requestUpgrade: workspaceProcedure('owner')
    .input(upgradeRequestInput)
    .mutation(({ ctx, input }) => requestUpgrade(ctx, ctx.owner, input)),
});
