import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  Timeline,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconArrowsExchange, IconPencil, IconPlus, IconRestore } from '@tabler/icons-react';
import { useState } from 'react';
import { changeFieldLabels, type QrVersion, type VersionChange } from '../../../src/qr/history';
import type { QrCode } from '../../../src/qr/qr.schema';
import { translateShared } from '../../i18n/shared-messages';
import { exactTime, relativeTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';
import { useQrCacheRefresh } from '../qr/use-qr-cache-refresh';

/** Versions shown at first; more on request (a code edited every day has many). */
const PAGE = 10;

const tooltipEvents = { hover: true, focus: true, touch: true };
/** Long links and lists break anywhere rather than widen the page (375 px phones). */
const wrap = { overflowWrap: 'anywhere' } as const;

const bullets = {
  created: <IconPlus size={14} aria-hidden />,
  edited: <IconPencil size={14} aria-hidden />,
  restored: <IconRestore size={14} aria-hidden />,
  moved: <IconArrowsExchange size={14} aria-hidden />,
};

/** A version's heading: what happened to the code then. */
function VersionHeading({ version, versions }: { version: QrVersion; versions: QrVersion[] }) {
  const { t } = useLingui();
  if (version.kind === 'created') return t({ message: 'Created', context: 'a version of the code' });
  if (version.kind === 'edited') return t`Edited`;
  if (version.kind === 'moved') return t`Moved to another workspace`;
  const source = versions.find((v) => v.id === version.restoredFrom);
  if (!source) return t`Restored an earlier version`;
  const when = exactTime(source.created);
  return t`Restored the version of ${when}`;
}

function ChangeLine({ change }: { change: VersionChange }) {
  const { t } = useLingui();
  // The field's name and the words of a change come from src/qr/history.ts, in English; a name, a short
  // link or a destination is the user's own and is shown as it is.
  const field = translateShared(changeFieldLabels[change.field]);
  const own = change.field === 'name' || change.field === 'shortLink' || change.field === 'destination';
  const before = own ? change.before : translateShared(change.before);
  const after = own ? change.after : translateShared(change.after);
  return (
    <Text size="sm" style={wrap} data-change={change.field}>
      <Text span fw={600} size="sm">
        {t`${field}:`}
      </Text>{' '}
      <Text span c="dimmed" size="sm">
        {before}
      </Text>{' '}
      <span aria-hidden>→</span>
      <VisuallyHidden>{t`changed to`}</VisuallyHidden> {after}
    </Text>
  );
}

/**
 * The code's history on its details page: every version newest first (who, when, what changed, before →
 * after), the newest marked Current, and a Restore button on every older one for a dynamic code.
 */
export function HistoryCard({
  code,
  canEdit,
}: {
  code: QrCode;
  /** Editor and up: an older version can be restored (a viewer reads the history only). */
  canEdit: boolean;
}) {
  const { t } = useLingui();
  const history = trpc.qr.history.useQuery({ id: code.id });
  const refresh = useQrCacheRefresh();
  const now = useNow();
  const [shown, setShown] = useState(PAGE);
  const [confirming, setConfirming] = useState<QrVersion | null>(null);
  const restore = trpc.qr.restore.useMutation({
    onSuccess: async (saved) => {
      setConfirming(null);
      notify.success(t`Version restored`);
      await refresh({ saved });
    },
    onError: (error) =>
      notify.error(
        t`Restore failed`,
        apiError(error, t`The version could not be restored. Please try again.`).message,
      ),
  });

  const versions = history.data ?? [];
  const more = versions.length - shown;

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="code-history" data-history>
      <Title order={3} size="h4" id="code-history" mb={4}>
        <Trans>History</Trans>
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {!code.isDynamic
          ? t`Static codes cannot be changed: this is the only version.`
          : canEdit
            ? t`Every change of this code, newest first. Restore an earlier version to bring it back.`
            : t`Every change of this code, newest first.`}
      </Text>
      {history.isError ? (
        <Text c="red" size="sm" role="alert">
          <Trans>Error loading the history. Please try again later.</Trans>
        </Text>
      ) : !history.data ? (
        <Stack gap="md" aria-busy="true" aria-label={t`Loading the history`}>
          {[0, 1, 2].map((i) => (
            <Stack key={i} gap={6}>
              <Skeleton h={16} w="40%" />
              <Skeleton h={12} w="75%" />
            </Stack>
          ))}
        </Stack>
      ) : versions.length === 0 ? (
        <Text c="dimmed" py="lg" ta="center">
          <Trans>No history yet: changes to this code will be listed here.</Trans>
        </Text>
      ) : (
        <>
          <Timeline bulletSize={24} lineWidth={2} active={0} role="list" aria-label={t`Versions`}>
            {versions.slice(0, shown).map((version, index) => (
              <Timeline.Item
                key={version.id}
                role="listitem"
                bullet={bullets[version.kind]}
                data-version={version.id}
                data-kind={version.kind}
                title={
                  <Group gap="xs" wrap="wrap">
                    <Text fw={600} size="sm" style={wrap}>
                      <VersionHeading version={version} versions={versions} />
                    </Text>
                    {index === 0 && (
                      <Badge size="sm" variant="light" color="teal">
                        <Trans context="the version the code shows now">Current</Trans>
                      </Badge>
                    )}
                  </Group>
                }
              >
                <Text size="xs" c="dimmed" mb={4}>
                  <Tooltip label={exactTime(version.created)} events={tooltipEvents} withinPortal>
                    <Text span size="xs" component="time" dateTime={version.created} tabIndex={0}>
                      {relativeTime(version.created, now)}
                    </Text>
                  </Tooltip>
                  {' · '}
                  <ByLine actor={version.actor} />
                </Text>
                <Stack gap={2}>
                  {version.kind === 'created' ? (
                    <>
                      <Text size="sm" style={wrap}>
                        {version.state.name}
                      </Text>
                      <Text size="sm" c="dimmed" style={wrap}>
                        {translateShared(version.state.content)}
                      </Text>
                    </>
                  ) : version.changes.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      <Trans>No changes: the code already showed this version.</Trans>
                    </Text>
                  ) : (
                    version.changes.map((change) => <ChangeLine key={change.field} change={change} />)
                  )}
                </Stack>
                {index > 0 && code.isDynamic && canEdit && (
                  <Button
                    variant="default"
                    size="xs"
                    mt="xs"
                    leftSection={<IconRestore size={14} aria-hidden />}
                    onClick={() => setConfirming(version)}
                  >
                    <Trans>Restore</Trans>
                  </Button>
                )}
              </Timeline.Item>
            ))}
          </Timeline>
          {versions.length > shown && (
            <Button variant="subtle" size="xs" mt="md" onClick={() => setShown((n) => n + PAGE)}>
              <Trans>Show older versions ({more} more)</Trans>
            </Button>
          )}
        </>
      )}

      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={t`Restore this version?`}
        centered
      >
        <Text size="sm">
          <Trans>The code will show it from the next scan; this restore is kept in the history too.</Trans>
        </Text>
        {confirming && (
          <Stack gap={2} mt="sm">
            <Text size="sm" fw={600} style={wrap}>
              {confirming.state.name}
            </Text>
            <Text size="sm" c="dimmed" style={wrap}>
              {translateShared(confirming.state.content)}
            </Text>
            <Text size="xs" c="dimmed">
              <VersionOf created={confirming.created} />
            </Text>
          </Stack>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(null)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            loading={restore.isPending}
            leftSection={<IconRestore size={16} aria-hidden />}
            onClick={() => {
              if (confirming) restore.mutate({ id: code.id, versionId: confirming.id });
            }}
          >
            <Trans>Restore</Trans>
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}

/** Who made a version: 'by ada', or 'by a deleted account'. */
function ByLine({ actor }: { actor: QrVersion['actor'] }) {
  const { t } = useLingui();
  if (!actor) return t`by a deleted account`;
  const username = actor.username;
  return t`by ${username}`;
}

function VersionOf({ created }: { created: string }) {
  const { t } = useLingui();
  const when = exactTime(created);
  return t`Version of ${when}`;
}
