import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Box, Button, Code, Group, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconRefresh, IconSend } from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import { webhookMessages, type WebhookDelivery } from '../../../src/webhooks/webhook.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { exactTime, relativeTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { translateShared } from '../../i18n/shared-messages';
import { useNow } from '../../lib/use-now';
import {
  deliveryStateColors,
  deliveryStateLabels,
  eventTypesText,
  eventsCountText,
  prettyJson,
} from './webhook-format';

/** While the log is open its newest page is asked again this often: the job sends every second. */
const REFRESH_MS = 3_000;

export function DeliveryStateBadge({ state }: { state: WebhookDelivery['state'] }) {
  const { t } = useLingui();
  return (
    <Badge variant="light" color={deliveryStateColors[state]} data-delivery-state={state}>
      {t(deliveryStateLabels[state])}
    </Badge>
  );
}

/** A block of text that scrolls within itself (keyboard too: it takes the focus) instead of the page. */
function ScrollingCode({ label, children }: { label: string; children: string }) {
  return (
    <Code
      block
      role="region"
      aria-label={label}
      tabIndex={0}
      style={{ maxHeight: 320, overflow: 'auto', whiteSpace: 'pre', fontSize: 'var(--mantine-font-size-xs)' }}
    >
      {children}
    </Code>
  );
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      {children}
    </div>
  );
}

/** A delivery opened: what was sent, what came back, and "Redeliver". */
function DeliveryDetails({
  webhookId,
  delivery,
  onRedelivered,
}: {
  webhookId: number;
  delivery: WebhookDelivery;
  onRedelivered: () => void;
}) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const redeliver = trpc.webhooks.redeliver.useMutation({
    onSuccess: () => {
      notify.success(translateShared(webhookMessages.redelivered));
      onRedelivered();
    },
    onError: (e) => setError(apiError(e, t`Could not send it again`).message),
  });
  const { id, redeliveryOf, attempts } = delivery;
  const created = exactTime(delivery.createdAt);
  const lastAttempt = delivery.lastAttemptAt && exactTime(delivery.lastAttemptAt);
  const nextAttempt = delivery.nextAttemptAt && exactTime(delivery.nextAttemptAt);
  const facts = [
    t`Delivery #${id}`,
    t`created ${created}`,
    redeliveryOf !== null && t`sends #${redeliveryOf} again`,
    plural(attempts, { one: '# attempt', other: '# attempts' }),
    lastAttempt && t`last ${lastAttempt}`,
  ];
  return (
    <Stack gap="sm" p="sm" pt={0}>
      <Text size="xs" c="dimmed">
        {facts.filter(Boolean).join(' · ')}
      </Text>
      {nextAttempt && (delivery.state === 'retrying' || delivery.state === 'pending') && (
        <Text size="sm">
          <Trans>Next attempt: {nextAttempt}</Trans>
        </Text>
      )}
      {delivery.error && (
        <Detail label={t`Error`}>
          <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
            {translateShared(delivery.error)}
          </Text>
        </Detail>
      )}
      <Detail label={t`Request body`}>
        <ScrollingCode label={t`Request body of delivery ${id}`}>
          {prettyJson(delivery.payload)}
        </ScrollingCode>
      </Detail>
      <Detail label={t`Response`}>
        {delivery.responseExcerpt ? (
          <ScrollingCode label={t`Response of delivery ${id}`}>{delivery.responseExcerpt}</ScrollingCode>
        ) : (
          <Text size="sm" c="dimmed">
            {delivery.responseStatus !== null ? t`An empty answer.` : t`No answer.`}
          </Text>
        )}
      </Detail>
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconSend aria-hidden size={14} />}
          loading={redeliver.isPending}
          onClick={() => {
            setError(null);
            redeliver.mutate({ id: webhookId, deliveryId: delivery.id });
          }}
        >
          <Trans>Redeliver</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

function DeliveryRow({
  webhookId,
  delivery,
  now,
  onRedelivered,
}: {
  webhookId: number;
  delivery: WebhookDelivery;
  now: number;
  onRedelivered: () => void;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const Chevron = open ? IconChevronDown : IconChevronRight;
  return (
    <Box
      component="li"
      data-delivery={delivery.id}
      style={{
        listStyle: 'none',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      <UnstyledButton
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen((v) => !v)}
        p="xs"
        w="100%"
        style={{ borderRadius: 'var(--mantine-radius-sm)' }}
      >
        <Group gap="xs" wrap="wrap" align="center">
          <Chevron aria-hidden size={16} />
          <DeliveryStateBadge state={delivery.state} />
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {eventTypesText(delivery.eventTypes)}
          </Text>
          <Text size="sm" c="dimmed">
            {eventsCountText(delivery.events)}
          </Text>
          <Text size="sm" c="dimmed" title={exactTime(delivery.createdAt)}>
            {relativeTime(delivery.createdAt, now)}
          </Text>
          <Text size="sm" c="dimmed">
            {delivery.responseStatus !== null ? `HTTP ${delivery.responseStatus}` : t`No HTTP status`}
          </Text>
          {delivery.durationMs !== null && (
            <Text size="sm" c="dimmed">
              {delivery.durationMs} ms
            </Text>
          )}
        </Group>
      </UnstyledButton>
      {open && (
        <div id={detailsId}>
          <DeliveryDetails webhookId={webhookId} delivery={delivery} onRedelivered={onRedelivered} />
        </div>
      )}
    </Box>
  );
}

/**
 * An endpoint's deliveries, newest first, a page at a time ("Load older"). The newest page is asked again
 * every few seconds while only it is shown; with older pages loaded it stays as it was (a page that moved
 * would leave a gap before the older ones) until Refresh.
 */
export function DeliveryLog({ webhookId }: { webhookId: number }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const now = useNow(15_000);
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  const results = trpc.useQueries((q) =>
    pages.map((before, i) =>
      q.webhooks.deliveries(
        { id: webhookId, ...(before !== undefined ? { before } : {}) },
        i === 0 && pages.length === 1 ? { refetchInterval: REFRESH_MS } : {},
      ),
    ),
  );
  const first = results[0];
  const last = results[results.length - 1];
  const items = results.flatMap((r) => r.data?.items ?? []);
  const older = last?.data?.next;
  // The card's "Last delivery" follows the log's newest row.
  const newest = first?.data?.items[0];
  const newestKey = newest ? `${newest.id}:${newest.state}` : '';
  useEffect(() => {
    if (newestKey) void utils.webhooks.list.invalidate();
  }, [newestKey, utils]);

  const refresh = () => {
    setPages([undefined]);
    void utils.webhooks.deliveries.invalidate({ id: webhookId });
  };
  if (first?.isError) {
    return <ErrorAlert>{apiError(first.error, t`Could not load the deliveries`).message}</ErrorAlert>;
  }
  if (!first?.data) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label={t`Loading the deliveries`}>
        <Skeleton h={36} />
        <Skeleton h={36} />
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed">
          <Trans>
            Kept for a week (delivered scans: a day). Open a delivery for what was sent and answered.
          </Trans>
        </Text>
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconRefresh aria-hidden size={14} />}
          onClick={refresh}
        >
          <Trans>Refresh</Trans>
        </Button>
      </Group>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No deliveries yet: they show here as events happen, or send a test.</Trans>
        </Text>
      ) : (
        <Stack component="ul" gap={6} p={0} m={0} aria-label={t`Deliveries`}>
          {items.map((delivery) => (
            <DeliveryRow
              key={delivery.id}
              webhookId={webhookId}
              delivery={delivery}
              now={now}
              onRedelivered={refresh}
            />
          ))}
        </Stack>
      )}
      {last?.isError && (
        <ErrorAlert>{apiError(last.error, t`Could not load older deliveries`).message}</ErrorAlert>
      )}
      {typeof older === 'number' && (
        <Group justify="center">
          <Button size="xs" variant="default" onClick={() => setPages((p) => [...p, older])}>
            <Trans>Load older</Trans>
          </Button>
        </Group>
      )}
      {last?.isPending && pages.length > 1 && <Skeleton h={36} aria-label={t`Loading older deliveries`} />}
    </Stack>
  );
}
