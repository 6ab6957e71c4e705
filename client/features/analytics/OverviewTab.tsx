import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Card, Grid, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCalendarEvent, IconQrcode, IconScan } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { DEVICE_COLORS, LOCATION_COLORS, OTHER_COLOR, colorAt } from '../../components/chart-colors';
import { ChartCard } from '../../components/ChartCard';
import { DailyScansChart } from '../../components/DailyScansChart';
import { DeviceBreakdown } from '../../components/DeviceBreakdown';
import { NoCodesState, NoScansState } from '../../components/EmptyStates';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LocationMap } from '../../components/location-map/LocationMap';
import { SharePie } from '../../components/SharePie';
import { StatCard } from '../../components/StatCard';
import { formatCount, longDateLabel, viewerTimeZone } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { useCanEdit } from '../workspaces/use-current-workspace';
import { groupLocations } from './analytics-format';
import { HourlyScansChart } from './HourlyScansChart';
import { DAILY_UNIQUE_PER_CODE, UniqueScannersCard } from './UniqueScannersCard';

/** The location chart has up to ten colour slots. */
const LOCATION_SLOTS = 10;

export function OverviewTab({ days, excludeBots }: { days: number; excludeBots: boolean }) {
  const { t } = useLingui();
  const input = { days, tz: viewerTimeZone(), excludeBots };
  // A new period keeps the old figures on screen (dimmed) until the new ones arrive.
  const options = { placeholderData: keepPreviousData };
  const summary = trpc.analytics.user.useQuery(input, options);
  const daily = trpc.analytics.daily.useQuery(input, options);
  const devices = trpc.analytics.devices.useQuery(input, options);
  const locations = trpc.analytics.locations.useQuery(input, options);
  const hourly = trpc.analytics.hourly.useQuery(input, options);
  // A viewer is offered no Create button: the server would refuse them.
  const canEdit = useCanEdit();
  const queries = [summary, daily, devices, locations, hourly];

  if (queries.some((q) => q.isError))
    return (
      <ErrorAlert>
        <Trans>Error loading analytics data. Please try again later.</Trans>
      </ErrorAlert>
    );

  const s = summary.data;
  const today = daily.data?.at(-1);
  const activeCodes = s?.qrCodeScans.filter((c) => c.scans > 0).length ?? 0;
  const stale = queries.some((q) => q.isPlaceholderData);
  const chartsLoading = queries.some((q) => q.data === undefined);

  let charts: React.ReactNode;
  if (!chartsLoading && s?.totalQRCodes === 0) {
    charts = (
      <Card withBorder padding="xl" radius="md">
        {canEdit ? (
          <NoCodesState
            description={t`You don't have any QR codes yet. Create a QR code to see analytics.`}
          />
        ) : (
          <NoCodesState
            withAction={false}
            description={t`The codes its editors create, and their scans, will show here.`}
          />
        )}
      </Card>
    );
  } else if (!chartsLoading && s?.totalScans === 0) {
    charts = (
      <Card withBorder padding="xl" radius="md">
        <NoScansState
          title={t`No scans in the last ${plural(days, { one: '# day', other: '# days' })}`}
          description={t`Print or share your QR codes: their scans show up here. You can also try one in the scanner.`}
        />
      </Card>
    );
  } else {
    // The rest, summed as 'Other' in the last slot when there are more locations than slots.
    const grouped = (locations.data?.length ?? 0) > LOCATION_SLOTS;
    const locationSlices = groupLocations(locations.data ?? [], LOCATION_SLOTS).map((l, i) => ({
      key: l.location,
      name:
        grouped && i === LOCATION_SLOTS - 1
          ? t({ message: 'Other', context: 'the other locations' })
          : l.location,
      value: l.count,
      color: l.location === 'Other' && i === LOCATION_SLOTS - 1 ? OTHER_COLOR : colorAt(LOCATION_COLORS, i),
    }));

    charts = (
      <Stack gap="md">
        <ChartCard
          title={t`Scans (Last ${plural(days, { one: '# Day', other: '# Days' })})`}
          loading={!daily.data}
        >
          {daily.data && (
            <DailyScansChart
              data={daily.data}
              caption={t`Scans and unique scanners per day, last ${plural(days, { one: '# day', other: '# days' })}`}
              withUniques
            />
          )}
        </ChartCard>
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <ChartCard title={t`Scans by Device`} loading={!devices.data}>
              {devices.data && (
                <Stack gap="md">
                  <DeviceBreakdown devices={devices.data} label={t`Scans by device`} />
                  <SharePie
                    label={t`Scans by device`}
                    caption={t`Scans by device, last ${plural(days, { one: '# day', other: '# days' })}`}
                    nameColumn={t`Device`}
                    withLegend={false}
                    size={220}
                    slices={devices.data.map((d) => ({
                      key: d.device,
                      name: d.device,
                      value: d.count,
                      color: DEVICE_COLORS[d.device],
                    }))}
                  />
                </Stack>
              )}
            </ChartCard>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <ChartCard title={t`Top Locations`} loading={!locations.data}>
              <SharePie
                label={t`Scans by location`}
                caption={t`Scans by location, last ${plural(days, { one: '# day', other: '# days' })}`}
                nameColumn={t`Location`}
                slices={locationSlices}
              />
            </ChartCard>
          </Grid.Col>
        </Grid>
        <ChartCard title={t`Scans by Country`} loading={!locations.data}>
          {locations.data && (
            <LocationMap
              locations={locations.data}
              caption={t`Scans by country, last ${plural(days, { one: '# day', other: '# days' })}`}
            />
          )}
        </ChartCard>
        <ChartCard title={t`Scans by Time of Day`} loading={!hourly.data}>
          <HourlyScansChart data={hourly.data ?? []} />
        </ChartCard>
      </Stack>
    );
  }

  return (
    <Stack gap="md" style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }} aria-busy={stale}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <StatCard
          label={t`Total Scans`}
          icon={<IconScan size={24} />}
          loading={!s}
          value={s && formatCount(s.totalScans)}
        >
          <Text size="sm" c="dimmed">
            {plural(days, { one: 'Last # day', other: 'Last # days' })}
          </Text>
        </StatCard>
        <UniqueScannersCard
          value={s?.uniqueScanners}
          partial={s?.uniqueScannersPartial}
          loading={!s}
          description={DAILY_UNIQUE_PER_CODE}
        />
        <StatCard
          label={t`Scans Today`}
          icon={<IconCalendarEvent size={24} />}
          color="teal"
          loading={!today}
          value={today && formatCount(today.count)}
        >
          {today && (
            <Text size="sm" c="dimmed">
              {longDateLabel(today.date)}
            </Text>
          )}
        </StatCard>
        <StatCard
          label={t`Active QR Codes`}
          icon={<IconQrcode size={24} />}
          color="violet"
          loading={!s}
          value={s && formatCount(s.totalQRCodes)}
        >
          <Text size="sm" c="dimmed">
            {plural(activeCodes, {
              one: `${activeCodes} scanned in this period`,
              other: `${activeCodes} scanned in this period`,
            })}
          </Text>
        </StatCard>
      </SimpleGrid>
      <Box>{charts}</Box>
    </Stack>
  );
}
