import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Card, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconChevronDown,
  IconChevronRight,
  IconKey,
  IconPencil,
  IconSend,
  IconTrash,
} from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import {
  webhookEventLabels,
  webhookMessages,
  type Webhook,
  type WebhookWithSecret,
} from '../../../src/webhooks/webhook.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateShared } from '../../i18n/shared-messages';
import { exactTime, relativeTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';
import { DeliveryLog, DeliveryStateBadge } from './DeliveryLog';
import { sendResultText } from './webhook-format';
import { WebhookFormModal } from './WebhookFormModal';

/** Asks before a change that cannot be taken back; the server's refusal shows inside. */
function ConfirmModal({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  pending,
  error,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  pending: boolean;
  error: string | null;
}) {
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!pending) onConfirm();
        }}
      >
        <Stack gap="md">
          {children}
          {error && <ErrorAlert>{error}</ErrorAlert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" color="red" loading={pending}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A long address wraps anywhere rather than widen the page (a phone's 375 px). */
const wrapAnywhere = { overflowWrap: 'anywhere' } as const;

/** One endpoint: what it is sent and how its deliveries go, with its actions and its delivery log. */
export function WebhookCard({
  webhook,
  onSecret,
}: {
  webhook: Webhook;
  /** A new secret was made: shown once by the section. */
  onSecret: (created: WebhookWithSecret) => void;
}) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const now = useNow(15_000);
  const logId = useId();
  const [dialog, setDialog] = useState<'edit' | 'rotate' | 'delete' | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [logOpen, setLogOpen] = useState(false);
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const close = () => {
    setDialog(null);
    setDialogError(null);
  };
  const refreshList = () => utils.webhooks.list.invalidate();

  const update = trpc.webhooks.update.useMutation({
    onSuccess: async () => {
      notify.success(translateShared(webhookMessages.updated));
      close();
      await refreshList();
    },
    onError: (e) => {
      const message = apiError(e, t`Could not save the webhook`).message;
      if (dialog === 'edit') setDialogError(message);
      else notify.error(t`Could not save the webhook`, message);
    },
  });
  const test = trpc.webhooks.test.useMutation({
    onSuccess: async (delivery) => {
      notify.success(translateShared(webhookMessages.testQueued));
      setTestResult(sendResultText(delivery));
      await Promise.all([refreshList(), utils.webhooks.deliveries.invalidate({ id: webhook.id })]);
    },
    onError: (e) => setTestResult({ ok: false, text: apiError(e, t`Could not send the test`).message }),
  });
  const rotate = trpc.webhooks.rotateSecret.useMutation({
    onSuccess: async (created) => {
      close();
      onSecret(created);
      await refreshList();
    },
    onError: (e) => setDialogError(apiError(e, t`Could not make a new secret`).message),
  });
  const remove = trpc.webhooks.delete.useMutation({
    onSuccess: async () => {
      notify.success(translateShared(webhookMessages.deleted));
      close();
      await refreshList();
    },
    onError: (e) => setDialogError(apiError(e, t`Could not delete the webhook`).message),
  });

  const last = webhook.lastDelivery;
  const { url } = webhook;
  // The server's reason is English ('Its deliveries failed for 24 hours').
  const disabledReason = webhook.disabledReason && translateShared(webhook.disabledReason);
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={t`Webhook ${url}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <div style={{ minWidth: 0 }}>
            <Text fw={600} ff="monospace" size="sm" style={wrapAnywhere}>
              {webhook.url}
            </Text>
            {webhook.description && (
              <Text size="sm" c="dimmed" style={wrapAnywhere}>
                {webhook.description}
              </Text>
            )}
          </div>
          <Switch
            label={t`Enabled`}
            labelPosition="left"
            checked={webhook.enabled}
            disabled={update.isPending && update.variables.enabled !== undefined}
            onChange={(e) => update.mutate({ id: webhook.id, enabled: e.currentTarget.checked })}
          />
        </Group>
        {webhook.disabledReason && (
          <Alert
            role="note"
            color="orange"
            variant="light"
            icon={<IconAlertTriangle aria-hidden size={20} />}
            title={t`Disabled: ${disabledReason}`}
          >
            <Trans>Nothing is sent to it until it is turned on again.</Trans>
          </Alert>
        )}
        <Group gap={6} wrap="wrap" aria-label={t`Events sent`} role="group">
          {webhook.events.map((type) => (
            <Badge key={type} variant="light" color="blue" tt="none" style={{ maxWidth: '100%' }}>
              {translateShared(webhookEventLabels[type])}
            </Badge>
          ))}
        </Group>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed">
            <Trans>Last delivery:</Trans>
          </Text>
          {last ? (
            <>
              <DeliveryStateBadge state={last.state} />
              <Text size="sm" c="dimmed" title={exactTime(last.at)}>
                {relativeTime(last.at, now)}
              </Text>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              <Trans context="no delivery yet">none yet</Trans>
            </Text>
          )}
          <Text size="sm" c="dimmed">
            · <Trans context="the signing secret, followed by its first characters">Secret</Trans>{' '}
            <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{webhook.secretHint}</span>
          </Text>
        </Group>
        {testResult && (
          <Alert color={testResult.ok ? 'teal' : 'red'} variant="light" role="status" p="xs">
            <Text size="sm" style={wrapAnywhere}>
              {testResult.text}
            </Text>
          </Alert>
        )}
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil aria-hidden size={14} />}
            onClick={() => setDialog('edit')}
          >
            <Trans>Edit</Trans>
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconSend aria-hidden size={14} />}
            loading={test.isPending}
            onClick={() => {
              setTestResult(null);
              test.mutate({ id: webhook.id });
            }}
          >
            <Trans>Send a test</Trans>
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconKey aria-hidden size={14} />}
            onClick={() => setDialog('rotate')}
          >
            <Trans>New secret</Trans>
          </Button>
          <Button
            size="xs"
            variant="default"
            color="red"
            leftSection={<IconTrash aria-hidden size={14} />}
            onClick={() => setDialog('delete')}
          >
            <Trans>Delete</Trans>
          </Button>
          <Button
            size="xs"
            variant="subtle"
            aria-expanded={logOpen}
            aria-controls={logId}
            leftSection={
              logOpen ? <IconChevronDown aria-hidden size={14} /> : <IconChevronRight aria-hidden size={14} />
            }
            onClick={() => setLogOpen((v) => !v)}
          >
            <Trans>Delivery log</Trans>
          </Button>
        </Group>
        {logOpen && (
          <section id={logId} aria-label={t`Delivery log of ${url}`}>
            <DeliveryLog webhookId={webhook.id} />
          </section>
        )}
      </Stack>
      {dialog === 'edit' && (
        <WebhookFormModal
          webhook={webhook}
          pending={update.isPending}
          error={dialogError}
          onClose={close}
          onSubmit={(values) => {
            setDialogError(null);
            update.mutate({ id: webhook.id, ...values });
          }}
        />
      )}
      {dialog === 'rotate' && (
        <ConfirmModal
          title={t`Make a new signing secret?`}
          confirmLabel={t`Make a new secret`}
          pending={rotate.isPending}
          error={dialogError}
          onClose={close}
          onConfirm={() => rotate.mutate({ id: webhook.id })}
        >
          <Text size="sm">
            <Trans>
              The current secret stops signing at once: your endpoint must check with the new one, which is
              shown only once.
            </Trans>
          </Text>
        </ConfirmModal>
      )}
      {dialog === 'delete' && (
        <ConfirmModal
          title={t`Delete this webhook?`}
          confirmLabel={t`Delete`}
          pending={remove.isPending}
          error={dialogError}
          onClose={close}
          onConfirm={() => remove.mutate({ id: webhook.id })}
        >
          <Text size="sm" style={wrapAnywhere}>
            <Trans>Nothing more is sent to {url}, and its delivery log is deleted with it.</Trans>
          </Text>
        </ConfirmModal>
      )}
    </Card>
  );
}
