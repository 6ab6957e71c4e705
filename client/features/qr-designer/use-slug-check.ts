import { useDebouncedValue } from '@mantine/hooks';
import { slugProblem } from '../../../src/qr/slug';
import { trpc } from '../../lib/trpc';
import { slugCheckOf, type SlugCheck } from './short-link';

/** How long the owner's typing must rest before the back-half is judged (and the server asked). */
export const SLUG_CHECK_DELAY_MS = 300;

/**
 * The live check of the Short link field: `wanted` is the back-half a save would send (`slugToSend`).
 * The server is asked only once the typing rests and the text passes the local check, so a keystroke or
 * a text that cannot be a back-half costs no request. `codeId` (editing) makes the code's own back-half,
 * and the old ones it still answers at, count as available.
 */
export function useSlugCheck(wanted: string | null | undefined, codeId?: number): SlugCheck {
  const [restedValue] = useDebouncedValue(wanted, SLUG_CHECK_DELAY_MS);
  const rested = restedValue === wanted;
  const ask = rested && typeof wanted === 'string' && slugProblem(wanted) === null;
  const query = trpc.qr.slugAvailability.useQuery(
    { slug: wanted ?? '', ...(codeId === undefined ? {} : { id: codeId }) },
    // Answers never go stale in this app (lib/trpc.ts), but another owner may take a back-half at any
    // moment: an answer older than a few seconds is asked again when the same text comes back.
    { enabled: ask, staleTime: 5_000 },
  );
  return slugCheckOf({ wanted, rested, answer: query.data, failed: query.isError });
}
