import { msg } from '@lingui/core/macro';
import { useMemo } from 'react';
import { trpc } from '../../lib/trpc';

/** Why a static code has no count, wherever one would stand: translated where shown, `t(NOT_TRACKED_MSG)`. */
export const NOT_TRACKED_MSG = msg`Not tracked`;
export const NOT_TRACKED_REASON_MSG = msg`Static codes are not tracked: their content is in the code itself, so scans never reach this server.`;

/**
 * The ids of the caller's static codes (from the code list the app already keeps), so analytics can say
 * 'Not tracked' for them and leave them out of scan shares. Undefined while the list loads; empty when
 * it cannot be read (every code is then shown with its count, as before).
 */
export function useStaticCodeIds(): Set<number> | undefined {
  const list = trpc.qr.list.useQuery();
  return useMemo(() => {
    if (list.isError) return new Set<number>();
    return list.data ? new Set(list.data.filter((c) => !c.isDynamic).map((c) => c.id)) : undefined;
  }, [list.data, list.isError]);
}
