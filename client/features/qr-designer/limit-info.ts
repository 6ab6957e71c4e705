// What the plan-limit error says, apart from its dialog (LimitDialog.tsx, loaded when first shown).
import { DEFAULT_FREE_LIMIT } from '../../../src/plans';

export interface LimitInfo {
  currentCount: number;
  maxCount: number;
}

const count = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/**
 * The plan-limit error is the one whose data says limitReached. Counts come from the error, else from what
 * the page already knows (qr.limit), else the default Free limit.
 */
export function limitFromError(
  extras: Record<string, unknown>,
  known?: { currentCount: number; maxCount: number | null },
): LimitInfo | null {
  if (extras.limitReached !== true) return null;
  return {
    currentCount: count(extras.currentCount, known?.currentCount ?? DEFAULT_FREE_LIMIT),
    maxCount: count(extras.maxCount, known?.maxCount ?? DEFAULT_FREE_LIMIT),
  };
}
