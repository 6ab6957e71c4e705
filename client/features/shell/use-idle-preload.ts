import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';

/** The pages people open most from any other: their code is fetched ahead, once the app is quiet. */
const LIKELY_NEXT = ['/my-qr-codes', '/create'] as const;

/** How long after the app's frame is drawn it waits before looking for an idle moment. */
export const IDLE_PRELOAD_AFTER_MS = 2_000;

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

/**
 * Whether this connection should fetch ahead: not when the browser asks to save data, nor on a 2G or 3G
 * link (where the page's own requests matter more).
 */
export function mayPreload(connection: NetworkInformation | undefined): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  return !['slow-2g', '2g', '3g'].includes(connection.effectiveType ?? '4g');
}

/**
 * Moves inside the app without waiting for a page's code: the code of My QR Codes and Create QR Code is
 * fetched once the first page has loaded and the browser is idle (two seconds after the frame is drawn,
 * then at its next idle moment), so a click shows them from what is already there. Hovering a link
 * still preloads that link's page at once (the router's `intent`). The first page's own requests are
 * never slowed: nothing is fetched before they are done.
 */
export function useIdlePreload(): void {
  const router = useRouter();
  useEffect(() => {
    const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
    if (!mayPreload(connection)) return;
    let idle: number | undefined;
    // Their code only: not their data (the router's loaders), which a session ended meanwhile would
    // answer with a 401, and which the pages ask for themselves (My QR Codes' list is the dashboard's).
    const preload = () => {
      for (const to of LIKELY_NEXT) {
        const route = router.routesByPath[to];
        if (route && router.state.location.pathname !== to)
          void router.loadRouteChunk(route)?.catch(() => undefined);
      }
    };
    const timer = window.setTimeout(() => {
      idle =
        typeof window.requestIdleCallback === 'function'
          ? window.requestIdleCallback(preload, { timeout: 5_000 })
          : window.setTimeout(preload, 0);
    }, IDLE_PRELOAD_AFTER_MS);
    return () => {
      window.clearTimeout(timer);
      if (idle !== undefined) {
        if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idle);
        else window.clearTimeout(idle);
      }
    };
  }, [router]);
}
