// The tRPC client and React Query (lib/trpc.ts) are not part of the app's first code: the sign-in form
// draws without them (about 20 KB compressed of a first load), and loads them when the visitor starts to
// use it (or sends it). The app's pages load them with their shell (a static import of its chunk, asked
// for with the page's: scripts/build/page-preload.ts), and the route guards through loadApi().
import type * as TrpcModule from './trpc';
import type { RouterOutputs } from './trpc';

export type Api = typeof TrpcModule;
export type SignedInUser = RouterOutputs['auth']['me'];
export type PublicConfig = RouterOutputs['auth']['publicConfig'];
export interface SignInAnswers {
  user: SignedInUser;
  config: PublicConfig;
}

let loading: Promise<Api> | null = null;
let loaded: Api | null = null;
/** The sign-in page's own answers, while the tRPC client is not loaded (signInAnswers). */
let early: Promise<SignInAnswers> | null = null;
let earlyAnswers: SignInAnswers | null = null;

/** The tRPC client and the query cache, loaded once. */
export function loadApi(): Promise<Api> {
  return (loading ??= import('./trpc').then(
    (api) => {
      loaded = api;
      // What the sign-in page already asked: not asked again (the current user, the server's settings).
      if (earlyAnswers) {
        const { auth } = api.trpcUtils;
        if (auth.me.getData() === undefined) auth.me.setData(undefined, earlyAnswers.user);
        if (auth.publicConfig.getData() === undefined)
          auth.publicConfig.setData(undefined, earlyAnswers.config);
      }
      return api;
    },
    (error: unknown) => {
      // A failed download is tried again next time.
      loading = null;
      throw error;
    },
  ));
}

/** The tRPC client once loaded, else null. */
export function loadedApi(): Api | null {
  return loaded;
}

/**
 * Who is signed in and the server's public settings, for /auth's guard and form: from the query cache
 * once the tRPC client is loaded, else in one request of the client's own form (a batched GET of both,
 * as httpBatchLink sends it), kept for the client when it loads.
 */
export async function signInAnswers(): Promise<SignInAnswers> {
  if (loaded) {
    const { auth } = loaded.trpcUtils;
    const [user, config] = await Promise.all([auth.me.ensureData(), auth.publicConfig.ensureData()]);
    return { user, config };
  }
  early ??= fetchSignInAnswers().then(
    (answers) => (earlyAnswers = answers),
    (error: unknown) => {
      early = null;
      throw error;
    },
  );
  return early;
}

interface BatchItem {
  result?: { data: unknown };
  error?: { message?: string };
}

async function fetchSignInAnswers(): Promise<SignInAnswers> {
  const response = await fetch(`/trpc/auth.me,auth.publicConfig?batch=1&input=${encodeURIComponent('{}')}`, {
    credentials: 'include',
  });
  const items = (await response.json().catch(() => null)) as [BatchItem, BatchItem] | null;
  const [me, config] = items ?? [];
  if (!me?.result || !config?.result) {
    throw new Error(me?.error?.message ?? config?.error?.message ?? `The server answered ${response.status}`);
  }
  return { user: me.result.data as SignedInUser, config: config.result.data as PublicConfig };
}
