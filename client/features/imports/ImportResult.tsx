import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCrown, IconPlayerPause, IconQrcode } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ImportPreview } from '../../../src/imports/import.schema';
import { upgradeOffer } from '../../../src/plans';
import { formatCount } from '../../lib/format';
import { useCurrentUser } from '../auth/use-auth';
import { resultTotals } from './import-decisions';
import type { RunState } from './use-import-run';

/** Failed rows listed by name; the rest are counted. */
const FAILED_LISTED = 20;

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

function Count({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Paper withBorder radius="sm" p="sm" data-count={label.toLowerCase()}>
      <Text size="xl" fw={700} c={value > 0 ? color : undefined}>
        {formatCount(value)}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Paper>
  );
}

/** The plan is full: the failures say so; the way to a bigger plan, as the designer's limit says it. */
function LimitHint({ limit }: { limit: { currentCount: number; maxCount: number } }) {
  const user = useCurrentUser();
  const offer = user ? upgradeOffer(user, new Date()) : null;
  return (
    <Alert
      variant="light"
      color="yellow"
      icon={<IconCrown size={20} aria-hidden />}
      title="You have reached your plan's limit"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          This workspace has {formatCount(limit.currentCount)} of the {formatCount(limit.maxCount)} QR codes
          its plan allows. The links not imported yet are kept with the import for a day: upgrade, or delete
          codes you no longer need, then try again.
        </Text>
        {offer && (
          <Button component={Link} to="/upgrade" size="xs" leftSection={<IconCrown size={16} aria-hidden />}>
            {offer.label}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/**
 * What the import came to: created, overwritten, skipped and failed rows (the whole import, this run and
 * any before), the visits brought, each failure with its reason; a run cut short says why and resumes
 * with the rows not done.
 */
export function ImportResult({
  preview,
  run,
  left,
  onResume,
  onReview,
  onImportMore,
}: {
  preview: ImportPreview;
  run: RunState;
  /** Rows decided but not done (a run stopped, failed or held by the plan). */
  left: number;
  onResume: () => void;
  onReview: () => void;
  onImportMore: () => void;
}) {
  const totals = resultTotals(preview.links);
  const ended = run.phase === 'ended' ? run : null;
  const made = totals.created + totals.overwritten;
  const title =
    ended?.end === 'stopped'
      ? 'Import stopped'
      : ended?.end === 'error'
        ? 'Import interrupted'
        : `${plural(made, 'link')} imported`;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="import-result">
      <Stack gap="md">
        <Group gap="xs" wrap="nowrap">
          {ended?.end === 'stopped' ? (
            <IconPlayerPause size={22} aria-hidden />
          ) : ended?.end === 'error' ? (
            <IconAlertTriangle size={22} color="var(--mantine-color-red-filled)" aria-hidden />
          ) : (
            <IconCheck size={22} color="var(--mantine-color-teal-filled)" aria-hidden />
          )}
          <Title order={3} size="h4" id="import-result">
            {title}
          </Title>
        </Group>

        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" role="group" aria-label="What the import came to">
          <Count label="Created" value={totals.created} color="teal" />
          <Count label="Overwritten" value={totals.overwritten} color="blue" />
          <Count label="Skipped" value={totals.skipped} />
          <Count label="Failed" value={totals.failed} color="red" />
        </SimpleGrid>
        <Text size="sm">
          {totals.visits > 0
            ? `${plural(totals.visits, 'visit')} imported into the codes' analytics.`
            : 'No visit history was imported.'}
          {made > 0 && ' Each new code is checked for scanning now.'}
        </Text>

        {ended?.end === 'error' && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
            {ended.error} Nothing done is lost: trying again sends the {plural(left, 'link')} left, and the
            links already imported are not made twice.
          </Alert>
        )}
        {ended?.end === 'stopped' && left > 0 && (
          <Text size="sm" role="status">
            Stopped after {plural(ended.imported, 'link')}: {plural(left, 'link')} left to import.
          </Text>
        )}
        {ended?.limit && <LimitHint limit={ended.limit} />}

        {totals.failedRows.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Not imported
            </Text>
            <List size="sm" spacing={2} aria-label="Links not imported">
              {totals.failedRows.slice(0, FAILED_LISTED).map((f) => (
                <List.Item key={f.row}>
                  <Text span size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {f.slug}
                  </Text>
                  : {f.message}
                </List.Item>
              ))}
              {totals.failedRows.length > FAILED_LISTED && (
                <List.Item>…and {formatCount(totals.failedRows.length - FAILED_LISTED)} more</List.Item>
              )}
            </List>
          </Stack>
        )}

        <Group gap="sm" wrap="wrap">
          {left > 0 && (
            <Button onClick={onResume} variant={ended?.end === 'error' ? 'filled' : 'light'}>
              {ended?.end === 'stopped' ? `Continue: ${plural(left, 'link')} left` : 'Try again'}
            </Button>
          )}
          <Button component={Link} to="/my-qr-codes" leftSection={<IconQrcode size={18} aria-hidden />}>
            Open My QR Codes
          </Button>
          <Button variant="default" onClick={onImportMore}>
            Import more
          </Button>
          {left > 0 && (
            <Anchor component="button" type="button" size="sm" onClick={onReview}>
              Back to the review
            </Anchor>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
