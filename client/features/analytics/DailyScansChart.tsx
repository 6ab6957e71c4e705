import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import type { DailyCount } from '../../../src/analytics/analytics.schema';
import { longDateLabel, shortDateLabel, weekdayLabel } from './analytics-format';
import { CHART_HEIGHT } from './ChartCard';
import { ChartDataTable } from './ChartDataTable';
import { CHART_COLORS } from './chart-colors';

interface Row {
  date: string;
  label: string;
  Scans: number;
}

/**
 * Scans per local day. Up to a week the axis names the weekdays of the actual dates; longer periods
 * show month and day. The tooltip always gives the full date.
 */
export function DailyScansChart({ data, caption }: { data: DailyCount[]; caption: string }) {
  const weekly = data.length <= 7;
  const rows: Row[] = data.map((d) => ({
    date: d.date,
    label: weekly ? weekdayLabel(d.date) : shortDateLabel(d.date),
    Scans: d.count,
  }));
  return (
    <>
      <LineChart
        h={CHART_HEIGHT}
        data={rows}
        dataKey="label"
        series={[{ name: 'Scans', color: CHART_COLORS[0] }]}
        curveType="monotone"
        withDots={rows.length <= 31}
        tickLine="none"
        xAxisProps={{ interval: weekly ? 0 : 'preserveStartEnd', minTickGap: 8 }}
        yAxisProps={{ allowDecimals: false, width: 40 }}
        tooltipProps={{
          labelFormatter: (_label: unknown, payload: readonly { payload?: Row }[]) => {
            const date = payload[0]?.payload?.date;
            return date ? longDateLabel(date) : '';
          },
        }}
        data-chart="daily-scans"
      />
      <ChartDataTable
        caption={caption}
        columns={['Day', 'Scans']}
        rows={data.map((d) => [longDateLabel(d.date), d.count])}
      />
    </>
  );
}
