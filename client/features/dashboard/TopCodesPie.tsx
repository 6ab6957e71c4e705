// The dashboard's top codes as a small SVG pie of our own (see WeekScansChart): the look and the
// figures of the analytics pages' SharePie without @mantine/charts.
import {
  Center,
  ColorSwatch,
  Group,
  Stack,
  Text,
  getThemeColor,
  useMantineTheme,
  type MantineColor,
} from '@mantine/core';
import { useState } from 'react';
import { CHART_HEIGHT } from '../../components/ChartCard';
import { ChartFigure } from '../../components/ChartFigure';
import { formatCount, formatPercent, scansLabel } from '../../lib/format';
import { ChartTooltip } from './ChartTooltip';
import classes from './dashboard-charts.module.css';

export interface Slice {
  key: string | number;
  name: string;
  value: number;
  color: MantineColor;
}

/** The path of a pie's slice from angle `a0` to `a1` (radians, clockwise from 12 o'clock). */
export function slicePath(cx: number, cy: number, r: number, a0: number, a1: number): string {
  const at = (a: number) => `${cx + r * Math.sin(a)},${cy - r * Math.cos(a)}`;
  // A whole turn is two half arcs: an arc's ends may not be the same point.
  if (a1 - a0 >= 2 * Math.PI - 1e-9)
    return `M${at(0)}A${r},${r} 0 1 1 ${at(Math.PI)}A${r},${r} 0 1 1 ${at(0)}Z`;
  return `M${cx},${cy}L${at(a0)}A${r},${r} 0 ${a1 - a0 > Math.PI ? 1 : 0} 1 ${at(a1)}Z`;
}

/**
 * A pie of the codes' shares of the scans with a legend listing every code with its count and percent
 * (codes of 0 are listed but not drawn). With a single code drawn a pie is one solid disc that says
 * nothing: the figure itself is shown instead. A drawn pie is a named image with its slices one
 * "Show as table" away (name, scans, share); a pointer over a slice shows its figures.
 */
export function TopCodesPie({
  slices,
  label,
  caption,
  nameColumn,
  size = 240,
}: {
  slices: Slice[];
  /** Accessible name of the legend list. */
  label: string;
  /** What the pie shares out: the image's name and the table's caption. */
  caption: string;
  /** The table's first column. */
  nameColumn: string;
  size?: number;
}) {
  const theme = useMantineTheme();
  const [active, setActive] = useState<{ i: number; x: number; y: number } | null>(null);
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  const drawn = slices.filter((s) => s.value > 0);
  const r = size / 2;
  const turn = (value: number) => (value / total) * 2 * Math.PI;
  const arcs = drawn.map((s, i) => {
    const a0 = turn(drawn.slice(0, i).reduce((sum, d) => sum + d.value, 0));
    return { ...s, a0, a1: a0 + turn(s.value), fill: getThemeColor(s.color, theme) };
  });
  const shown = active && arcs[active.i];
  return (
    <Stack gap="md">
      {drawn.length === 1 ? (
        <Center h={CHART_HEIGHT} data-single-share>
          <Stack gap={4} align="center" maw="100%">
            <Text fz={40} fw={700} lh={1.1}>
              {formatCount(drawn[0]!.value)}
            </Text>
            <Text size="sm" c="dimmed" ta="center" style={{ wordBreak: 'break-word' }}>
              {drawn[0]!.value === 1 ? 'scan' : 'scans'}: {drawn[0]!.name}, 100%
            </Text>
          </Stack>
        </Center>
      ) : (
        <ChartFigure
          label={`Pie chart: ${caption}`}
          table={{
            caption,
            columns: [nameColumn, 'Scans', 'Share'],
            rows: slices.map((s) => [s.name, s.value, formatPercent(s.value, total)]),
          }}
        >
          <Center h={CHART_HEIGHT}>
            <div className={classes.plot} style={{ width: size, height: size }}>
              <svg width={size} height={size} onPointerLeave={() => setActive(null)}>
                {arcs.map((a, i) => (
                  <path
                    key={a.key}
                    className={classes.sector}
                    d={slicePath(r, r, r - 1, a.a0, a.a1)}
                    fill={a.fill}
                    strokeWidth={1}
                    opacity={active && active.i !== i ? 0.85 : 1}
                    onPointerMove={(e) => {
                      const box = e.currentTarget.ownerSVGElement!.getBoundingClientRect();
                      setActive({ i, x: e.clientX - box.left, y: e.clientY - box.top });
                    }}
                    data-chart-sector
                  />
                ))}
              </svg>
              {shown && (
                <ChartTooltip
                  x={active.x}
                  y={active.y}
                  left={active.x > r}
                  name={shown.name}
                  value={`${scansLabel(shown.value)} (${formatPercent(shown.value, total)})`}
                  color={shown.fill}
                />
              )}
            </div>
          </Center>
        </ChartFigure>
      )}
      <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
        {slices.map((s) => (
          <Group component="li" key={s.key} justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="xs" wrap="nowrap" miw={0}>
              <ColorSwatch color={getThemeColor(s.color, theme)} size={12} withShadow={false} aria-hidden />
              <Text size="sm" lineClamp={2} title={s.name} style={{ wordBreak: 'break-word' }}>
                {s.name}
              </Text>
            </Group>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {scansLabel(s.value)} · {formatPercent(s.value, total)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
