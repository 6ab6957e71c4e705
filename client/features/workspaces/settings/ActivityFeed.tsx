import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { WorkspaceActivity } from '../../../../src/workspaces/workspace.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { exactTime, relativeTime } from '../../../lib/format';
import { apiError, trpc } from '../../../lib/trpc';
import { useNow } from '../../../lib/use-now';
import { describeActivity } from './activity-text';

const PAGE = 20;

function ActivityLine({ entry, now }: { entry: WorkspaceActivity; now: number }) {
  const { actor, what, target } = describeActivity(entry);
  return (
    <Text
      component="li"
      size="sm"
      py={6}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)', overflowWrap: 'anywhere' }}
    >
      <Text component="span" fw={600} inherit>
        {actor}
      </Text>{' '}
      {what}
      {target && (
        <>
          {' '}
          <Text component="span" fw={500} inherit>
            {target}
          </Text>
        </>
      )}{' '}
      <Text component="span" c="dimmed" inherit>
        ·{' '}
        <time dateTime={entry.createdAt} title={exactTime(entry.createdAt)}>
          {relativeTime(entry.createdAt, now)}
        </time>
      </Text>
    </Text>
  );
}

/**
 * One page of the feed: the newest (before undefined), or the entries older than `before`. The last page
 * shown offers "Load more" while the server says there is more.
 */
function ActivityPage({
  workspaceId,
  before,
  last,
  first,
  onMore,
  now,
}: {
  workspaceId: number;
  before: number | undefined;
  last: boolean;
  first: boolean;
  onMore: (before: number) => void;
  now: number;
}) {
  const { t } = useLingui();
  const page = trpc.workspaces.activity.useQuery({ workspaceId, before, limit: PAGE });
  if (page.isError)
    return <ErrorAlert>{apiError(page.error, t`Could not load the activity`).message}</ErrorAlert>;
  if (!page.data) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label={t`Loading activity`}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} h={20} />
        ))}
      </Stack>
    );
  }
  const { items, nextBefore } = page.data;
  return (
    <>
      {first && items.length === 0 && (
        <Text size="sm" c="dimmed">
          <Trans>
            Nothing has happened here yet. Creating, changing and deleting codes, and changes to members, show
            up here.
          </Trans>
        </Text>
      )}
      {items.length > 0 && (
        <Stack component="ul" gap={0} p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((entry) => (
            <ActivityLine key={entry.id} entry={entry} now={now} />
          ))}
        </Stack>
      )}
      {last && nextBefore !== null && (
        <Button variant="default" size="sm" mt="sm" onClick={() => onMore(nextBefore)}>
          <Trans>Load more</Trans>
        </Button>
      )}
    </>
  );
}

/** Who did what in the workspace, newest first, paged with "Load more". Every member reads it. */
export function ActivityFeed({ workspaceId }: { workspaceId: number }) {
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  const now = useNow(30_000);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="activity-title">
      <Title order={3} size="h4" id="activity-title" mb="sm">
        <Trans>Activity</Trans>
      </Title>
      <div>
        {pages.map((before, i) => (
          <ActivityPage
            key={before ?? 'newest'}
            workspaceId={workspaceId}
            before={before}
            first={i === 0}
            last={i === pages.length - 1}
            onMore={(next) => setPages((shown) => [...shown, next])}
            now={now}
          />
        ))}
      </div>
    </Card>
  );
}
