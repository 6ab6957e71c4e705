// The dashboard's charts with their code loaded apart from the page: recharts and @mantine/charts are
// about 95 KB (brotli) and 400 KB of script to run, which held back the whole page, its heading and
// figures included, until they had arrived. The page asks for them as it mounts (preloadCharts), beside
// its data, and each chart shows a chart-sized skeleton until its code is there.
import { Skeleton } from '@mantine/core';
import { lazy, Suspense, type ComponentProps } from 'react';
import { CHART_HEIGHT } from './ChartCard';
import type { DailyScansChart as DailyScansChartNow } from './DailyScansChart';
import type { SharePie as SharePieNow } from './SharePie';

const loadDaily = () => import('./DailyScansChart');
const loadPie = () => import('./SharePie');

/** Starts downloading the charts' code (a page that will draw them calls it as it mounts). */
export function preloadCharts(): void {
  void loadDaily();
  void loadPie();
}

const Daily = lazy(() => loadDaily().then((m) => ({ default: m.DailyScansChart })));
const Pie = lazy(() => loadPie().then((m) => ({ default: m.SharePie })));

const placeholder = <Skeleton h={CHART_HEIGHT} radius="md" />;

export function LazyDailyScansChart(props: ComponentProps<typeof DailyScansChartNow>) {
  return (
    <Suspense fallback={placeholder}>
      <Daily {...props} />
    </Suspense>
  );
}

export function LazySharePie(props: ComponentProps<typeof SharePieNow>) {
  return (
    <Suspense fallback={placeholder}>
      <Pie {...props} />
    </Suspense>
  );
}
