import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { qrTypeLabels } from '../../../src/qr/qr-types';
import { CHART_COLORS } from '../../components/chart-colors';
import { useChartAnimation } from '../../components/chart-motion';
import { CHART_HEIGHT, ChartCard } from '../../components/ChartCard';
import { ChartFigure } from '../../components/ChartFigure';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatPercent, percentOf, scansLabel, viewerTimeZone } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { useCanEdit } from '../workspaces/use-current-workspace';
import { NOT_TRACKED, NOT_TRACKED_REASON, useStaticCodeIds } from '../qr/use-static-codes';

/** Axis labels stay short; the tooltip and the cards carry the full name. */
const shortName = (name: string) => (name.length > 16 ? `${name.slice(0, 15)}…` : name);

export function ByQrCodeTab({ days, excludeBots }: { days: number; excludeBots: boolean }) {
  const performance = trpc.analytics.performance.useQuery(
    { days, tz: viewerTimeZone(), excludeBots },
    { placeholderData: keepPreviousData },
  );
  const staticIds = useStaticCodeIds();
  const animation = useChartAnimation();
  const canEdit = useCanEdit();

  if (performance.isError)
    return <ErrorAlert>Error loading analytics data. Please try again later.</ErrorAlert>;

  const rows = performance.data;
  if (!rows || !staticIds)
    return (
      <Stack gap="md" aria-busy="true">
        <Skeleton h={CHART_HEIGHT + 70} radius="md" />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={130} radius="md" />
          ))}
        </SimpleGrid>
      </Stack>
    );

  if (rows.length === 0)
    return (
      <Card withBorder padding="xl" radius="md">
        <Stack align="center" gap="sm" ta="center">
          {canEdit ? (
            <>
              <Text>You don&apos;t have any QR codes yet. Create a QR code to see analytics.</Text>
              <Button component={Link} to="/create" leftSection={<IconPlus size={18} aria-hidden />}>
                Create New QR Code
              </Button>
            </>
          ) : (
            <>
              <Text>No QR codes yet.</Text>
              <Text size="sm" c="dimmed">
                The codes its editors create, and their scans, will show here.
              </Text>
            </>
          )}
        </Stack>
      </Card>
    );

  // Static codes are not tracked: no bar, no share, and their card says so.
  const tracked = rows.filter((r) => !staticIds.has(r.qrCodeId));
  const untracked = rows.filter((r) => staticIds.has(r.qrCodeId));
  const total = tracked.reduce((sum, r) => sum + r.count, 0);
  const bars = tracked.map((r) => ({ id: r.qrCodeId, name: r.name, Scans: r.count }));

  return (
    <Stack
      gap="md"
      style={{ opacity: performance.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
      aria-busy={performance.isPlaceholderData}
    >
      <ChartCard
        title={`Scans per QR Code (Last ${days} Days)`}
        empty={
          tracked.length === 0 ? (
            <Text c="dimmed" ta="center" maw={420}>
              {NOT_TRACKED_REASON} Create a dynamic code to follow its scans.
            </Text>
          ) : null
        }
      >
        <ChartFigure
          label={`Bar chart: Scans per QR code, last ${days} days`}
          table={{
            caption: `Scans per QR code, last ${days} days`,
            columns: ['QR code', 'Scans'],
            rows: tracked.map((r) => [r.name, r.count]),
          }}
        >
          <BarChart
            h={CHART_HEIGHT}
            data={bars}
            dataKey="name"
            series={[{ name: 'Scans', color: CHART_COLORS[0] }]}
            tickLine="none"
            accessibilityLayer={false}
            barProps={animation}
            yAxisProps={{ allowDecimals: false, width: 40 }}
            xAxisProps={{ tickFormatter: (v: string) => shortName(v), minTickGap: 4 }}
            data-chart="per-code"
          />
        </ChartFigure>
      </ChartCard>

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {tracked.map((r) => (
          <Card key={r.qrCodeId} withBorder padding="lg" radius="md" component="article" aria-label={r.name}>
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
              <Anchor
                component={Link}
                to={`/qr-details/${r.qrCodeId}`}
                fw={700}
                c="inherit"
                lineClamp={2}
                style={{ wordBreak: 'break-word' }}
              >
                {r.name}
              </Anchor>
              <Badge variant="light" style={{ flexShrink: 0 }}>
                {qrTypeLabels[r.type] ?? r.type.toUpperCase()}
              </Badge>
            </Group>
            <Group justify="space-between" mt="md" gap="xs" wrap="nowrap">
              <Text fw={700} size="lg" data-scans>
                {scansLabel(r.count)}
              </Text>
              <Text size="sm" c="dimmed" data-percent>
                {formatPercent(r.count, total)} of total
              </Text>
            </Group>
            <Progress
              mt="xs"
              value={percentOf(r.count, total)}
              size="sm"
              aria-label={`${r.name}: ${formatPercent(r.count, total)} of all scans`}
            />
          </Card>
        ))}
        {untracked.map((r) => (
          <Card
            key={r.qrCodeId}
            withBorder
            padding="lg"
            radius="md"
            component="article"
            aria-label={r.name}
            data-static
          >
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
              <Anchor
                component={Link}
                to={`/qr-details/${r.qrCodeId}`}
                fw={700}
                c="inherit"
                lineClamp={2}
                style={{ wordBreak: 'break-word' }}
              >
                {r.name}
              </Anchor>
              <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                {qrTypeLabels[r.type] ?? r.type.toUpperCase()}
              </Badge>
            </Group>
            <Text fw={700} size="lg" mt="md" data-scans>
              {NOT_TRACKED}
            </Text>
            <Text size="xs" c="dimmed" mt={4}>
              {NOT_TRACKED_REASON}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
