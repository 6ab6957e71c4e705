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
import { IconArrowsExchange, IconPencil, IconPlus, IconRestore } from '@tabler/icons-react';
import { useState } from 'react';
import { changeFieldLabels, type QrVersion, type VersionChange } from '../../../src/qr/history';
import type { QrCode } from '../../../src/qr/qr.schema';
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

function headingOf(version: QrVersion, versions: QrVersion[]): string {
  if (version.kind === 'created') return 'Created';
  if (version.kind === 'edited') return 'Edited';
  if (version.kind === 'moved') return 'Moved to another workspace';
  const source = versions.find((v) => v.id === version.restoredFrom);
  return source ? `Restored the version of ${exactTime(source.created)}` : 'Restored an earlier version';
}

function ChangeLine({ change }: { change: VersionChange }) {
  return (
    <Text size="sm" style={wrap} data-change={change.field}>
      <Text span fw={600} size="sm">
        {changeFieldLabels[change.field]}:
      </Text>{' '}
      <Text span c="dimmed" size="sm">
        {change.before}
      </Text>{' '}
      <span aria-hidden>→</span>
      <VisuallyHidden>changed to</VisuallyHidden> {change.after}
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
  const history = trpc.qr.history.useQuery({ id: code.id });
  const refresh = useQrCacheRefresh();
  const now = useNow();
  const [shown, setShown] = useState(PAGE);
  const [confirming, setConfirming] = useState<QrVersion | null>(null);
  const restore = trpc.qr.restore.useMutation({
    onSuccess: async (saved) => {
      setConfirming(null);
      notify.success('Version restored');
      await refresh({ saved });
    },
    onError: (error) =>
      notify.error(
        'Restore failed',
        apiError(error, 'The version could not be restored. Please try again.').message,
      ),
  });

  const versions = history.data ?? [];

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="code-history" data-history>
      <Title order={3} size="h4" id="code-history" mb={4}>
        History
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {!code.isDynamic
          ? 'Static codes cannot be changed: this is the only version.'
          : canEdit
            ? 'Every change of this code, newest first. Restore an earlier version to bring it back.'
            : 'Every change of this code, newest first.'}
      </Text>
      {history.isError ? (
        <Text c="red" size="sm" role="alert">
          Error loading the history. Please try again later.
        </Text>
      ) : !history.data ? (
        <Stack gap="md" aria-busy="true" aria-label="Loading the history">
          {[0, 1, 2].map((i) => (
            <Stack key={i} gap={6}>
              <Skeleton h={16} w="40%" />
              <Skeleton h={12} w="75%" />
            </Stack>
          ))}
        </Stack>
      ) : versions.length === 0 ? (
        <Text c="dimmed" py="lg" ta="center">
          No history yet: changes to this code will be listed here.
        </Text>
      ) : (
        <>
          <Timeline bulletSize={24} lineWidth={2} active={0} role="list" aria-label="Versions">
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
                      {headingOf(version, versions)}
                    </Text>
                    {index === 0 && (
                      <Badge size="sm" variant="light" color="teal">
                        Current
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
                  {version.actor ? `by ${version.actor.username}` : 'by a deleted account'}
                </Text>
                <Stack gap={2}>
                  {version.kind === 'created' ? (
                    <>
                      <Text size="sm" style={wrap}>
                        {version.state.name}
                      </Text>
                      <Text size="sm" c="dimmed" style={wrap}>
                        {version.state.content}
                      </Text>
                    </>
                  ) : version.changes.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      No changes: the code already showed this version.
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
                    Restore
                  </Button>
                )}
              </Timeline.Item>
            ))}
          </Timeline>
          {versions.length > shown && (
            <Button variant="subtle" size="xs" mt="md" onClick={() => setShown((n) => n + PAGE)}>
              Show older versions ({versions.length - shown} more)
            </Button>
          )}
        </>
      )}

      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Restore this version?"
        centered
      >
        <Text size="sm">
          The code will show it from the next scan; this restore is kept in the history too.
        </Text>
        {confirming && (
          <Stack gap={2} mt="sm">
            <Text size="sm" fw={600} style={wrap}>
              {confirming.state.name}
            </Text>
            <Text size="sm" c="dimmed" style={wrap}>
              {confirming.state.content}
            </Text>
            <Text size="xs" c="dimmed">
              Version of {exactTime(confirming.created)}
            </Text>
          </Stack>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(null)}>
            Cancel
          </Button>
          <Button
            loading={restore.isPending}
            leftSection={<IconRestore size={16} aria-hidden />}
            onClick={() => {
              if (confirming) restore.mutate({ id: code.id, versionId: confirming.id });
            }}
          >
            Restore
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}
