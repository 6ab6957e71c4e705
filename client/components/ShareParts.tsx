// What a pie of shares shows besides its slices, shared by the analytics pages' SharePie (@mantine/charts)
// and the dashboard's own SVG pie (features/dashboard/TopCodesPie): no chart library here, so the
// dashboard does not load one with it.
import { t } from '@lingui/core/macro';
import { Plural } from '@lingui/react/macro';
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
import { CHART_HEIGHT } from './ChartCard';

export interface ShareSlice {
  key: string | number;
  name: string;
  value: number;
  color: MantineColor;
}

/** What either pie is given. */
export interface SharePieProps {
  slices: ShareSlice[];
  /** Accessible name of the legend list. */
  label: string;
  /** What the pie shares out ('Scans per QR code, all time'): the image's name and the table's caption. */
  caption: string;
  /** The table's first column: what a slice is ('QR code', 'Device'…). */
  nameColumn: string;
  size?: number;
}

/** With a single slice drawn a pie is one solid disc that says nothing: the figure itself instead. */
export function SingleShare({ slice }: { slice: ShareSlice }) {
  const scans = slice.value;
  const name = slice.name;
  const share = formatPercent(1, 1);
  return (
    <Center h={CHART_HEIGHT} data-single-share>
      <Stack gap={4} align="center" maw="100%">
        <Text fz={40} fw={700} lh={1.1}>
          {formatCount(slice.value)}
        </Text>
        <Text size="sm" c="dimmed" ta="center" style={{ wordBreak: 'break-word' }}>
          <Plural value={scans} one={`scan: ${name}, ${share}`} other={`scans: ${name}, ${share}`} />
        </Text>
      </Stack>
    </Center>
  );
}

/** The slices one "Show as table" away (ChartFigure's `table`): name, scans, share. */
export function shareTable(caption: string, nameColumn: string, slices: ShareSlice[], total: number) {
  return {
    caption,
    columns: [nameColumn, t`Scans`, t({ message: 'Share', context: 'the share of all scans, in percent' })],
    rows: slices.map((s) => [s.name, s.value, formatPercent(s.value, total)]),
  };
}

/** Every slice with its count and percent, those of 0 included (they are not drawn). */
export function ShareLegend({
  slices,
  total,
  label,
}: {
  slices: ShareSlice[];
  total: number;
  label: string;
}) {
  const theme = useMantineTheme();
  return (
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
  );
}
