// Wiring only: the route tree, its access rules and which page each route lazy-loads.
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { FullPageLoader } from './components/FullPageLoader';
import { MyQrCodesPageSkeleton } from './components/PageSkeletons';
import { NotFoundPage } from './components/NotFoundPage';
import type * as Pages from './features/placeholders/pages';
import type { TrpcUtils } from './lib/trpc';

type PageName = keyof typeof Pages;

export interface RouterContext {
  trpcUtils: TrpcUtils;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});

const tokenSearch = (search: Record<string, unknown>) => ({
  token: typeof search.token === 'string' ? search.token : undefined,
});

// Public pages.
const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth',
  beforeLoad: async ({ context }) => {
    if (await context.trpcUtils.auth.me.ensureData()) throw redirect({ to: '/' });
  },
  loader: ({ context }) => context.trpcUtils.auth.publicConfig.ensureData(),
  component: lazyRouteComponent(() => import('./features/auth/AuthPage'), 'AuthPage'),
});
const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import('./features/auth/ResetPasswordPage'), 'ResetPasswordPage'),
});
const verifyEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/verify-email',
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import('./features/auth/VerifyEmailPage'), 'VerifyEmailPage'),
});

// After a password reset the spec sends the user to /login: the login page lives at /auth.
const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  beforeLoad: () => {
    throw redirect({ to: '/auth' });
  },
});

// Signed-in pages, inside the app shell.
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context }) => {
    const user = await context.trpcUtils.auth.me.ensureData();
    if (!user) throw redirect({ to: '/auth' });
    return { user };
  },
  pendingComponent: FullPageLoader,
  component: lazyRouteComponent(() => import('./features/shell/AppLayout'), 'AppLayout'),
});

const page = (path: string, name: PageName) =>
  createRoute({
    getParentRoute: () => appRoute,
    path,
    component: lazyRouteComponent(() => import('./features/placeholders/pages'), name),
  });

const scanDemoRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/scan-demo',
  validateSearch: (search: Record<string, unknown>) => ({
    id: typeof search.id === 'string' || typeof search.id === 'number' ? String(search.id) : undefined,
  }),
  component: lazyRouteComponent(() => import('./features/scan-demo/ScanDemoPage'), 'ScanDemoPage'),
});

const adminRoute = createRoute({
  getParentRoute: () => appRoute,
  id: 'admin',
  beforeLoad: ({ context }) => {
    if (!context.user.isAdmin) throw redirect({ to: '/' });
  },
  component: Outlet,
});
const adminPage = (path: string, name: PageName) =>
  createRoute({
    getParentRoute: () => adminRoute,
    path,
    component: lazyRouteComponent(() => import('./features/placeholders/pages'), name),
  });

const routeTree = rootRoute.addChildren([
  authRoute,
  resetPasswordRoute,
  verifyEmailRoute,
  loginRoute,
  appRoute.addChildren([
    createRoute({
      getParentRoute: () => appRoute,
      path: '/',
      component: lazyRouteComponent(() => import('./features/dashboard/DashboardPage'), 'DashboardPage'),
    }),
    createRoute({
      getParentRoute: () => appRoute,
      path: '/create',
      component: lazyRouteComponent(() => import('./features/qr-designer/CreateQrPage'), 'CreateQrPage'),
    }),
    createRoute({
      getParentRoute: () => appRoute,
      path: '/my-qr-codes',
      // The page's own shape while its code loads, not a bare spinner.
      pendingComponent: MyQrCodesPageSkeleton,
      component: lazyRouteComponent(() => import('./features/my-qr-codes/MyQrCodesPage'), 'MyQrCodesPage'),
    }),
    createRoute({
      getParentRoute: () => appRoute,
      path: '/edit-qr/$id',
      component: lazyRouteComponent(() => import('./features/qr-designer/EditQrPage'), 'EditQrPage'),
    }),
    createRoute({
      getParentRoute: () => appRoute,
      path: '/qr-details/$id',
      component: lazyRouteComponent(() => import('./features/qr-details/QrDetailsPage'), 'QrDetailsPage'),
    }),
    createRoute({
      getParentRoute: () => appRoute,
      path: '/analytics',
      component: lazyRouteComponent(() => import('./features/analytics/AnalyticsPage'), 'AnalyticsPage'),
    }),
    scanDemoRoute,
    page('/settings', 'SettingsPage'),
    page('/profile', 'ProfilePage'),
    page('/upgrade', 'UpgradePage'),
    adminRoute.addChildren([
      adminPage('/admin', 'AdminPage'),
      adminPage('/admin/users', 'AdminUsersPage'),
      adminPage('/admin/subscriptions', 'AdminSubscriptionsPage'),
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

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
