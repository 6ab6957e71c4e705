import { plural } from '@lingui/core/macro';
import { useLingui as useLocale } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Box,
  Button,
  Card,
  Center,
  Checkbox,
  Container,
  Grid,
  Group,
  PasswordInput,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconDevices, IconLock, IconMapPin, IconScan } from '@tabler/icons-react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  DEFAULT_SHARE_DAYS,
  SHARE_PERIODS,
  shareMessages,
  type PublicShare,
} from '../../../src/shares/share.schema';
import { CHART_HEIGHT, ChartCard } from '../../components/ChartCard';
import { DeviceBreakdown } from '../../components/DeviceBreakdown';
import { LazyDailyScansChart, preloadCharts } from '../../components/LazyCharts';
import { LocationMap } from '../../components/location-map/LocationMap';
import { StatCard } from '../../components/StatCard';
import { translateShared } from '../../i18n/shared-messages';
import { formatCount, viewerTimeZone } from '../../lib/format';
import { shareRoute } from '../../routes';
import { HourlyScansChart } from '../analytics/HourlyScansChart';
import { UniqueScannersCard } from '../analytics/UniqueScannersCard';
import { fetchShare, ShareCallError, unlockShare } from './share-api';

type State =
  | { kind: 'loading' }
  | { kind: 'gone' }
  /** `message`: the server's, or null for the page's own words. */
  | { kind: 'failed'; message: string | null }
  | { kind: 'shown'; share: PublicShare };

/** Keeps search engines off the page (the server also sends X-Robots-Tag for /share/*). */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

/**
 * A shared dashboard (issue 36), opened signed out at /share/<token>: one code's or one folder's
 * analytics for a period, behind a password when the link has one; nothing of the owner beyond that.
 */
export function SharedDashboardPage() {
  const { token } = shareRoute.useParams();
  const { t } = useLingui();
  const tz = viewerTimeZone();
  const [days, setDays] = useState<number>(DEFAULT_SHARE_DAYS);
  const [excludeBots, setExcludeBots] = useState(false);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [version, setVersion] = useState(0);
  // What the page asks for: a figure shown for another period is dimmed until the new one is there.
  const asked = `${days}|${excludeBots}|${version}`;
  const [answered, setAnswered] = useState<string | null>(null);
  const reloading = answered !== asked;
  useNoIndex();

  useEffect(() => {
    preloadCharts();
  }, []);

  useEffect(() => {
    const abort = new AbortController();
    fetchShare(token, { days, tz, excludeBots }, abort.signal).then(
      (share) => {
        setState({ kind: 'shown', share });
        setAnswered(asked);
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setAnswered(asked);
        if (error instanceof ShareCallError && error.status === 404) setState({ kind: 'gone' });
        else
          setState({
            kind: 'failed',
            message: error instanceof Error ? error.message : null,
          });
      },
    );
    return () => abort.abort();
  }, [token, days, tz, excludeBots, asked]);

  const title = state.kind === 'shown' ? state.share.title : '';
  const pageTitle =
    state.kind === 'shown'
      ? t`Analytics of ${title}`
      : state.kind === 'gone'
        ? t`Link not found`
        : t`Shared dashboard`;
  useEffect(() => {
    document.title = `${pageTitle} · QR Creator`;
  }, [pageTitle]);

  const unlocked = useCallback(() => setVersion((v) => v + 1), []);

  return (
    <Box component="main" id="main" mih="100dvh" py={{ base: 'md', sm: 'xl' }}>
      <Container size="lg" px={{ base: 'sm', sm: 'md' }}>
        {state.kind === 'gone' ? (
          <ShareGone />
        ) : state.kind === 'failed' ? (
          <Alert color="red" title={t`Something went wrong`} role="alert">
            {state.message !== null ? translateShared(state.message) : t`The dashboard could not be loaded`}
          </Alert>
        ) : state.kind === 'loading' ? (
          <DashboardSkeleton />
        ) : state.share.needsPassword ? (
          <PasswordForm token={token} title={state.share.title} onUnlocked={unlocked} />
        ) : (
          <Dashboard
            share={state.share}
            days={days}
            onDays={setDays}
            excludeBots={excludeBots}
            onExcludeBots={setExcludeBots}
            reloading={reloading}
          />
        )}
      </Container>
    </Box>
  );
}

function ShareGone() {
  // The server's words (src/shares/share.schema.ts, in English there), then the page's.
  useLocale();
  const notFound = translateShared(shareMessages.notFound);
  return (
    <Center mih="70dvh">
      <Stack align="center" gap="sm" maw={440} ta="center" data-share-gone>
        <Text fz={64} fw={800} c="dimmed" lh={1} aria-hidden>
          404
        </Text>
        <Title order={1}>
          <Trans>Link not found</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>{notFound}. Ask whoever sent it for a new link.</Trans>
        </Text>
      </Stack>
    </Center>
  );
}

function PasswordForm({
  token,
  title,
  onUnlocked,
}: {
  token: string;
  title: string;
  onUnlocked: () => void;
}) {
  const { t } = useLingui();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError(t`Enter the password`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await unlockShare(token, password);
      onUnlocked();
    } catch (e) {
      setError(e instanceof Error ? e.message : t`The password could not be checked`);
      setBusy(false);
    }
  }

  return (
    <Center mih="70dvh">
      <Card withBorder radius="md" padding="xl" w="100%" maw={420}>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack gap="md">
            <Group gap="xs" wrap="nowrap">
              <IconLock size={24} aria-hidden />
              <Title order={1} size="h3">
                <Trans>This dashboard is protected</Trans>
              </Title>
            </Group>
            <Text c="dimmed" size="sm">
              <Trans>Enter the password to see the analytics of {title}.</Trans>
            </Text>
            <PasswordInput
              label={t`Password`}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              // The server's refusal ('Wrong password') is English.
              error={error && translateShared(error)}
              autoComplete="current-password"
              data-autofocus
            />
            <Button type="submit" loading={busy}>
              <Trans context="button: open the shared dashboard">Open</Trans>
            </Button>
          </Stack>
        </form>
      </Card>
    </Center>
  );
}

function DashboardSkeleton() {
  const { t } = useLingui();
  return (
    <Stack gap="md" aria-busy="true" aria-label={t`Loading the shared dashboard`}>
      <Skeleton h={36} w="60%" />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {[1, 2, 3, 4].map((i) => (
          <Skeleton key={i} h={110} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton h={CHART_HEIGHT + 70} radius="md" />
    </Stack>
  );
}

function Dashboard({
  share,
  days: chosenDays,
  onDays,
  excludeBots,
  onExcludeBots,
  reloading,
}: {
  share: PublicShare;
  days: number;
  onDays: (days: number) => void;
  excludeBots: boolean;
  onExcludeBots: (exclude: boolean) => void;
  reloading: boolean;
}) {
  const { t, i18n } = useLingui();
  const a = share.analytics!;
  const noScans = a.totalScans === 0;
  // The period of the figures shown (the one chosen once they arrive).
  const days = a.days;
  const title = share.title;
  const noData = t`No scans in this period`;
  const periods = SHARE_PERIODS.map((days) => ({
    value: String(days),
    label: plural(days, { one: 'Last # day', other: 'Last # days' }),
  }));
  // English as before (the browser's own date format); another language writes the date its way.
  const openUntil = share.expiresAt
    ? new Date(share.expiresAt).toLocaleDateString(i18n.locale === 'en' ? undefined : i18n.locale)
    : null;
  return (
    <Stack
      gap="md"
      style={{ opacity: reloading ? 0.6 : 1, transition: 'opacity 150ms' }}
      aria-busy={reloading}
    >
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2} miw={0}>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            <Trans>Analytics of {title}</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            {share.kind === 'folder' ? t`All the codes of this folder, read-only` : t`One QR code, read-only`}
            {openUntil ? ` · ${t`link open until ${openUntil}`}` : ''}
          </Text>
        </Stack>
        <Group gap="sm" align="center">
          <Checkbox
            label={t`Exclude bots`}
            checked={excludeBots}
            onChange={(e) => onExcludeBots(e.currentTarget.checked)}
          />
          <Select
            aria-label={t`Period`}
            w={150}
            data={periods}
            value={String(chosenDays)}
            onChange={(v) => onDays(Number(v ?? DEFAULT_SHARE_DAYS))}
            allowDeselect={false}
          />
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <StatCard label={t`Total Scans`} icon={<IconScan size={24} />} value={formatCount(a.totalScans)} />
        <UniqueScannersCard value={a.uniqueScanners} partial={a.uniqueScannersPartial} />
        <StatCard
          label={t`Locations`}
          icon={<IconMapPin size={24} />}
          color="teal"
          value={formatCount(a.locations.length)}
        />
        <StatCard
          label={t`Device Types`}
          icon={<IconDevices size={24} />}
          color="violet"
          value={formatCount(a.devices.length)}
        />
      </SimpleGrid>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <ChartCard title={t`Scans Over Time`} empty={noScans ? <Text c="dimmed">{noData}</Text> : null}>
            <LazyDailyScansChart
              data={a.daily}
              caption={t`Scans and unique scanners per day, last ${plural(days, { one: '# day', other: '# days' })}`}
              withUniques
            />
          </ChartCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <ChartCard title={t`Device Distribution`}>
            {a.devices.length === 0 ? (
              <Text c="dimmed">{noData}</Text>
            ) : (
              <DeviceBreakdown devices={a.devices} label={t`Device distribution`} />
            )}
          </ChartCard>
        </Grid.Col>
      </Grid>

      <ChartCard title={t`Scans by Hour`} empty={noScans ? <Text c="dimmed">{noData}</Text> : null}>
        <HourlyScansChart data={a.hourly} />
      </ChartCard>

      <ChartCard title={t`Scans by Country`} empty={noScans ? <Text c="dimmed">{noData}</Text> : null}>
        <LocationMap
          locations={a.locations}
          caption={t`Scans by country, last ${plural(days, { one: '# day', other: '# days' })}`}
        />
      </ChartCard>

      {a.codes && (
        <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="shared-codes">
          <Title order={3} size="h4" id="shared-codes" mb="md">
            <Trans>QR Codes in this folder</Trans>
          </Title>
          {a.codes.length === 0 ? (
            <Text c="dimmed">
              <Trans>This folder holds no codes.</Trans>
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={280}>
              <Table striped data-shared-codes>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <Trans>QR code</Trans>
                    </Table.Th>
                    <Table.Th ta="right">
                      <Trans>Scans</Trans>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {a.codes.map((c, i) => (
                    <Table.Tr key={`${i}-${c.name}`}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.name}</Table.Td>
                      <Table.Td ta="right">{formatCount(c.scans)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
      )}
      <Text size="xs" c="dimmed" ta="center">
        <Trans>A read-only view shared from QR Creator.</Trans>
      </Text>
    </Stack>
  );
}
