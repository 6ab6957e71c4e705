import type { MantineColor } from '@mantine/core';
import type { DeviceCategory } from '../../src/analytics/analytics.schema';

/** Five theme chart colours (series, top codes). */
export const CHART_COLORS: readonly MantineColor[] = ['blue.6', 'teal.6', 'violet.6', 'orange.6', 'pink.6'];

/** The location chart has up to ten colour slots; 'Other' is always grey. */
export const LOCATION_COLORS: readonly MantineColor[] = [
  ...CHART_COLORS,
  'cyan.6',
  'grape.6',
  'lime.7',
  'indigo.6',
  'yellow.7',
];
export const OTHER_COLOR: MantineColor = 'gray.5';

export const DEVICE_COLORS: Record<DeviceCategory, MantineColor> = {
  Mobile: 'blue.6',
  Tablet: 'teal.6',
  Desktop: 'violet.6',
  Bot: 'orange.6',
  Unknown: 'gray.5',
};

export const colorAt = (colors: readonly MantineColor[], i: number): MantineColor =>
  colors[i % colors.length] ?? 'gray.5';
