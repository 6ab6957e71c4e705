import '@mantine/charts/styles.css';
import { PieChart } from '@mantine/charts';
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
import { formatCount, formatPercent, scansLabel } from '../lib/format';
import { useChartAnimation } from './chart-motion';
import { CHART_HEIGHT } from './ChartCard';
import { ChartFigure } from './ChartFigure';

export interface ShareSlice {
  key: string | number;
  name: string;
  value: number;
  color: MantineColor;
}

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
}: {
  slices: ShareSlice[];
  /** Accessible name of the legend list. */
  label: string;
  /** What the pie shares out ('Scans per QR code, all time'): the image's name and the table's caption. */
  caption: string;
  /** The table's first column: what a slice is ('QR code', 'Device'…). */
  nameColumn: string;
  withLegend?: boolean;
  size?: number;
}) {
  const theme = useMantineTheme();
  const animation = useChartAnimation();
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  const drawn = slices.filter((s) => s.value > 0);
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
            <PieChart
              data={drawn.map((s) => ({ key: s.key, name: s.name, value: s.value, color: s.color }))}
              size={size}
              withTooltip
              tooltipDataSource="segment"
              accessibilityLayer={false}
              pieProps={animation}
              // A single slice needs no seam.
              strokeWidth={drawn.length > 1 ? 1 : 0}
              valueFormatter={(v) => `${scansLabel(v)} (${formatPercent(v, total)})`}
            />
          </Center>
        </ChartFigure>
      )}
      {withLegend && (
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
      )}
    </Stack>
  );
}
