// The one place that knows which tRPC React integration is used.
import { QueryClient } from '@tanstack/react-query';
import { httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCQueryUtils, createTRPCReact } from '@trpc/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/app-router';

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

// The workspace every request acts on: the app's `?workspace=<id>` (routes.ts sets it before a page loads),
// and the person it was chosen by. Null until the app knows it: the server then answers for the workspace
// it remembers for the user.
let requestWorkspace: number | null = null;
let chosenBy: number | null = null;

/**
 * The workspace requests act on for this person, or null when none is chosen yet. Another person signed
 * in since (a log-out, then a log-in in this tab): the choice of the one before is dropped.
 */
export function workspaceInUse(personId: number): number | null {
  if (chosenBy !== personId) {
    requestWorkspace = null;
    chosenBy = personId;
  }
  return requestWorkspace;
}

/** Whether this tab acts on a workspace yet (none before the first app page of a page load). */
export function workspaceChosen(): boolean {
  return requestWorkspace !== null;
}

/** `X-Workspace` for a request the app makes itself (tRPC, or a `fetch('/api/…')`). */
export function workspaceHeaders(): Record<string, string> {
  return requestWorkspace === null ? {} : { 'X-Workspace': String(requestWorkspace) };
}

/** A link the browser opens by itself (a download, a new tab) carries the workspace as `?workspace=`. */
export function withWorkspace(url: string): string {
  if (requestWorkspace === null) return url;
  const [path, hash] = url.split('#', 2) as [string, string | undefined];
  const joined = `${path}${path.includes('?') ? '&' : '?'}workspace=${requestWorkspace}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

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
  requestWorkspace = id;
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

export interface ApiErrorInfo {
  message: string;
  extras: Record<string, unknown>;
}

/** The server's message and documented extras (requiresVerification, limitReached…) of a failed call. */
export function apiError(error: unknown, fallback: string): ApiErrorInfo {
  if (error instanceof TRPCClientError) {
    const data = (error as TRPCClientError<AppRouter>).data as
      { extras?: Record<string, unknown> } | undefined;
    return { message: error.message || fallback, extras: data?.extras ?? {} };
  }
  return { message: fallback, extras: {} };
}
