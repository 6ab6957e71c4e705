// Wiring only: which page each route of routes.ts lazy-loads, and the route tree they make.
import { createRouter, lazyRouteComponent, type AsyncRouteComponent } from '@tanstack/react-router';
import { use } from 'react';
import { FullPageLoader } from './components/FullPageLoader';
import { MyQrCodesPageSkeleton } from './components/PageSkeletons';
import { NotFoundPage } from './components/NotFoundPage';
import { loadApi, loadedApi } from './lib/load-api';
import {
  adminDomainsRoute,
  adminHomeRoute,
  adminRoute,
  adminSubscriptionsRoute,
  adminUsersRoute,
  adminWorkspacesRoute,
  analyticsRoute,
  appRoute,
  authLinkRoute,
  authRoute,
  createQrRoute,
  dashboardRoute,
  editQrRoute,
  importRoute,
  integrationsRoute,
  invitationsRoute,
  loginRoute,
  myQrCodesRoute,
  profileRoute,
  qrDetailsRoute,
  resetPasswordRoute,
  rootRoute,
  scanDemoRoute,
  settingsRoute,
  shareRoute,
  teamSettingsRoute,
  undoEmailChangeRoute,
  upgradeRoute,
  verifyEmailRoute,
  type RouterContext,
} from './routes';

export type { RouterContext } from './routes';

/**
 * A page whose components use tRPC's and React Query's hooks, in their providers: loaded with the page's
 * code (the router waits for both before drawing it), not with the app's first code (lib/load-api.ts).
 * The sign-in page goes without: its form calls the server through features/auth/use-api-call.ts.
 */
function withApi(Page: AsyncRouteComponent<object>) {
  function WithApi() {
    const { ApiProviders } = loadedApi() ?? use(loadApi());
    return (
      <ApiProviders>
        <Page />
      </ApiProviders>
    );
  }
  WithApi.preload = async () => {
    await Promise.all([Page.preload?.(), loadApi()]);
  };
  return WithApi;
}

rootRoute.update({ notFoundComponent: NotFoundPage });
authRoute.update({ component: lazyRouteComponent(() => import('./features/auth/AuthPage'), 'AuthPage') });
authLinkRoute.update({
  component: withApi(lazyRouteComponent(() => import('./features/auth/LinkAccountPage'), 'LinkAccountPage')),
});
resetPasswordRoute.update({
  component: withApi(
    lazyRouteComponent(() => import('./features/auth/ResetPasswordPage'), 'ResetPasswordPage'),
  ),
});
verifyEmailRoute.update({
  component: withApi(lazyRouteComponent(() => import('./features/auth/VerifyEmailPage'), 'VerifyEmailPage')),
});
undoEmailChangeRoute.update({
  component: withApi(
    lazyRouteComponent(() => import('./features/auth/UndoEmailChangePage'), 'UndoEmailChangePage'),
  ),
});
shareRoute.update({
  component: lazyRouteComponent(() => import('./features/shares/SharedDashboardPage'), 'SharedDashboardPage'),
});
appRoute.update({
  pendingComponent: FullPageLoader,
  component: withApi(lazyRouteComponent(() => import('./features/shell/AppLayout'), 'AppLayout')),
});
dashboardRoute.update({
  component: lazyRouteComponent(() => import('./features/dashboard/DashboardPage'), 'DashboardPage'),
});
createQrRoute.update({
  component: lazyRouteComponent(() => import('./features/qr-designer/CreateQrPage'), 'CreateQrPage'),
});
importRoute.update({
  component: lazyRouteComponent(() => import('./features/imports/ImportPage'), 'ImportPage'),
});
myQrCodesRoute.update({
  // The page's own shape while its code loads, not a bare spinner; replaced as soon as the code is there
  // (not held the router's default 500 ms: the codes, usually in the cache already, show at once).
  pendingComponent: MyQrCodesPageSkeleton,
  pendingMinMs: 0,
  component: lazyRouteComponent(() => import('./features/my-qr-codes/MyQrCodesPage'), 'MyQrCodesPage'),
});
editQrRoute.update({
  component: lazyRouteComponent(() => import('./features/qr-designer/EditQrPage'), 'EditQrPage'),
});
qrDetailsRoute.update({
  component: lazyRouteComponent(() => import('./features/qr-details/QrDetailsPage'), 'QrDetailsPage'),
});
analyticsRoute.update({
  component: lazyRouteComponent(() => import('./features/analytics/AnalyticsPage'), 'AnalyticsPage'),
});
scanDemoRoute.update({
  component: lazyRouteComponent(() => import('./features/scan-demo/ScanDemoPage'), 'ScanDemoPage'),
});
settingsRoute.update({
  component: lazyRouteComponent(() => import('./features/account/SettingsPage'), 'SettingsPage'),
});
profileRoute.update({
  component: lazyRouteComponent(() => import('./features/account/ProfilePage'), 'ProfilePage'),
});
upgradeRoute.update({
  component: lazyRouteComponent(() => import('./features/upgrade/UpgradePage'), 'UpgradePage'),
});
teamSettingsRoute.update({
  component: lazyRouteComponent(
    () => import('./features/workspaces/settings/TeamSettingsPage'),
    'TeamSettingsPage',
  ),
});
integrationsRoute.update({
  component: lazyRouteComponent(() => import('./features/integrations/IntegrationsPage'), 'IntegrationsPage'),
});
invitationsRoute.update({
  component: lazyRouteComponent(() => import('./features/workspaces/InvitationsPage'), 'InvitationsPage'),
});
adminHomeRoute.update({
  component: lazyRouteComponent(() => import('./features/admin/AdminDashboardPage'), 'AdminDashboardPage'),
});
adminUsersRoute.update({
  component: lazyRouteComponent(() => import('./features/admin/AdminUsersPage'), 'AdminUsersPage'),
});
adminSubscriptionsRoute.update({
  component: lazyRouteComponent(
    () => import('./features/admin/AdminSubscriptionsPage'),
    'AdminSubscriptionsPage',
  ),
});
adminWorkspacesRoute.update({
  component: lazyRouteComponent(
    () => import('./features/admin/workspaces/AdminWorkspacesPage'),
    'AdminWorkspacesPage',
  ),
});
adminDomainsRoute.update({
  component: lazyRouteComponent(
    () => import('./features/admin/domains/AdminDomainsPage'),
    'AdminDomainsPage',
  ),
});

const routeTree = rootRoute.addChildren([
  authRoute,
  authLinkRoute,
  resetPasswordRoute,
  verifyEmailRoute,
  undoEmailChangeRoute,
  loginRoute,
  shareRoute,
  appRoute.addChildren([
    dashboardRoute,
    createQrRoute,
    myQrCodesRoute,
    importRoute,
    editQrRoute,
    qrDetailsRoute,
    analyticsRoute,
    scanDemoRoute,
    settingsRoute,
    profileRoute,
    upgradeRoute,
    teamSettingsRoute,
    integrationsRoute,
    invitationsRoute,
    adminRoute.addChildren([
      adminHomeRoute,
      adminUsersRoute,
      adminSubscriptionsRoute,
      adminWorkspacesRoute,
      adminDomainsRoute,
    ]),
  ]),
]);

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    defaultPendingMs: 150,
    defaultPendingComponent: FullPageLoader,
    scrollRestoration: true,
  });
}

/**
 * Starts downloading the code of the pages at `pathname` (the layout and the page) at once. The router
 * itself asks for a page's code only after the route guards have their answers from the server (who is
 * signed in, which workspace): on a first load that was a second round trip before the page could draw.
 * A guard that sends the visitor elsewhere wastes this download, which the browser keeps in its cache.
 */
export function preloadPageCode(router: ReturnType<typeof createAppRouter>, pathname: string) {
  const [routes] = router.getMatchedRoutes(pathname);
  for (const route of routes) void router.loadRouteChunk(route);
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
