import {
  Anchor,
  Button,
  Card,
  Code,
  EmptyState,
  Group,
  List,
  Skeleton,
  Stack,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  IconChevronDown,
  IconChevronRight,
  IconExternalLink,
  IconPlus,
  IconWebhook,
} from '@tabler/icons-react';
import { useId, useState } from 'react';
import {
  MAX_WEBHOOKS,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookMessages,
  type WebhookWithSecret,
} from '../../../src/webhooks/webhook.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { SecretModal } from './SecretModal';
import { WebhookCard } from './WebhookCard';
import { WebhookFormModal } from './WebhookFormModal';

/** The signature header's value, and what is signed: as a receiver's code reads them, not words. */
const SIGNATURE_FORMAT = 't=<unix seconds>,v1=<hex>';
const SIGNED_TEXT = '${t}.${raw body}';

/** How a receiver checks a delivery, in a few lines (docs/integrations.md has it in Node and Python). */

function HowToVerify() {
  const [open, setOpen] = useState(false);
  const id = useId();
  const signatureHeader = WEBHOOK_SIGNATURE_HEADER;
  const deliveryHeader = WEBHOOK_DELIVERY_HEADER;
  const minutes = WEBHOOK_TOLERANCE_SECONDS / 60;
  const hours = WEBHOOK_RETRY_HOURS;
  return (
    <div>
      <UnstyledButton
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((v) => !v)}
        c="var(--mantine-color-anchor)"
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {open ? <IconChevronDown aria-hidden size={14} /> : <IconChevronRight aria-hidden size={14} />}
        <Trans>Signed with HMAC-SHA256 — how to verify</Trans>
      </UnstyledButton>
      {open && (
        <Stack id={id} gap={6} mt="xs" pl="md">
          <List size="sm" spacing={4} type="ordered">
            <List.Item>
              <Trans>
                Read the <Code>{signatureHeader}</Code> header: <Code>{SIGNATURE_FORMAT}</Code>.
              </Trans>
            </List.Item>
            <List.Item>
              <Trans>
                Compute the HMAC-SHA256 of <Code>{SIGNED_TEXT}</Code> with the endpoint’s signing secret, in
                hex, and compare it with <Code>v1</Code> in constant time.
              </Trans>
            </List.Item>
            <List.Item>
              <Trans>
                Refuse a <Code>t</Code> more than <Plural value={minutes} one="# minute" other="# minutes" />{' '}
                from your clock, and drop repeats by each event’s <Code>id</Code> (a delivery’s id is in{' '}
                <Code>{deliveryHeader}</Code>).
              </Trans>
            </List.Item>
          </List>
          <Text size="sm">
            <Trans>
              Answer with any 2xx within 10 seconds; anything else is retried with growing pauses for{' '}
              <Plural value={hours} one="# hour" other="# hours" />, then the endpoint is turned off and the
              admins are mailed.
            </Trans>
          </Text>
          <Anchor
            href="/api/docs"
            target="_blank"
            rel="noopener"
            size="sm"
            display="inline-flex"
            style={{ alignItems: 'center', gap: 4 }}
          >
            <Trans>The API documentation</Trans>
            <IconExternalLink size={14} aria-hidden />
            <VisuallyHidden>
              <Trans>(opens in a new tab)</Trans>
            </VisuallyHidden>
          </Anchor>
        </Stack>
      )}
    </div>
  );
}

/**
 * Integrations → Webhooks (issue 36): the workspace's endpoints, for its admins. A secret is shown once,
 * when the endpoint is added and when a new one is made.
 */
export function WebhooksSection() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const list = trpc.webhooks.list.useQuery();
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const create = trpc.webhooks.create.useMutation({
    onSuccess: async (created) => {
      notify.success(translateShared(webhookMessages.created));
      setAdding(false);
      setSecret(created);
      await utils.webhooks.list.invalidate();
    },
    onError: (e) => setAddError(apiError(e, t`Could not add the webhook`).message),
  });
  const items = list.data?.items;
  const full = (items?.length ?? 0) >= MAX_WEBHOOKS;
  const add = (
    <Button
      leftSection={<IconPlus aria-hidden size={16} />}
      disabled={full}
      onClick={() => {
        setAddError(null);
        setAdding(true);
      }}
    >
      <Trans>Add webhook</Trans>
    </Button>
  );
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="webhooks-heading">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <div style={{ flex: '1 1 280px', minWidth: 0 }}>
            <Title order={3} size="h4" id="webhooks-heading">
              <Trans>Webhooks</Trans>
            </Title>
            <Text size="sm" c="dimmed">
              <Trans>
                Your endpoints get this workspace’s events as they happen — scans, codes created, changed or
                deleted, a destination down, the code limit reached — as signed JSON POSTs.
              </Trans>
            </Text>
            <HowToVerify />
          </div>
          {items && items.length > 0 && add}
        </Group>
        {full && (
          <Text size="sm" c="dimmed">
            {translateShared(webhookMessages.tooMany)}.
          </Text>
        )}
        {list.isError ? (
          <ErrorAlert>{apiError(list.error, t`Could not load the webhooks`).message}</ErrorAlert>
        ) : !items ? (
          <Stack gap="sm" aria-busy="true" aria-label={t`Loading the webhooks`}>
            <Skeleton h={140} radius="md" />
            <Skeleton h={140} radius="md" />
          </Stack>
        ) : items.length === 0 ? (
          <EmptyState
            icon={<IconWebhook size={28} stroke={1.5} aria-hidden />}
            withIndicatorBackground
            title={t`No webhooks yet`}
            description={t`Add your endpoint’s URL and choose its events: QR Creator sends each one to it, signed, as it happens.`}
            size="sm"
          >
            <EmptyState.Actions>{add}</EmptyState.Actions>
          </EmptyState>
        ) : (
          <Stack gap="sm">
            {items.map((webhook) => (
              <WebhookCard key={webhook.id} webhook={webhook} onSecret={setSecret} />
            ))}
          </Stack>
        )}
      </Stack>
      {adding && (
        <WebhookFormModal
          pending={create.isPending}
          error={addError}
          onClose={() => setAdding(false)}
          onSubmit={(values) => {
            setAddError(null);
            create.mutate(values);
          }}
        />
      )}
      {secret && <SecretModal secret={secret.secret} url={secret.url} onClose={() => setSecret(null)} />}
    </Card>
  );
}
