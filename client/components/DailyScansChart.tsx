import '@mantine/charts/styles.css';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { LineChart } from '@mantine/charts';
import type { DailyCount } from '../../src/analytics/analytics.schema';
import { formatCount, localIsoDate, longDateLabel, shortDateLabel, weekdayLabel } from '../lib/format';
import { CHART_COLORS } from './chart-colors';
import { useChartAnimation } from './chart-motion';
import { CHART_HEIGHT } from './ChartCard';
import { ChartFigure } from './ChartFigure';

interface Row {
  date: string;
  label: string;
  Scans: number;
  /** Null where the day's scans were counted before unique scanners were: a gap in the line. */
  'Unique scanners'?: number | null;
}

/** The second series' key in the rows (its label on screen is translated). */
const UNIQUES = 'Unique scanners';
/** A day whose unique scanners were not counted (its scans came before they were). */
export const NOT_COUNTED = '—';

/** Marks today's point: the day is not over, so its smaller count is not a fall. */
export const TODAY_MARK = msg`Today (so far)`;

/**
 * Scans per local day. Up to a week the axis names the weekdays of the actual dates; longer periods
 * show month and day. The tooltip always gives the full date. Today's point, when the series ends today,
 * is marked as partial (a line labelled 'Today (so far)', and so in the tooltip and the table), so its
 * smaller count never reads as an outage. `withUniques` adds a dashed second line, unique scanners per day,
 * with its column in the table; a day whose scans were counted before unique scanners were is a gap in the
 * line and '—' in the table.
 */
export function DailyScansChart({
  data,
  caption,
  withUniques = false,
}: {
  data: DailyCount[];
  caption: string;
  /** A second line, unique scanners per day (daily-unique), and their column in the table. */
  withUniques?: boolean;
}) {
  const { t } = useLingui();
  const weekly = data.length <= 7;
  const today = localIsoDate(new Date());
  const rows: Row[] = data.map((d) => ({
    date: d.date,
    label: weekly ? weekdayLabel(d.date) : shortDateLabel(d.date),
    Scans: d.count,
    ...(withUniques ? { [UNIQUES]: d.uniqueScanners } : {}),
  }));
  const last = rows.at(-1);
  const endsToday = last?.date === today;
  const animation = useChartAnimation();
  const dayName = (date: string) => {
    const day = longDateLabel(date);
    return date === today ? t`${day} (today, so far)` : day;
  };
  const scans = t`Scans`;
  const uniques = t`Unique scanners`;
  return (
    <ChartFigure
      label={t`Line chart: ${caption}`}
      table={{
        caption,
        columns: withUniques ? [t`Day`, scans, uniques] : [t`Day`, scans],
        rows: data.map((d) =>
          withUniques
            ? [dayName(d.date), d.count, d.uniqueScanners ?? NOT_COUNTED]
            : [dayName(d.date), d.count],
        ),
      }}
    >
      <LineChart
        h={CHART_HEIGHT}
        data={rows}
        dataKey="label"
        series={[
          { name: 'Scans', label: scans, color: CHART_COLORS[0] },
          ...(withUniques
            ? [{ name: UNIQUES, label: uniques, color: CHART_COLORS[1], strokeDasharray: '6 4' }]
            : []),
        ]}
        withLegend={withUniques}
        connectNulls={false}
        valueFormatter={(value: number | null) => (value === null ? NOT_COUNTED : formatCount(value))}
        curveType="monotone"
        accessibilityLayer={false}
        lineProps={animation}
        withDots={rows.length <= 31}
        tickLine="none"
        xAxisProps={{ interval: weekly ? 0 : 'preserveStartEnd', minTickGap: 8 }}
        yAxisProps={{ allowDecimals: false, width: 40 }}
        referenceLines={
          endsToday
            ? [{ x: last.label, color: 'gray.7', label: t(TODAY_MARK), labelPosition: 'insideTopRight' }]
            : []
        }
        tooltipProps={{
          labelFormatter: (_label: unknown, payload: readonly { payload?: Row }[]) => {
            const date = payload[0]?.payload?.date;
            return date ? dayName(date) : '';
          },
        }}
        data-chart="daily-scans"
      />
    </ChartFigure>
  );
}
