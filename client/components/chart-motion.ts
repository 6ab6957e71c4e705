import { useReducedMotion } from '@mantine/hooks';

/** How long a chart's series takes to draw in, when motion is welcome. */
const ANIMATION_MS = 500;

/**
 * Recharts animation props for a series: on by default, off under prefers-reduced-motion. Read
 * before the first paint (not in an effect), so a chart never starts an animation it then drops.
 */
export function useChartAnimation(): { isAnimationActive: boolean; animationDuration: number } {
  const reduce = useReducedMotion(undefined, { getInitialValueInEffect: false });
  return { isAnimationActive: !reduce, animationDuration: ANIMATION_MS };
}
