import { adminRouter } from '../features/admin/admin.router.js';
import { billingRouter } from '../features/billing/billing.router.js';
import { tokensRouter } from '../features/tokens/tokens.router.js';
import { accountRouter } from '../features/account/account.router.js';
import { analyticsRouter } from '../features/analytics/analytics.router.js';
import { authRouter } from '../features/auth/auth.router.js';
import { twoFactorRouter } from '../features/auth/two-factor.router.js';
import { foldersRouter } from '../features/folders/folders.router.js';
import { importsRouter } from '../features/imports/imports.router.js';
import { destinationsRouter } from '../features/destination-checks/destination-checks.router.js';
import { webhooksRouter } from '../features/webhooks/webhooks.router.js';
import { forwardingRouter } from '../features/forwarding/forwarding.router.js';
import { sharesRouter } from '../features/shares/shares.router.js';
import { qrRouter } from '../features/qr/qr.router.js';
import { workspacesRouter } from '../features/workspaces/workspaces.router.js';
import { router } from './init.js';

export const appRouter = router({
  auth: authRouter,
  account: accountRouter,
  twoFactor: twoFactorRouter,
  qr: qrRouter,
  folders: foldersRouter,
  analytics: analyticsRouter,
  admin: adminRouter,
  billing: billingRouter,
  tokens: tokensRouter,
  workspaces: workspacesRouter,
  imports: importsRouter,
  destinations: destinationsRouter,
  webhooks: webhooksRouter,
  forwarding: forwardingRouter,
  shares: sharesRouter,
});

export type AppRouter = typeof appRouter;
