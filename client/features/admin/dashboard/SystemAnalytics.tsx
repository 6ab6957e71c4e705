import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
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

function DailyBars({ data, series }: { data: { date: string; count: number }[]; series: string }) {
  const animation = useChartAnimation();
  const caption = `${series} per day, last 30 days (UTC)`;
  return (
    <ChartFigure
      label={`Bar chart: ${caption}`}
      table={{ caption, columns: ['Day', series], rows: data.map((d) => [longDateLabel(d.date), d.count]) }}
    >
      <BarChart
        h={CHART_HEIGHT}
        data={data.map((d) => ({ date: d.date, label: shortDateLabel(d.date), [series]: d.count }))}
        dataKey="label"
        series={[{ name: series, color: CHART_COLORS[series === 'Sign-ups' ? 1 : 0] }]}
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
  const stats = trpc.admin.stats.useQuery(undefined, { refetchOnMount: 'always' });
  if (stats.isError)
    return <ErrorAlert>{apiError(stats.error, 'Failed to load the figures').message}</ErrorAlert>;
  const s = stats.data;
  const loading = !s;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
        <StatCard
          label="Users"
          icon={<IconUsers aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.users)}
        >
          {s && <Note>{`${formatCount(s.admins)} ${s.admins === 1 ? 'admin' : 'admins'}`}</Note>}
        </StatCard>
        <StatCard
          label="QR Codes"
          icon={<IconQrcode aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.qrCodes)}
        />
        <StatCard
          label="Scans today"
          icon={<IconScan aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.scansToday)}
        >
          <Note>UTC day, bots left out</Note>
        </StatCard>
        <StatCard
          label="Scans 7 days"
          icon={<IconChartBar aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.scans7Days)}
        />
        <StatCard
          label="Scans 30 days"
          icon={<IconChartBar aria-hidden size={20} />}
          loading={loading}
          value={s && formatCount(s.scans30Days)}
        />
        <StatCard
          label="Database size"
          icon={<IconDatabase aria-hidden size={20} />}
          loading={loading}
          value={s && formatBytes(s.databaseBytes)}
        >
          {s && <Note>{s.databaseKind === 'postgres' ? 'PostgreSQL' : 'SQLite'}</Note>}
        </StatCard>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard title="Sign-ups per day" loading={loading}>
          {s && <DailyBars data={s.signupsPerDay} series="Sign-ups" />}
        </ChartCard>
        <ChartCard title="Scans per day" loading={loading}>
          {s && <DailyBars data={s.scansPerDay} series="Scans" />}
        </ChartCard>
      </SimpleGrid>
      <ChartCard
        title="Top users by scans"
        loading={loading}
        empty={
          s && s.topUsers.length === 0 ? <Text c="dimmed">No scans in the last 30 days.</Text> : undefined
        }
      >
        {s && (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th ta="right">Scans (30 days)</Table.Th>
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
