import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { translateShared } from '../../i18n/shared-messages';
import { formatPercent, percentOf, scansLabel, viewerTimeZone } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { useCanEdit } from '../workspaces/use-current-workspace';
import { NOT_TRACKED_MSG, NOT_TRACKED_REASON_MSG, useStaticCodeIds } from '../qr/use-static-codes';

/** Axis labels stay short; the tooltip and the cards carry the full name. */
const shortName = (name: string) => (name.length > 16 ? `${name.slice(0, 15)}…` : name);

export function ByQrCodeTab({ days, excludeBots }: { days: number; excludeBots: boolean }) {
  const { t } = useLingui();
  const performance = trpc.analytics.performance.useQuery(
    { days, tz: viewerTimeZone(), excludeBots },
    { placeholderData: keepPreviousData },
  );
  const staticIds = useStaticCodeIds();
  const animation = useChartAnimation();
  const canEdit = useCanEdit();

  if (performance.isError)
    return (
      <ErrorAlert>
        <Trans>Error loading analytics data. Please try again later.</Trans>
      </ErrorAlert>
    );

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
              <Text>
                <Trans>You don&apos;t have any QR codes yet. Create a QR code to see analytics.</Trans>
              </Text>
              <Button component={Link} to="/create" leftSection={<IconPlus size={18} aria-hidden />}>
                <Trans>Create New QR Code</Trans>
              </Button>
            </>
          ) : (
            <>
              <Text>
                <Trans>No QR codes yet.</Trans>
              </Text>
              <Text size="sm" c="dimmed">
                <Trans>The codes its editors create, and their scans, will show here.</Trans>
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
  const caption = t`Scans per QR code, last ${plural(days, { one: '# day', other: '# days' })}`;

  return (
    <Stack
      gap="md"
      style={{ opacity: performance.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
      aria-busy={performance.isPlaceholderData}
    >
      <ChartCard
        title={t`Scans per QR Code (Last ${plural(days, { one: '# Day', other: '# Days' })})`}
        empty={
          tracked.length === 0 ? (
            <Text c="dimmed" ta="center" maw={420}>
              {t(NOT_TRACKED_REASON_MSG)} <Trans>Create a dynamic code to follow its scans.</Trans>
            </Text>
          ) : null
        }
      >
        <ChartFigure
          label={t`Bar chart: ${caption}`}
          table={{
            caption,
            columns: [t`QR code`, t`Scans`],
            rows: tracked.map((r) => [r.name, r.count]),
          }}
        >
          <BarChart
            h={CHART_HEIGHT}
            data={bars}
            dataKey="name"
            series={[{ name: 'Scans', label: t`Scans`, color: CHART_COLORS[0] }]}
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
        {tracked.map((r) => {
          const name = r.name;
          const percent = formatPercent(r.count, total);
          return (
            <Card
              key={r.qrCodeId}
              withBorder
              padding="lg"
              radius="md"
              component="article"
              aria-label={r.name}
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
                <Badge variant="light" style={{ flexShrink: 0 }}>
                  {qrTypeLabels[r.type] ? translateShared(qrTypeLabels[r.type]) : r.type.toUpperCase()}
                </Badge>
              </Group>
              <Group justify="space-between" mt="md" gap="xs" wrap="nowrap">
                <Text fw={700} size="lg" data-scans>
                  {scansLabel(r.count)}
                </Text>
                <Text size="sm" c="dimmed" data-percent>
                  <Trans>{percent} of total</Trans>
                </Text>
              </Group>
              <Progress
                mt="xs"
                value={percentOf(r.count, total)}
                size="sm"
                aria-label={t`${name}: ${percent} of all scans`}
              />
            </Card>
          );
        })}
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
                {qrTypeLabels[r.type] ? translateShared(qrTypeLabels[r.type]) : r.type.toUpperCase()}
              </Badge>
            </Group>
            <Text fw={700} size="lg" mt="md" data-scans>
              {t(NOT_TRACKED_MSG)}
            </Text>
            <Text size="xs" c="dimmed" mt={4}>
              {t(NOT_TRACKED_REASON_MSG)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
