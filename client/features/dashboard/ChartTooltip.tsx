import { ColorSwatch, Group } from '@mantine/core';
import classes from './dashboard-charts.module.css';

/**
 * The box a pointer over a chart shows, as @mantine/charts' tooltip: a title (unless none) and one row,
 * its colour, name and value. The same figures are in the chart's table, for keyboards and screen readers.
 */
export function ChartTooltip({
  x,
  y,
  left = false,
  title,
  name,
  value,
  color,
}: {
  /** Where it points, in the plot's pixels: the box sits beside it, inside the plot. */
  x: number;
  y: number;
  /** The box to the left of the point (a point in the right half of the plot). */
  left?: boolean;
  title?: string;
  name: string;
  value: string;
  color: string;
}) {
  return (
    <div
      className={classes.tooltip}
      style={{ left: x, top: y, transform: `translate(${left ? 'calc(-100% - 12px)' : '12px'}, -50%)` }}
      data-chart-tooltip
    >
      {title && <div className={classes.tooltipLabel}>{title}</div>}
      <div className={classes.tooltipBody} data-only={title ? undefined : ''}>
        <Group gap="sm" wrap="nowrap" miw={0}>
          <ColorSwatch color={color} size={12} withShadow={false} />
          <span>{name}</span>
        </Group>
        <span style={{ whiteSpace: 'nowrap' }}>{value}</span>
      </div>
    </div>
  );
}
