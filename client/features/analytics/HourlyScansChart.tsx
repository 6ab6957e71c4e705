import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { useLingui } from '@lingui/react/macro';
import { useMatches } from '@mantine/core';
import type { HourlyCount } from '../../../src/analytics/analytics.schema';
import { CHART_COLORS } from '../../components/chart-colors';
import { useChartAnimation } from '../../components/chart-motion';
import { CHART_HEIGHT } from '../../components/ChartCard';
import { ChartFigure } from '../../components/ChartFigure';
import { hourLabel } from '../../lib/format';

/** Scans per hour of the day, 12 AM to 11 PM; every bar has a tooltip, the axis labels thin out on small screens. */
export function HourlyScansChart({ data }: { data: HourlyCount[] }) {
  // Every 6 hours on a phone, every 3 on a tablet, every 2 on a desktop: evenly spaced, never crowded.
  const { t } = useLingui();
  const interval = useMatches({ base: 5, sm: 2, lg: 1 });
  const hours = data.map((h) => ({ hour: hourLabel(h.hour), Scans: h.count }));
  const animation = useChartAnimation();
  const caption = t`Scans by hour of the day`;
  return (
    <ChartFigure
      label={t`Bar chart: ${caption}`}
      table={{ caption, columns: [t`Hour`, t`Scans`], rows: hours.map((h) => [h.hour, h.Scans]) }}
    >
      <BarChart
        h={CHART_HEIGHT}
        data={hours}
        dataKey="hour"
        series={[{ name: 'Scans', label: t`Scans`, color: CHART_COLORS[1] }]}
        tickLine="none"
        accessibilityLayer={false}
        barProps={animation}
        yAxisProps={{ allowDecimals: false, width: 40 }}
        xAxisProps={{ interval }}
        data-chart="hourly"
      />
    </ChartFigure>
  );
}
