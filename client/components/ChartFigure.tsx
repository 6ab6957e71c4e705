import { Box } from '@mantine/core';
import { ChartDataTable, type ChartTableData } from './ChartDataTable';

/**
 * A chart drawing as one named image, followed by its numbers as a table. Charts inside must not be
 * focusable (recharts' `accessibilityLayer={false}`): an image's content is presentational, so a tab
 * stop in it would lead nowhere a screen reader can describe.
 */
export function ChartFigure({
  label,
  table,
  children,
}: {
  /** The image's accessible name: what is drawn ('Line chart: scans per day, last 7 days'). */
  label: string;
  table: ChartTableData;
  children: React.ReactNode;
}) {
  return (
    <>
      <Box role="img" aria-label={label} data-chart-figure>
        {children}
      </Box>
      <ChartDataTable {...table} />
    </>
  );
}
