// The dashboard's scans per day as a small SVG line chart of our own: @mantine/charts and recharts
// (about 100 KB brotli) stay with the analytics pages, and the dashboard's first screen draws at once.
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { getThemeColor, useMantineTheme, type MantineColor } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useState } from 'react';
import type { DailyCount } from '../../../src/analytics/analytics.schema';
import { CHART_HEIGHT } from '../../components/ChartCard';
import { ChartFigure } from '../../components/ChartFigure';
import { formatCount, localIsoDate, longDateLabel, shortDateLabel, weekdayLabel } from '../../lib/format';
import { ChartTooltip } from './ChartTooltip';
import classes from './dashboard-charts.module.css';

/** Marks today's point: the day is not over, so its smaller count is not a fall. */
const TODAY_MARK = msg`Today (so far)`;
const PAD = { top: 20, right: 20, bottom: 30, left: 48 };

/** Up to five round steps from 0 to at least `max` (whole numbers: scans). */
export function yTicks(max: number): number[] {
  const raw = Math.max(1, max) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw);
  const whole = Number.isInteger(step) ? step : Math.ceil(step);
  const top = Math.ceil(Math.max(1, max) / whole) * whole;
  return Array.from({ length: top / whole + 1 }, (_, i) => i * whole);
}

/** A smooth line through the points that never overshoots them (d3's monotone X curve), as a path. */
export function monotonePath(points: [number, number][]): string {
  const n = points.length;
  if (n === 0) return '';
  const [x0, y0] = points[0]!;
  if (n < 3)
    return (
      `M${x0},${y0}` +
      points
        .slice(1)
        .map(([x, y]) => `L${x},${y}`)
        .join('')
    );
  const slope = (i: number) => (points[i + 1]![1] - points[i]![1]) / (points[i + 1]![0] - points[i]![0]);
  const m = points.map((_, i) => {
    if (i === 0 || i === n - 1) return 0;
    const [h0, h1] = [points[i]![0] - points[i - 1]![0], points[i + 1]![0] - points[i]![0]];
    const [s0, s1] = [slope(i - 1), slope(i)];
    const p = (s0 * h1 + s1 * h0) / (h0 + h1);
    return (Math.sign(s0) + Math.sign(s1)) * Math.min(Math.abs(s0), Math.abs(s1), 0.5 * Math.abs(p)) || 0;
  });
  m[0] = (3 * slope(0) - m[1]!) / 2;
  m[n - 1] = (3 * slope(n - 2) - m[n - 2]!) / 2;
  let d = `M${x0},${y0}`;
  for (let i = 0; i < n - 1; i++) {
    const [[xa, ya], [xb, yb]] = [points[i]!, points[i + 1]!];
    const dx = (xb - xa) / 3;
    d += `C${xa + dx},${ya + dx * m[i]!},${xb - dx},${yb - dx * m[i + 1]!},${xb},${yb}`;
  }
  return d;
}

/**
 * Scans per local day, one dot a day, the weekdays of the actual dates on the axis (month and day past a
 * week). Today's point, when the series ends today, is marked as partial ('Today (so far)', in the
 * tooltip and the table too), so its smaller count never reads as an outage. A pointer over the chart
 * shows the day's figure; the table holds them all.
 */
export function WeekScansChart({
  data,
  caption,
  color = 'blue.6',
}: {
  data: DailyCount[];
  caption: string;
  color?: MantineColor;
}) {
  const { t } = useLingui();
  const theme = useMantineTheme();
  const { ref, width } = useElementSize<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);
  const today = localIsoDate(new Date());
  const weekly = data.length <= 7;
  const dayName = (date: string) => {
    const day = longDateLabel(date);
    return date === today ? t`${day} (today, so far)` : day;
  };
  const stroke = getThemeColor(color, theme);

  const ticks = yTicks(Math.max(0, ...data.map((d) => d.count)));
  const top = ticks.at(-1)!;
  const plotW = Math.max(0, width - PAD.left - PAD.right);
  const plotH = CHART_HEIGHT - PAD.top - PAD.bottom;
  const step = data.length > 1 ? plotW / (data.length - 1) : 0;
  const xAt = (i: number) => PAD.left + (data.length > 1 ? i * step : plotW / 2);
  const yAt = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const points = data.map((d, i): [number, number] => [xAt(i), yAt(d.count)]);
  // Every day's name up to a week; past it, as many as fit.
  const every = weekly ? 1 : Math.max(1, Math.ceil(data.length / Math.max(1, Math.floor(plotW / 56))));
  const endsToday = data.at(-1)?.date === today;

  const pick = (e: React.PointerEvent<SVGSVGElement>) => {
    if (!data.length) return;
    const x = e.clientX - e.currentTarget.getBoundingClientRect().left;
    const i = step ? Math.round((x - PAD.left) / step) : 0;
    setActive(Math.min(data.length - 1, Math.max(0, i)));
  };
  const shown = active === null ? null : data[active];

  return (
    <ChartFigure
      label={t`Line chart: ${caption}`}
      table={{
        caption,
        columns: [t`Day`, t`Scans`],
        rows: data.map((d) => [dayName(d.date), d.count]),
      }}
    >
      <div ref={ref} className={classes.plot} style={{ height: CHART_HEIGHT }}>
        {width > 0 && (
          <svg
            width={width}
            height={CHART_HEIGHT}
            onPointerMove={pick}
            onPointerDown={pick}
            onPointerLeave={() => setActive(null)}
            data-chart="daily-scans"
          >
            {ticks.map((t) => (
              <g key={t}>
                <line
                  className={classes.grid}
                  x1={PAD.left}
                  x2={PAD.left + plotW}
                  y1={yAt(t)}
                  y2={yAt(t)}
                  strokeDasharray="5 5"
                />
                <text className={classes.tick} x={PAD.left - 8} y={yAt(t)} textAnchor="end" dy="0.32em">
                  {formatCount(t)}
                </text>
              </g>
            ))}
            {data.map((d, i) =>
              i % every === 0 || i === data.length - 1 ? (
                <text
                  key={d.date}
                  className={classes.tick}
                  x={xAt(i)}
                  y={CHART_HEIGHT - PAD.bottom + 18}
                  textAnchor={
                    weekly ? 'middle' : i === 0 ? 'start' : i === data.length - 1 ? 'end' : 'middle'
                  }
                  data-x-tick
                >
                  {weekly ? weekdayLabel(d.date) : shortDateLabel(d.date)}
                </text>
              ) : null,
            )}
            {endsToday && (
              <g>
                <line
                  x1={xAt(data.length - 1)}
                  x2={xAt(data.length - 1)}
                  y1={PAD.top}
                  y2={PAD.top + plotH}
                  stroke={getThemeColor('gray.7', theme)}
                />
                <text
                  x={xAt(data.length - 1) - 6}
                  y={PAD.top + 14}
                  textAnchor="end"
                  fill={getThemeColor('gray.7', theme)}
                  fontSize={12}
                >
                  {t(TODAY_MARK)}
                </text>
              </g>
            )}
            {shown && (
              <line
                className={classes.grid}
                x1={xAt(active!)}
                x2={xAt(active!)}
                y1={PAD.top}
                y2={PAD.top + plotH}
              />
            )}
            <path d={monotonePath(points)} fill="none" stroke={stroke} strokeWidth={2} />
            {data.length <= 31 &&
              points.map(([x, y], i) => (
                <circle
                  key={data[i]!.date}
                  className={classes.dot}
                  cx={x}
                  cy={y}
                  r={i === active ? 6 : 4}
                  fill={stroke}
                  strokeWidth={i === active ? 2 : 1}
                  data-chart-dot
                />
              ))}
          </svg>
        )}
        {shown && (
          <ChartTooltip
            x={xAt(active!)}
            y={yAt(shown.count)}
            left={xAt(active!) > width / 2}
            title={dayName(shown.date)}
            name={t`Scans`}
            value={formatCount(shown.count)}
            color={stroke}
          />
        )}
      </div>
    </ChartFigure>
  );
}
