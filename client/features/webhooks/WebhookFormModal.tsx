import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import {
  createWebhookInput,
  webhookEventLabels,
  webhookEventTypes,
  type Webhook,
  type WebhookEventType,
} from '../../../src/webhooks/webhook.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateShared } from '../../i18n/shared-messages';
import { fieldMessage } from './webhook-format';

export interface WebhookFormValues {
  url: string;
  description: string;
  events: WebhookEventType[];
}

type Field = keyof WebhookFormValues;

/**
 * Add and Edit: the endpoint's address, a note and its events, checked by the schema the server checks
 * with before anything is sent. The server's refusal (a private address, too many webhooks) shows inside.
 */
export function WebhookFormModal({
  webhook,
  onSubmit,
  onClose,
  pending,
  error,
}: {
  /** The endpoint edited; none when adding one. */
  webhook?: Webhook;
  onSubmit: (values: WebhookFormValues) => void;
  onClose: () => void;
  pending: boolean;
  error: string | null;
}) {
  const { t } = useLingui();
  const [values, setValues] = useState<WebhookFormValues>({
    url: webhook?.url ?? '',
    description: webhook?.description ?? '',
    events: webhook?.events ?? ['scan'],
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const change = <K extends Field>(field: K, value: WebhookFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  // The schema's message (English in src/), in the active language, without the field's name.
  const shown = (message: string | undefined) => message && fieldMessage(translateShared(message));
  return (
    <Modal opened onClose={onClose} title={webhook ? t`Edit webhook` : t`Add webhook`} centered size="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = createWebhookInput.safeParse(values);
          if (!parsed.success) {
            const found: Partial<Record<Field, string>> = {};
            for (const issue of parsed.error.issues) {
              const field = issue.path[0] as Field | undefined;
              if (field && !found[field]) found[field] = issue.message;
            }
            setErrors(found);
            return;
          }
          if (!pending) onSubmit({ ...values, url: parsed.data.url, description: values.description.trim() });
        }}
      >
        <Stack gap="md">
          <TextInput
            label={t`Endpoint URL`}
            description={t`Where the events are POSTed; https is recommended.`}
            placeholder="https://example.com/qr-creator-events"
            required
            type="url"
            data-autofocus
            value={values.url}
            error={shown(errors.url)}
            onChange={(e) => change('url', e.currentTarget.value)}
          />
          <Textarea
            label={t`Description`}
            description={t`A note for people: what this endpoint feeds (optional).`}
            autosize
            minRows={2}
            maxRows={4}
            value={values.description}
            error={shown(errors.description)}
            onChange={(e) => change('description', e.currentTarget.value)}
          />
          <Checkbox.Group
            label={t`Events`}
            description={t`What this endpoint is sent.`}
            required
            value={values.events}
            error={shown(errors.events)}
            onChange={(v) => change('events', v)}
          >
            <Stack gap="xs" mt="xs">
              {webhookEventTypes.map((type) => (
                <Checkbox
                  key={type}
                  value={type}
                  label={translateShared(webhookEventLabels[type])}
                  description={
                    <Text component="span" size="xs" c="dimmed" ff="monospace">
                      {type}
                    </Text>
                  }
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {error && <ErrorAlert>{error}</ErrorAlert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={pending}>
              {webhook ? t`Save` : t`Add webhook`}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
