import { useState } from 'react';
import { loadApi, type Api } from '../../lib/load-api';

interface Handlers<T> {
  onSuccess?: (data: T) => unknown;
  onError?: (error: unknown) => unknown;
  onSettled?: () => void;
}

/**
 * A call to the server from the sign-in page, as React Query's useMutation makes it (pending until its
 * onSuccess has finished, then its data), through the tRPC client loaded when first needed
 * (lib/load-api.ts): the page draws without it.
 */
export function useApiCall<I, T>(call: (api: Api, input: I) => Promise<T>, handlers: Handlers<T>) {
  const [state, setState] = useState<{ isPending: boolean; data: T | undefined }>({
    isPending: false,
    data: undefined,
  });
  const mutate = (input: I) => {
    setState((s) => ({ ...s, isPending: true }));
    void (async () => {
      try {
        const data = await call(await loadApi(), input);
        await handlers.onSuccess?.(data);
        setState({ isPending: false, data });
      } catch (error) {
        await handlers.onError?.(error);
        setState({ isPending: false, data: undefined });
      } finally {
        handlers.onSettled?.();
      }
    })();
  };
  return { mutate, isPending: state.isPending, data: state.data };
}

/** Loads the tRPC client as soon as the visitor starts to use the form (a key, a click, a tap). */
export const loadApiOnIntent = {
  onKeyDownCapture: () => void loadApi().catch(() => undefined),
  onPointerDownCapture: () => void loadApi().catch(() => undefined),
};
