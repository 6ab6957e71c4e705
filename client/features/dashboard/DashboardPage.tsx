import {
  Button,
  Card,
  Grid,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconActivity, IconChartBar, IconList, IconPlus, IconQrcode, IconScan } from '@tabler/icons-react';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { CHART_COLORS, colorAt } from '../../components/chart-colors';
import { ChartCard } from '../../components/ChartCard';
import { NoCodesState, NoScansState } from '../../components/EmptyStates';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StatCard } from '../../components/StatCard';
import { exactTime, formatCount, relativeTime, scansLabel, viewerTimeZone } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';
import { NOT_TRACKED_REASON_MSG, useStaticCodeIds } from '../qr/use-static-codes';
import { useCanEdit } from '../workspaces/use-current-workspace';
import { DestinationAlerts } from './DestinationAlerts';
import { TopCodesPie } from './TopCodesPie';
import { WeekScansChart } from './WeekScansChart';

/** The dashboard pie shows at most five codes. */
const TOP_CODES = 5;

const quickActions = [
  {
    // Editor and up: a viewer of the workspace is not offered it.
    editorOnly: true,
    to: '/create',
    title: msg`Create QR`,
    description: msg`Design a new static or dynamic code.`,
    icon: IconPlus,
    color: 'blue',
  },
  {
    editorOnly: false,
    to: '/my-qr-codes',
    title: msg`My QR Codes`,
    description: msg`Download, share, edit and organise your codes.`,
    icon: IconList,
    color: 'teal',
  },
  {
    editorOnly: false,
    to: '/analytics',
    title: msg`Analytics`,
    description: msg`Trends, devices, locations and reports.`,
    icon: IconChartBar,
    color: 'violet',
  },
] as const;

export function DashboardPage() {
  const { t } = useLingui();
  const tz = viewerTimeZone();
  const summary = trpc.analytics.user.useQuery({ tz });
  const daily = trpc.analytics.daily.useQuery({ days: 7, tz });
  const now = useNow();
  const staticIds = useStaticCodeIds();
  const canEdit = useCanEdit();
  const actions = quickActions.filter((a) => canEdit || !a.editorOnly);

  const failed = summary.isError || daily.isError;
  const s = summary.data;
  const days = daily.data;
  const hasCodes = (s?.totalQRCodes ?? 0) > 0;
  const weekScans = days?.reduce((sum, d) => sum + d.count, 0) ?? 0;
  const today = days?.at(-1)?.count ?? 0;
  // Static codes are not tracked: they take no share of the scans.
  const tracked = staticIds && s?.qrCodeScans.filter((c) => !staticIds.has(c.id));
  const uniqueScanners = s?.uniqueScanners ?? 0;
  const uniqueScannersText = formatCount(uniqueScanners);
  const todayScans = scansLabel(today);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        {/* The header already shows the page's name: said once on screen, kept for the outline. */}
        <VisuallyHidden>
          <Title order={2}>
            <Trans>Dashboard</Trans>
          </Title>
        </VisuallyHidden>
        {canEdit && (
          <Button component={Link} to="/create" leftSection={<IconPlus size={18} aria-hidden />}>
            <Trans>Create New QR Code</Trans>
          </Button>
        )}
      </Group>

      <DestinationAlerts now={now} />

      {failed ? (
        <ErrorAlert>
          <Trans>Error loading dashboard data. Please try again later.</Trans>
        </ErrorAlert>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <StatCard
              label={t`Total QR Codes`}
              icon={<IconQrcode size={24} />}
              loading={!s}
              value={s && formatCount(s.totalQRCodes)}
            />
            <StatCard
              label={t`Total Scans`}
              icon={<IconScan size={24} />}
              color="teal"
              loading={!s}
              value={s && formatCount(s.totalScans)}
            >
              {s && s.totalScans > 0 && s.uniqueScanners !== null && (
                <Text size="sm" c="dimmed" data-unique-scanners>
                  {plural(uniqueScanners, {
                    one: `${uniqueScannersText} daily-unique scanners`,
                    other: `${uniqueScannersText} daily-unique scanners`,
                  })}
                </Text>
              )}
            </StatCard>
            <StatCard
              label={t`Recent Activity`}
              icon={<IconActivity size={24} />}
              color="violet"
              loading={!s || !days}
              valueSize={24}
              value={
                s?.lastScanAt ? (
                  <>
                    <Text span display="block" size="sm" fw={600} c="dimmed">
                      <Trans>Last scan:</Trans>
                    </Text>
                    <Tooltip
                      label={exactTime(s.lastScanAt)}
                      events={{ hover: true, focus: true, touch: true }}
                    >
                      <time dateTime={s.lastScanAt} tabIndex={0} data-last-scan>
                        {relativeTime(s.lastScanAt, now)}
                      </time>
                    </Tooltip>
                  </>
                ) : (
                  t`No scans yet`
                )
              }
            >
              {s?.lastScanAt && (
                <Text size="sm" c="dimmed">
                  <Trans>{todayScans} today</Trans>
                </Text>
              )}
            </StatCard>
          </SimpleGrid>

          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <ChartCard
                title={t`Scans (Last 7 Days)`}
                loading={!s || !days}
                empty={
                  !hasCodes ? (
                    // One call to action on an empty dashboard: the page's Create New QR Code button.
                    <NoCodesState withAction={false} />
                  ) : weekScans === 0 ? (
                    <NoScansState
                      title={s && s.totalScans > 0 ? t`No scans in the last 7 days` : t`No scans yet`}
                    />
                  ) : null
                }
              >
                {days && <WeekScansChart data={days} caption={t`Scans per day, last 7 days`} />}
              </ChartCard>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <ChartCard
                title={t`Top QR Codes`}
                loading={!s || !tracked}
                empty={
                  !hasCodes ? (
                    <NoCodesState withAction={false} />
                  ) : tracked && tracked.length === 0 ? (
                    <Text c="dimmed" ta="center" size="sm" maw={320}>
                      {t(NOT_TRACKED_REASON_MSG)}
                    </Text>
                  ) : tracked && tracked.every((c) => c.scans === 0) ? (
                    <NoScansState />
                  ) : null
                }
              >
                {tracked && (
                  <TopCodesPie
                    label={t`Most scanned QR codes`}
                    caption={t`Scans of the most scanned QR codes, all time`}
                    nameColumn={t`QR code`}
                    slices={tracked.slice(0, TOP_CODES).map((c, i) => ({
                      key: c.id,
                      name: c.name,
                      value: c.scans,
                      color: colorAt(CHART_COLORS, i),
                    }))}
                  />
                )}
              </ChartCard>
            </Grid.Col>
          </Grid>
        </>
      )}

      <Stack gap="sm" component="section" aria-labelledby="quick-actions">
        <Title order={3} size="h4" id="quick-actions">
          <Trans>Quick Actions</Trans>
        </Title>
        <SimpleGrid cols={{ base: 1, sm: actions.length }}>
          {actions.map((a) => (
            <Card
              key={a.to}
              component={Link}
              to={a.to}
              withBorder
              padding="lg"
              radius="md"
              className="mantine-focus-auto"
              style={{ textDecoration: 'none' }}
            >
              <Group wrap="nowrap" gap="md">
                <ThemeIcon variant="light" color={a.color} size={44} radius="md" aria-hidden>
                  <a.icon size={24} />
                </ThemeIcon>
                <div>
                  <Text fw={700}>{t(a.title)}</Text>
                  <Text size="sm" c="dimmed">
                    {t(a.description)}
                  </Text>
                </div>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}
