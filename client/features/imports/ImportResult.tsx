import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
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
import { translateShared } from '../../i18n/shared-messages';
import { formatCount } from '../../lib/format';
import { useCurrentUser } from '../auth/use-auth';
import { resultTotals } from './import-decisions';
import type { RunState } from './use-import-run';

/** Failed rows listed by name; the rest are counted. */
const FAILED_LISTED = 20;

/** A figure of the result; `name` (its English label in lower case) marks it for the browser tests. */
function Count({
  name,
  label,
  value,
  color,
}: {
  name: string;
  label: string;
  value: number;
  color?: string;
}) {
  return (
    <Paper withBorder radius="sm" p="sm" data-count={name}>
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
  const { t } = useLingui();
  const user = useCurrentUser();
  const offer = user ? upgradeOffer(user, new Date()) : null;
  const current = formatCount(limit.currentCount);
  const max = formatCount(limit.maxCount);
  return (
    <Alert
      variant="light"
      color="yellow"
      icon={<IconCrown size={20} aria-hidden />}
      title={t`You have reached your plan's limit`}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          <Trans>
            This workspace has {current} of the {max} QR codes its plan allows. The links not imported yet are
            kept with the import for a day: upgrade, or delete codes you no longer need, then try again.
          </Trans>
        </Text>
        {offer && (
          <Button component={Link} to="/upgrade" size="xs" leftSection={<IconCrown size={16} aria-hidden />}>
            {translateShared(offer.label)}
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
  const { t } = useLingui();
  const totals = resultTotals(preview.links);
  const ended = run.phase === 'ended' ? run : null;
  const made = totals.created + totals.overwritten;
  const visits = totals.visits;
  const imported = ended?.imported ?? 0;
  const more = formatCount(totals.failedRows.length - FAILED_LISTED);
  const title =
    ended?.end === 'stopped'
      ? t`Import stopped`
      : ended?.end === 'error'
        ? t`Import interrupted`
        : plural(made, { one: '# link imported', other: '# links imported' });

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

        <SimpleGrid
          cols={{ base: 2, sm: 4 }}
          spacing="sm"
          role="group"
          aria-label={t`What the import came to`}
        >
          <Count
            name="created"
            label={t({ message: 'Created', context: 'import result count' })}
            value={totals.created}
            color="teal"
          />
          <Count
            name="overwritten"
            label={t({ message: 'Overwritten', context: 'import result count' })}
            value={totals.overwritten}
            color="blue"
          />
          <Count
            name="skipped"
            label={t({ message: 'Skipped', context: 'import result count' })}
            value={totals.skipped}
          />
          <Count
            name="failed"
            label={t({ message: 'Failed', context: 'import result count' })}
            value={totals.failed}
            color="red"
          />
        </SimpleGrid>
        <Text size="sm">
          {visits > 0
            ? plural(visits, {
                one: "# visit imported into the codes' analytics.",
                other: "# visits imported into the codes' analytics.",
              })
            : t`No visit history was imported.`}
          {made > 0 && ` ${t`Each new code is checked for scanning now.`}`}
        </Text>

        {ended?.end === 'error' && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
            {ended.error}{' '}
            <Plural
              value={left}
              one="Nothing done is lost: trying again sends the # link left, and the links already imported are not made twice."
              other="Nothing done is lost: trying again sends the # links left, and the links already imported are not made twice."
            />
          </Alert>
        )}
        {ended?.end === 'stopped' && left > 0 && (
          <Text size="sm" role="status">
            <Trans>
              Stopped after <Plural value={imported} one="# link" other="# links" />:{' '}
              <Plural value={left} one="# link" other="# links" /> left to import.
            </Trans>
          </Text>
        )}
        {ended?.limit && <LimitHint limit={ended.limit} />}

        {totals.failedRows.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              <Trans>Not imported</Trans>
            </Text>
            <List size="sm" spacing={2} aria-label={t`Links not imported`}>
              {totals.failedRows.slice(0, FAILED_LISTED).map((f) => (
                <List.Item key={f.row}>
                  <Text span size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {f.slug}
                  </Text>
                  : {f.message === null ? t`Not imported` : translateShared(f.message)}
                </List.Item>
              ))}
              {totals.failedRows.length > FAILED_LISTED && (
                <List.Item>
                  <Trans>…and {more} more</Trans>
                </List.Item>
              )}
            </List>
          </Stack>
        )}

        <Group gap="sm" wrap="wrap">
          {left > 0 && (
            <Button onClick={onResume} variant={ended?.end === 'error' ? 'filled' : 'light'}>
              {ended?.end === 'stopped'
                ? plural(left, { one: 'Continue: # link left', other: 'Continue: # links left' })
                : t`Try again`}
            </Button>
          )}
          <Button component={Link} to="/my-qr-codes" leftSection={<IconQrcode size={18} aria-hidden />}>
            <Trans>Open My QR Codes</Trans>
          </Button>
          <Button variant="default" onClick={onImportMore}>
            <Trans>Import more</Trans>
          </Button>
          {left > 0 && (
            <Anchor component="button" type="button" size="sm" onClick={onReview}>
              <Trans>Back to the review</Trans>
            </Anchor>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
