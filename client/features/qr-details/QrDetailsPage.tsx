import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  useMatches,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconChartBar,
  IconDevices,
  IconEdit,
  IconInfoCircle,
  IconMapPin,
  IconScan,
  IconShare,
  IconUsersGroup,
} from '@tabler/icons-react';
import { msg, plural } from '@lingui/core/macro';
import { Trans, Plural, useLingui } from '@lingui/react/macro';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { ANALYTICS_PERIODS, DEFAULT_DAYS } from '../../../src/analytics/analytics.schema';
import { describeContent } from '../../../src/qr/content';
import { imageDataOf } from '../../../src/qr/qr.schema';
import { CHART_HEIGHT, ChartCard } from '../../components/ChartCard';
import { DailyScansChart } from '../../components/DailyScansChart';
import { DeviceBreakdown } from '../../components/DeviceBreakdown';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateShared } from '../../i18n/shared-messages';
import { LocationMap } from '../../components/location-map/LocationMap';
import { StatCard } from '../../components/StatCard';
import { formatCount, viewerTimeZone } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { qrDetailsRoute } from '../../routes';
import { qrImageLabel } from '../qr/qr-image-label';
import { PrintReadyButton } from '../qr/PrintReadyButton';
import { QrPreview } from '../qr/QrPreview';
import { ScanVerdictBadge } from '../scan-safety/ScanSafetyBadge';
import { shareQr } from '../qr/share';
import { NOT_TRACKED_MSG, NOT_TRACKED_REASON_MSG } from '../qr/use-static-codes';
import { UniqueScannersCard } from '../analytics/UniqueScannersCard';
import { MoveToTeamDialog } from '../workspaces/MoveToTeamDialog';
import { useCanEdit, useMoveTargets } from '../workspaces/use-current-workspace';
import { DestinationCheckCard } from './DestinationCheckCard';
import { HistoryCard } from './HistoryCard';
import { ImportNote } from './ImportNote';
import { ScanHistoryTable } from './ScanHistoryTable';
import { SmartStoryCard } from './SmartStoryCard';

const ShareAnalyticsDialog = lazy(() =>
  import('../shares/ShareAnalyticsDialog').then((m) => ({ default: m.ShareAnalyticsDialog })),
);

/** The details preview is 200 px and shows the saved design, exactly as the downloads draw it. */
const PREVIEW_SIZE = 200;

/** The pagination's arrows, named for screen readers. */
const controlLabels = {
  first: msg`First page`,
  previous: msg`Previous page`,
  next: msg`Next page`,
  last: msg`Last page`,
};

export function QrDetailsPage() {
  // Null when the address holds no valid id (the route's params.parse).
  const { id } = qrDetailsRoute.useParams();
  const { t } = useLingui();
  return (
    <Stack gap="md">
      <div>
        <Anchor component={Link} to="/my-qr-codes" size="sm">
          <Group gap={4} component="span" wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden />
            {t`My QR Codes`}
          </Group>
        </Anchor>
      </div>
      {id === null ? (
        <ErrorAlert>
          <Trans>Error loading QR code details. Please try again later.</Trans>
        </ErrorAlert>
      ) : (
        // A new id starts afresh: no previous code's figures, back on page 1.
        <QrDetails key={id} id={id} />
      )}
    </Stack>
  );
}

function QrDetails({ id }: { id: number }) {
  const { t, i18n } = useLingui();
  const tz = viewerTimeZone();
  const [page, setPage] = useState(1);
  const [days, setDays] = useState<number>(DEFAULT_DAYS);
  // Fewer page numbers on a phone, so Previous, the pages and Next stay on one line.
  const siblings = useMatches({ base: 0, sm: 1 });
  const details = trpc.analytics.qrCode.useQuery({ id, page, tz }, { placeholderData: keepPreviousData });
  const daily = trpc.analytics.qrCodeDaily.useQuery(
    { id, days, tz },
    { placeholderData: keepPreviousData, enabled: !details.isError },
  );
  // All time, as the totals above; static codes are not tracked, so nothing to ask.
  const locations = trpc.analytics.qrCodeLocations.useQuery(
    { id, tz },
    { enabled: details.data?.qrCode.isDynamic === true },
  );
  // Only a smart code (options or a password) has a story to tell.
  const smart =
    details.data?.qrCode.isDynamic === true &&
    (details.data.qrCode.redirectOptions !== null || details.data.qrCode.hasPassword);
  const outcomes = trpc.analytics.qrCodeOutcomes.useQuery({ id }, { enabled: smart });
  // Edit and Restore take an editor; Move to team, a code of the personal workspace and a team to edit.
  const canEdit = useCanEdit();
  const [sharingAnalytics, setSharingAnalytics] = useState(false);
  const teamMoves = useMoveTargets().length > 0;
  const [movingToTeam, setMovingToTeam] = useState(false);
  const navigate = useNavigate();

  if (details.isError) {
    const notFound = details.error.data?.code === 'NOT_FOUND';
    return (
      <ErrorAlert>
        <Trans>Error loading QR code details. Please try again later.</Trans>
        {notFound && (
          <Text size="sm" mt={4}>
            <Trans>This QR code does not exist or belongs to another account.</Trans>
          </Text>
        )}
      </ErrorAlert>
    );
  }

  const d = details.data;
  if (!d) return <DetailsSkeleton />;

  const code = d.qrCode;
  const data = imageDataOf(code);
  const noScans = d.totalScans === 0;
  // Static codes are not tracked: no counts, charts or history, and the page says why.
  const tracked = code.isDynamic;
  const notTracked = t(NOT_TRACKED_MSG);
  const noData = t`No scan data available yet`;
  const periods = ANALYTICS_PERIODS.map((days) => ({
    value: String(days),
    label: plural(days, { one: 'Last # day', other: 'Last # days' }),
  }));
  // English as before (the browser's own date format); another language writes the date its way.
  const dateLocale = i18n.locale === 'en' ? undefined : i18n.locale;
  const createdOn = new Date(code.created).toLocaleDateString(dateLocale);
  const throttled = d.throttledScans;
  const refused = d.refusedScans;
  const shownPage = d.page;
  const totalPages = d.totalPages;
  const historyFrom = d.historyFrom ? new Date(d.historyFrom).toLocaleDateString(dateLocale) : null;

  return (
    <Stack gap="md">
      <Card withBorder padding="lg" radius="md">
        <Group align="flex-start" gap="lg" wrap="wrap">
          <QrPreview
            data={data}
            customization={code.customization}
            size={PREVIEW_SIZE}
            label={qrImageLabel(code)}
          />
          <Stack gap="xs" style={{ flex: '1 1 240px', minWidth: 0 }}>
            <Title order={2} style={{ wordBreak: 'break-word' }}>
              {code.name}
            </Title>
            <Group gap={6}>
              <Badge variant="light" data-qr-type>
                {code.type.toUpperCase()}
              </Badge>
              <Badge variant="light" color={code.isDynamic ? 'teal' : 'gray'}>
                {code.isDynamic ? t`Dynamic` : t`Static`}
              </Badge>
              {code.scannable && <ScanVerdictBadge verdict={code.scannable.verdict} />}
            </Group>
            {code.scannable && code.scannable.reason && (
              <Text
                size="xs"
                c={code.scannable.verdict === 'unscannable' ? 'red.8' : 'dimmed'}
                data-scan-reason
              >
                {translateShared(code.scannable.reason)}
              </Text>
            )}
            <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>
              {translateShared(describeContent(code.type, code.content))}
            </Text>
            {code.shortUrl && (
              <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                {code.shortUrl}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              <Trans>Created {createdOn}</Trans>
            </Text>
            {code.isDynamic && <ImportNote codeId={code.id} />}
            <Group gap="xs" mt="xs">
              <Button
                variant="light"
                leftSection={<IconShare size={18} aria-hidden />}
                onClick={() => void shareQr({ title: code.name, url: data })}
              >
                <Trans context="verb: share the code">Share</Trans>
              </Button>
              <PrintReadyButton code={code} />
              {canEdit && code.isDynamic && (
                <Button
                  variant="default"
                  leftSection={<IconChartBar size={18} aria-hidden />}
                  onClick={() => setSharingAnalytics(true)}
                >
                  <Trans>Share analytics</Trans>
                </Button>
              )}
              {sharingAnalytics && (
                <Suspense fallback={null}>
                  <ShareAnalyticsDialog
                    opened
                    onClose={() => setSharingAnalytics(false)}
                    target={{ qrCodeId: code.id, name: code.name }}
                  />
                </Suspense>
              )}
              {canEdit && code.isDynamic && (
                <Button
                  variant="default"
                  component={Link}
                  to={`/edit-qr/${code.id}`}
                  leftSection={<IconEdit size={18} aria-hidden />}
                >
                  <Trans>Edit</Trans>
                </Button>
              )}
              {teamMoves && (
                <Button
                  variant="default"
                  leftSection={<IconUsersGroup size={18} aria-hidden />}
                  onClick={() => setMovingToTeam(true)}
                >
                  <Trans>Move to team</Trans>
                </Button>
              )}
            </Group>
          </Stack>
        </Group>
      </Card>

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <StatCard
          label={t`Total Scans`}
          icon={<IconScan size={24} />}
          value={tracked ? formatCount(d.totalScans) : notTracked}
        />
        <UniqueScannersCard
          value={d.uniqueScanners}
          partial={d.uniqueScannersPartial}
          {...(tracked ? {} : { notTracked })}
        />
        <StatCard
          label={t`Unique Locations`}
          icon={<IconMapPin size={24} />}
          color="teal"
          value={tracked ? formatCount(d.uniqueLocations) : notTracked}
        />
        <StatCard
          label={t`Unique Devices`}
          icon={<IconDevices size={24} />}
          color="violet"
          value={tracked ? formatCount(d.uniqueDevices) : notTracked}
        >
          {tracked && (
            <Text size="xs" c="dimmed">
              <Trans>Device types (Mobile, Tablet, Desktop…)</Trans>
            </Text>
          )}
        </StatCard>
      </SimpleGrid>

      {tracked && d.throttledScans > 0 && (
        <Text size="sm" c="dimmed" data-throttled-scans>
          <Trans>
            Not counted: <Plural value={throttled} one="# scan" other="# scans" /> repeated by one device
            faster than a person scans (a redirect loop or a script).
          </Trans>
        </Text>
      )}

      {tracked && d.refusedScans > 0 && (
        <Text size="sm" c="dimmed" data-refused-scans>
          <Trans>
            Of these, <Plural value={refused} one="# scan was" other="# scans were" /> turned away because the
            code was paused, not started yet, ended or over its scan limit: people still tried it.
          </Trans>
        </Text>
      )}

      <DestinationCheckCard code={code} />
      {smart && <SmartStoryCard code={code} outcomes={outcomes.data} failed={outcomes.isError} />}

      {!tracked && (
        <Alert
          variant="light"
          color="gray"
          icon={<IconInfoCircle size={20} aria-hidden />}
          title={t`Not tracked`}
        >
          {t(NOT_TRACKED_REASON_MSG)}{' '}
          <Trans>Make a dynamic code to count its scans, devices and places.</Trans>
        </Alert>
      )}

      {tracked && (
        <>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <ChartCard
                title={t`Scans Over Time`}
                loading={!daily.data && !daily.isError}
                empty={
                  daily.isError ? (
                    <Text c="red" size="sm" role="alert">
                      <Trans>Error loading QR code details. Please try again later.</Trans>
                    </Text>
                  ) : noScans ? (
                    <Text c="dimmed">{noData}</Text>
                  ) : null
                }
                action={
                  <Select
                    aria-label={t`Chart period`}
                    size="xs"
                    w={140}
                    data={periods}
                    value={String(days)}
                    onChange={(v) => setDays(Number(v ?? DEFAULT_DAYS))}
                    allowDeselect={false}
                  />
                }
              >
                {daily.data && (
                  <div style={{ opacity: daily.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
                    <DailyScansChart
                      data={daily.data}
                      caption={t`Scans and unique scanners per day, last ${plural(days, { one: '# day', other: '# days' })}`}
                      withUniques
                    />
                  </div>
                )}
              </ChartCard>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <ChartCard title={t`Device Distribution`}>
                {d.devices.length === 0 ? (
                  <Text c="dimmed">{noData}</Text>
                ) : (
                  <DeviceBreakdown devices={d.devices} label={t`Device distribution`} />
                )}
              </ChartCard>
            </Grid.Col>
          </Grid>

          <ChartCard
            title={t`Scans by Country`}
            loading={!locations.data && !locations.isError}
            empty={
              locations.isError ? (
                <Text c="red" size="sm" role="alert">
                  <Trans>Error loading QR code details. Please try again later.</Trans>
                </Text>
              ) : noScans ? (
                <Text c="dimmed">{noData}</Text>
              ) : null
            }
          >
            {locations.data && (
              <LocationMap locations={locations.data} caption={t`Scans by country, all time`} />
            )}
          </ChartCard>

          <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="scan-history">
            <Group justify="space-between" mb="md" gap="xs">
              <Title order={3} size="h4" id="scan-history">
                <Trans>Scan History</Trans>
              </Title>
              {!noScans && (
                <Text size="sm" c="dimmed">
                  <Trans>
                    Page {shownPage} of {totalPages}
                  </Trans>
                </Text>
              )}
            </Group>
            {historyFrom && (
              <Text size="xs" c="dimmed" mt={-8} mb="sm" data-history-from>
                <Trans>
                  The history lists scans since {historyFrom}; older scans still count in the totals and
                  charts.
                </Trans>
              </Text>
            )}
            {noScans || d.scans.length === 0 ? (
              <Text c="dimmed" py="lg" ta="center">
                {noData}
              </Text>
            ) : (
              <>
                <ScanHistoryTable scans={d.scans} busy={details.isPlaceholderData} code={code} />
                {d.totalPages > 1 && (
                  <Group justify="center" mt="md">
                    <Pagination
                      total={d.totalPages}
                      value={page}
                      onChange={setPage}
                      siblings={siblings}
                      boundaries={1}
                      size="sm"
                      aria-label={t`Scan history pages`}
                      getControlProps={(control) => ({ 'aria-label': t(controlLabels[control]) })}
                      getItemProps={(p) => ({ 'aria-label': t`Page ${p}` })}
                    />
                  </Group>
                )}
              </>
            )}
          </Card>
        </>
      )}

      <HistoryCard code={code} canEdit={canEdit} />
      <MoveToTeamDialog
        code={movingToTeam ? code : null}
        onClose={() => setMovingToTeam(false)}
        // The code has left this workspace: back to its list, which no longer shows it.
        onMoved={() => void navigate({ to: '/my-qr-codes' })}
      />
    </Stack>
  );
}

function DetailsSkeleton() {
  const { t } = useLingui();
  return (
    <Stack gap="md" aria-busy="true" aria-label={t`Loading QR code details`}>
      <Card withBorder padding="lg" radius="md">
        <Group align="flex-start" gap="lg">
          <Skeleton w={PREVIEW_SIZE} h={PREVIEW_SIZE} />
          <Stack gap="xs" style={{ flex: 1 }}>
            <Skeleton h={28} w="60%" />
            <Skeleton h={20} w={120} />
            <Skeleton h={14} w="80%" />
            <Skeleton h={36} w={110} mt="xs" />
          </Stack>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} h={110} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton h={CHART_HEIGHT + 70} radius="md" />
      <Skeleton h={300} radius="md" />
    </Stack>
  );
}
