// The one way the client's cache catches up after the user changes codes or folders.
import { useQueryClient, type Query } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useCallback } from 'react';
import type { QrCode } from '../../../src/qr/qr.schema';
import { trpc } from '../../lib/trpc';

export interface QrChange {
  /** The server's copy of a code just created, updated or moved. */
  saved?: QrCode;
  /** The id of a code just deleted. */
  deletedId?: number;
}

/**
 * Everything cached that shows codes: the codes (list, limit, each code's qr.get), the folders with
 * their counts, and all analytics, whose answers carry codes' names and counts.
 */
const codeScopes = [getQueryKey(trpc.qr), getQueryKey(trpc.folders), getQueryKey(trpc.analytics)];

/** No mounted screen reads it (a disabled query still has its screen). */
const unwatched = (query: Query) => query.getObserversCount() === 0;

/**
 * Answers never go stale on their own (lib/trpc.ts), so every create, update, move or delete of a code,
 * and every folder change, calls this once it has succeeded. After it, no screen shows a code as it was:
 *
 * - whatever about codes no screen shows right now is dropped, so the next screen loads it afresh instead
 *   of first showing it as it was (going Back to a code's details after editing it, say);
 * - the saved code is put in place at once (its qr.get, and its card when the list is on screen), and a
 *   deleted code's card leaves the list;
 * - what the screens show is fetched again; the returned promise settles when that is done.
 */
export function useQrCacheRefresh(): (change?: QrChange) => Promise<void> {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  return useCallback(
    async ({ saved, deletedId }: QrChange = {}) => {
      for (const queryKey of codeScopes) queryClient.removeQueries({ queryKey, predicate: unwatched });
      if (saved) {
        utils.qr.get.setData({ id: saved.id }, saved);
        utils.qr.list.setData(
          undefined,
          (list) =>
            list?.some((c) => c.id === saved.id)
              ? list.map((c) => (c.id === saved.id ? saved : c))
              : list && [saved, ...list], // the list is newest first
        );
      }
      if (deletedId !== undefined) {
        utils.qr.list.setData(undefined, (list) => list?.filter((c) => c.id !== deletedId));
      }
      await Promise.all(codeScopes.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    [utils, queryClient],
  );
}
