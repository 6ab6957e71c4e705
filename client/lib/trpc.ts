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

export const trpcClient = trpc.createClient({
  links: [
    httpBatchLink({
      url: '/trpc',
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
