// The route objects: each address with its access rule and its typed params or search. Pages import
// the route they draw (`qrDetailsRoute.useParams()`); router.tsx attaches the pages and assembles the
// tree. Nothing here imports a page, so a page importing this module makes no cycle.
import {
  createRootRouteWithContext,
  createRoute,
  Outlet,
  redirect,
  retainSearchParams,
} from '@tanstack/react-router';
import { linkCheckDue, linkPageShown, pendingLink } from './features/auth/sso-link';
import {
  INVITATIONS_PATH,
  invitationsAfterSignIn,
  keepInvitationLink,
} from './features/workspaces/invitation-link';
import { qrIdFromParam } from './lib/qr-id-param';
import { noteSignedIn } from './lib/signed-in-hint';
import { viewerTimeZone } from './lib/time-zone';
import { loadedApi, signInAnswers, type Api } from './lib/load-api';
import { workspaceChosen, workspaceInUse } from './lib/workspace-state';

export interface RouterContext {
  /** The tRPC client and the query cache (lib/load-api.ts): not in the app's first code. */
  api: () => Promise<Api>;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Outlet });

const tokenSearch = (search: Record<string, unknown>) => ({
  token: typeof search.token === 'string' ? search.token : undefined,
});

/**
 * `$id` of /edit-qr/$id and /qr-details/$id: the code's id, or null when the address holds none (such
 * as /qr-details/abc). The page then shows its own error, inside the app shell, rather than a 404.
 */
const qrIdParams = {
  parse: ({ id }: { id: string }): { id: number | null } => ({ id: qrIdFromParam(id) }),
  stringify: ({ id }: { id: number | null }) => ({ id: id === null ? '' : String(id) }),
};

/**
 * /auth's search: where a company sign-in came back (`?sso=two-factor`: its two-factor code is asked;
 * `?sso_error=…`: why it failed), read without zod as the workspace search below.
 */
const authSearch = (search: Record<string, unknown>): { sso?: 'two-factor'; sso_error?: string } => ({
  ...(search.sso === 'two-factor' ? { sso: 'two-factor' as const } : {}),
  ...(typeof search.sso_error === 'string' && search.sso_error.trim() !== ''
    ? { sso_error: search.sso_error.slice(0, 500) }
    : {}),
});

// Public pages.
export const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth',
  validateSearch: authSearch,
  beforeLoad: async ({ context, preload }) => {
    // Asked together: one batched request on a first load instead of two one after the other, without
    // the tRPC client on a first load (lib/load-api.ts).
    const { user, config } = await signInAnswers();
    if (!preload) noteSignedIn(Boolean(user));
    if (user) throw redirect({ to: '/' });
    // Behind a trusted sign-in proxy the app lands here while the proxy's person still has to prove an
    // existing account's password: the link page is where they can.
    if (
      !preload &&
      config.sso.proxy &&
      linkCheckDue() &&
      (await pendingLink((await context.api()).trpcUtils)).link
    ) {
      throw redirect({ to: '/auth/link' });
    }
  },
  loader: async () => {
    const { config } = await signInAnswers();
    // Where a company sign-in (a full page load through the provider) should come back to: the page a
    // password sign-in would open next. The server's settings: the form's (the demo account, SSO).
    return { returnTo: invitationsAfterSignIn() ? INVITATIONS_PATH : '/', config };
  },
});
/** Linking a company account to the existing account of its address (`trpc.auth.ssoLink`). */
export const authLinkRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/link',
  beforeLoad: async ({ context }) => {
    if (await (await context.api()).trpcUtils.auth.me.ensureData()) throw redirect({ to: '/' });
  },
  loader: async ({ context, preload }) => {
    if (!preload) linkPageShown();
    return pendingLink((await context.api()).trpcUtils);
  },
});
/** A shared dashboard (issue 36): public, signed out or in, without the app's shell or its guards. */
export const shareRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/share/$token',
});
export const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  validateSearch: tokenSearch,
});
export const verifyEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/verify-email',
  validateSearch: tokenSearch,
});
// The old address's link after a change of address: #token=…, as the reset and verification links.
export const undoEmailChangeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/undo-email-change',
  validateSearch: tokenSearch,
});

// After a password reset the user is sent to /login: the login page lives at /auth.
export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  beforeLoad: () => {
    throw redirect({ to: '/auth' });
  },
});

/** The largest id the `X-Workspace` header takes (workspaceIdField of src/workspaces/workspace.schema.ts). */
const MAX_ID = 2_147_483_647;

/**
 * `?workspace=<id>` of every app page: the workspace it shows (a positive whole number), else none. Read
 * without zod, which this module (in the entry chunk, before any page) does not load.
 */
const workspaceSearch = (search: Record<string, unknown>): { workspace?: number } => {
  const value = search.workspace;
  const id =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(id) && id > 0 && id <= MAX_ID ? { workspace: id } : {};
};

// Signed-in pages, inside the app shell. Each carries the workspace it shows in its address, so a link
// can be shared, and keeps it from page to page (a link that names none keeps the current one).
export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  validateSearch: workspaceSearch,
  search: { middlewares: [retainSearchParams(['workspace'])] },
  beforeLoad: async ({ context, location, search, preload }) => {
    const { trpcUtils, enterWorkspace } = await context.api();
    // The first app page of a page load at an address without a workspace (/ or /create typed in) needs
    // the one the server remembers: asked in the same batched request as the user, not after it. Only
    // while the tab has chosen none, so it goes without `X-Workspace`; signed out it fails, unused.
    const remembered =
      search.workspace === undefined && !preload && !workspaceChosen()
        ? trpcUtils.workspaces.current.fetch().catch(() => null)
        : null;
    const user = await trpcUtils.auth.me.ensureData();
    if (!preload) {
      keepInvitationLink(location.pathname, Boolean(user));
      noteSignedIn(Boolean(user));
    }
    if (!user) throw redirect({ to: '/auth' });
    // Signed in after opening an invitation signed out: back to it.
    if (invitationsAfterSignIn() && location.pathname !== INVITATIONS_PATH) {
      throw redirect({ to: INVITATIONS_PATH });
    }
    // Hovering a link loads its page ahead: it must not change the workspace of the page on screen.
    if (preload) return { user };
    if (search.workspace === undefined) {
      // The one in use in this tab, else the one the server remembers for the user (the switcher's last
      // choice), written into the address without a new history entry.
      const id =
        workspaceInUse(user.id) ?? ((await remembered) ?? (await trpcUtils.workspaces.current.fetch())).id;
      const params = new URLSearchParams(location.searchStr);
      params.set('workspace', String(id));
      throw redirect({ href: `${location.pathname}?${params.toString()}`, replace: true });
    }
    enterWorkspace(search.workspace, user.id);
    // The workspace and the caller's role, known before the page draws its buttons. A workspace the user
    // is not a member of answers 404: the shell says so (AppLayout), so the failure is not thrown here.
    await trpcUtils.workspaces.current.prefetch();
    return { user };
  },
});

const appPage = <TPath extends string>(path: TPath) => createRoute({ getParentRoute: () => appRoute, path });

// A page's data is asked for with its code (and, hovering a link, with the link's preload), not after the
// code has arrived and drawn the page: the same queries, with the same inputs, as the page makes. Not
// awaited: the page shows its own placeholders meanwhile. The tRPC client is loaded: appRoute's guard
// waited for it. Not for a workspace the user is no member of
// (its `workspaces.current` answered 404): the shell says so and the page asks nothing.
const inWorkspace = (trpcUtils: Api['trpcUtils']) => trpcUtils.workspaces.current.getData() !== undefined;
export const dashboardRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  loader: () => {
    const trpcUtils = loadedApi()?.trpcUtils;
    if (!trpcUtils || !inWorkspace(trpcUtils)) return;
    const tz = viewerTimeZone();
    void trpcUtils.analytics.user.prefetch({ tz });
    void trpcUtils.analytics.daily.prefetch({ days: 7, tz });
    void trpcUtils.qr.list.prefetch();
  },
});
export const createQrRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/create',
  loader: () => {
    const trpcUtils = loadedApi()?.trpcUtils;
    if (!trpcUtils || !inWorkspace(trpcUtils)) return;
    void trpcUtils.qr.limit.prefetch();
    void trpcUtils.folders.list.prefetch();
  },
});
/**
 * /import's `?id=`: the import under review, so a reload or a second tab resumes it. An import's id is
 * 16 URL-safe characters (imports.service.ts); anything else is left out, and the page starts afresh.
 */
const importSearch = (search: Record<string, unknown>): { id?: string } =>
  typeof search.id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(search.id) ? { id: search.id } : {};
export const importRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/import',
  validateSearch: importSearch,
  loaderDeps: ({ search }) => ({ id: search.id }),
  loader: ({ deps }) => {
    const trpcUtils = loadedApi()?.trpcUtils;
    // A viewer is told the page is not for them (EditorOnly): nothing to ask.
    if (!trpcUtils || !inWorkspace(trpcUtils) || trpcUtils.workspaces.current.getData()?.role === 'viewer')
      return;
    void trpcUtils.folders.list.prefetch();
    void trpcUtils.qr.domains.prefetch();
    if (deps.id) void trpcUtils.imports.get.prefetch({ id: deps.id });
  },
});
export const myQrCodesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/my-qr-codes',
  loader: () => {
    const trpcUtils = loadedApi()?.trpcUtils;
    if (!trpcUtils || !inWorkspace(trpcUtils)) return;
    void trpcUtils.qr.list.prefetch();
    void trpcUtils.folders.list.prefetch();
    void trpcUtils.analytics.user.prefetch({ tz: viewerTimeZone() });
  },
});
export const analyticsRoute = appPage('/analytics');
export const settingsRoute = appPage('/settings');
export const profileRoute = appPage('/profile');
export const upgradeRoute = appPage('/upgrade');
export const teamSettingsRoute = appPage('/workspace');
export const integrationsRoute = appPage('/integrations');
export const invitationsRoute = appPage('/invitations');

export const editQrRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/edit-qr/$id',
  params: qrIdParams,
});
export const qrDetailsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/qr-details/$id',
  params: qrIdParams,
});

/** `?id=` as typed or linked (a string, kept as is so the page can say when it is not a valid id). */
export const scanDemoRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/scan-demo',
  validateSearch: (search: Record<string, unknown>) => ({
    id: typeof search.id === 'string' || typeof search.id === 'number' ? String(search.id) : undefined,
  }),
});

export const adminRoute = createRoute({
  getParentRoute: () => appRoute,
  id: 'admin',
  beforeLoad: ({ context }) => {
    if (!context.user.isAdmin) throw redirect({ to: '/' });
  },
  component: Outlet,
});
const adminPage = <TPath extends string>(path: TPath) =>
  createRoute({ getParentRoute: () => adminRoute, path });

export const adminHomeRoute = adminPage('/admin');
export const adminUsersRoute = adminPage('/admin/users');
export const adminSubscriptionsRoute = adminPage('/admin/subscriptions');
export const adminWorkspacesRoute = adminPage('/admin/workspaces');
export const adminDomainsRoute = adminPage('/admin/domains');
