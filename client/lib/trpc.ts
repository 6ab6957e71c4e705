// The one place that knows which tRPC React integration is used.
// Loaded apart from the app's first code (lib/load-api.ts): the sign-in form draws without it.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { httpBatchLink } from '@trpc/client';
import { createTRPCQueryUtils, createTRPCReact } from '@trpc/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { createElement, type ReactNode } from 'react';
import type { AppRouter } from '../../server/trpc/app-router';
import { setRequestWorkspace, workspaceHeaders, workspaceInUse } from './workspace-state';

export { apiError, type ApiErrorInfo } from './api-error';
export { workspaceChosen, workspaceHeaders, workspaceInUse, withWorkspace } from './workspace-state';

export const trpc = createTRPCReact<AppRouter>();
export type RouterOutputs = inferRouterOutputs<AppRouter>;

// Results never go stale, are not refetched on focus or on an interval, and nothing is retried. A change the
// user makes to codes or folders refreshes what it affects: features/qr/use-qr-cache-refresh.ts.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false, retry: false },
    mutations: { retry: false },
  },
});

/** What the app keeps across a change of workspace: the person's own account and their list of workspaces. */
function sharedByWorkspaces(queryKey: readonly unknown[]): boolean {
  const path = queryKey[0];
  if (!Array.isArray(path)) return false;
  const [router, procedure] = path as unknown[];
  return (
    router === 'auth' || (router === 'workspaces' && (procedure === 'list' || procedure === 'myInvitations'))
  );
}

/**
 * Makes `id` the workspace every request acts on. A change forgets what was loaded for the one before
 * (what is on screen loads again), so no code, folder or figure of another workspace stays in view.
 */
export function enterWorkspace(id: number, personId: number): void {
  const previous = workspaceInUse(personId);
  if (previous === id) return;
  setRequestWorkspace(id);
  if (previous !== null) {
    void queryClient.resetQueries({ predicate: (query) => !sharedByWorkspaces(query.queryKey) });
  }
}

export const trpcClient = trpc.createClient({
  links: [
    httpBatchLink({
      url: '/trpc',
      headers: workspaceHeaders,
      fetch: (url, options) => fetch(url, { ...options, credentials: 'include' }),
    }),
  ],
});

/** Imperative access to the cache (route guards, after login/logout). */
export const trpcUtils = createTRPCQueryUtils({ client: trpcClient, queryClient });
export type TrpcUtils = typeof trpcUtils;

/** The tRPC and React Query providers, around the pages that use their hooks (router.tsx). */
export function ApiProviders({ children }: { children: ReactNode }) {
  return createElement(trpc.Provider, {
    client: trpcClient,
    queryClient,
    children: createElement(QueryClientProvider, { client: queryClient }, children),
  });
}
