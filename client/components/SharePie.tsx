import '@mantine/charts/styles.css';
import { useLingui } from '@lingui/react/macro';
import { PieChart } from '@mantine/charts';
import { Center, Stack } from '@mantine/core';
import { formatPercent, scansLabel } from '../lib/format';
import { useChartAnimation } from './chart-motion';
import { CHART_HEIGHT } from './ChartCard';
import { ChartFigure } from './ChartFigure';
import { ShareLegend, SingleShare, shareTable, type SharePieProps, type ShareSlice } from './ShareParts';

export type { ShareSlice };

/**
 * A pie of shares with, unless `withLegend` is false, a legend listing every slice with its count and
 * percent (slices of 0 are listed but not drawn). With a single slice a pie is one solid disc that says
 * nothing: the figure itself is shown instead. A drawn pie is a named image with its slices one
 * "Show as table" away (name, scans, share).
 */
export function SharePie({
  slices,
  label,
  caption,
  nameColumn,
  withLegend = true,
  size = 240,
}: SharePieProps & { withLegend?: boolean }) {
  const { t } = useLingui();
  const animation = useChartAnimation();
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  const drawn = slices.filter((s) => s.value > 0);
  return (
    <Stack gap="md">
      {drawn.length === 1 ? (
        <SingleShare slice={drawn[0]!} />
      ) : (
        <ChartFigure label={t`Pie chart: ${caption}`} table={shareTable(caption, nameColumn, slices, total)}>
          <Center h={CHART_HEIGHT}>
            <PieChart
              data={drawn.map((s) => ({ key: s.key, name: s.name, value: s.value, color: s.color }))}
              size={size}
              withTooltip
              tooltipDataSource="segment"
              accessibilityLayer={false}
              pieProps={animation}
              // A single slice needs no seam.
              strokeWidth={drawn.length > 1 ? 1 : 0}
              valueFormatter={(v) => {
                const scans = scansLabel(v);
                const share = formatPercent(v, total);
                return t`${scans} (${share})`;
              }}
            />
          </Center>
        </ChartFigure>
      )}
      {withLegend && <ShareLegend slices={slices} total={total} label={label} />}
    </Stack>
  );
}
