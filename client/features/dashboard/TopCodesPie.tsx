// The dashboard's top codes as a small SVG pie of our own (see WeekScansChart): the look and the
// figures of the analytics pages' SharePie without @mantine/charts.
import { useLingui } from '@lingui/react/macro';
import { Center, Stack, getThemeColor, useMantineTheme } from '@mantine/core';
import { useState } from 'react';
import { CHART_HEIGHT } from '../../components/ChartCard';
import { ChartFigure } from '../../components/ChartFigure';
import { formatPercent, scansLabel } from '../../lib/format';
import { ShareLegend, SingleShare, shareTable, type SharePieProps } from '../../components/ShareParts';
import { ChartTooltip } from './ChartTooltip';
import classes from './dashboard-charts.module.css';

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
export function TopCodesPie({ slices, label, caption, nameColumn, size = 240 }: SharePieProps) {
  const { t } = useLingui();
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
        <SingleShare slice={drawn[0]!} />
      ) : (
        <ChartFigure label={t`Pie chart: ${caption}`} table={shareTable(caption, nameColumn, slices, total)}>
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
      <ShareLegend slices={slices} total={total} label={label} />
    </Stack>
  );
}
