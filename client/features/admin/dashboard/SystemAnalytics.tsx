import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconChartBar, IconDatabase, IconQrcode, IconScan, IconUsers } from '@tabler/icons-react';
import { CHART_HEIGHT, ChartCard } from '../../../components/ChartCard';
import { CHART_COLORS } from '../../../components/chart-colors';
import { ChartFigure } from '../../../components/ChartFigure';
import { useChartAnimation } from '../../../components/chart-motion';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { StatCard } from '../../../components/StatCard';
import { formatBytes, formatCount, longDateLabel, shortDateLabel } from '../../../lib/format';
import { apiError, trpc } from '../../../lib/trpc';

/**
 * A bar per day. `series` names the bars (the tooltip's and the table's word), `caption` says what the
 * chart shows, `color` picks its colour from CHART_COLORS.
 */
function DailyBars({
  data,
  series,
  caption,
  color,
}: {
  data: { date: string; count: number }[];
  series: string;
  caption: string;
  color: number;
}) {
  const { t } = useLingui();
  const animation = useChartAnimation();
  return (
    <ChartFigure
      label={t`Bar chart: ${caption}`}
      table={{
        caption,
        columns: [t`Day`, series],
        rows: data.map((d) => [longDateLabel(d.date), d.count]),
      }}
    >
      <BarChart
        h={CHART_HEIGHT}
        data={data.map((d) => ({ date: d.date, label: shortDateLabel(d.date), [series]: d.count }))}
        dataKey="label"
        series={[{ name: series, color: CHART_COLORS[color] }]}
        accessibilityLayer={false}
        barProps={animation}
        tickLine="none"
        xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 8 }}
        yAxisProps={{ allowDecimals: false, width: 40 }}
        tooltipProps={{
          labelFormatter: (_label: unknown, payload: readonly { payload?: { date?: string } }[]) => {
            const date = payload[0]?.payload?.date;
            return date ? `${longDateLabel(date)} (UTC)` : '';
          },
        }}
      />
    </ChartFigure>
  );
}

/** A small line under a figure. */
function Note({ children }: { children: React.ReactNode }) {
  return (
    <Text size="xs" c="dimmed">
      {children}
    </Text>
  );
}

/** The instance at a glance: people, codes, scans (UTC days, bots left out), growth and size. */
export function SystemAnalytics() {
  const { t } = useLingui();
  const stats = trpc.admin.stats.useQuery(undefined, { refetchOnMount: 'always' });
  if (stats.isError)
    return <ErrorAlert>{apiError(stats.error, t`Failed to load the figures`).message}</ErrorAlert>;
  const s = stats.data;
  const loading = !s;
  const admins = s?.admins ?? 0;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
        <StatCard
          label={t`Users`}
          icon={<IconUsers aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.users)}
        >
          {s && <Note>{plural(admins, { one: '# admin', other: '# admins' })}</Note>}
        </StatCard>
        <StatCard
          label={t`QR Codes`}
          icon={<IconQrcode aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.qrCodes)}
        />
        <StatCard
          label={t`Scans today`}
          icon={<IconScan aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.scansToday)}
        >
          <Note>
            <Trans>UTC day, bots left out</Trans>
          </Note>
        </StatCard>
        <StatCard
          label={t`Scans 7 days`}
          icon={<IconChartBar aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.scans7Days)}
        />
        <StatCard
          label={t`Scans 30 days`}
          icon={<IconChartBar aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.scans30Days)}
        />
        <StatCard
          label={t`Database size`}
          icon={<IconDatabase aria-hidden size={20} />}
          loading={loading}
          value={s && formatBytes(s.databaseBytes)}
        >
          {s && <Note>{s.databaseKind === 'postgres' ? 'PostgreSQL' : 'SQLite'}</Note>}
        </StatCard>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard title={t`Sign-ups per day`} loading={loading}>
          {s && (
            <DailyBars
              data={s.signupsPerDay}
              series={t`Sign-ups`}
              caption={t`Sign-ups per day, last 30 days (UTC)`}
              color={1}
            />
          )}
        </ChartCard>
        <ChartCard title={t`Scans per day`} loading={loading}>
          {s && (
            <DailyBars
              data={s.scansPerDay}
              series={t`Scans`}
              caption={t`Scans per day, last 30 days (UTC)`}
              color={0}
            />
          )}
        </ChartCard>
      </SimpleGrid>
      <ChartCard
        title={t`Top users by scans`}
        loading={loading}
        empty={
          s && s.topUsers.length === 0 ? (
            <Text c="dimmed">
              <Trans>No scans in the last 30 days.</Trans>
            </Text>
          ) : undefined
        }
      >
        {s && (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>User</Trans>
                </Table.Th>
                <Table.Th ta="right">
                  <Trans>Scans (30 days)</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {s.topUsers.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{u.username}</Table.Td>
                  <Table.Td ta="right">{formatCount(u.scans)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ChartCard>
    </Stack>
  );
}
